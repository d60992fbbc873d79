import { PlusOutlined } from '@ant-design/icons';
import { GROUP_TEMP_TTL_H, MenuId, type TalkGroup } from '@bwc/protocol';
import { Badge, Button, Card, Checkbox, Popconfirm, Popover, Segmented, Space, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { QueryError } from '../../../components/crud';
import { DataTable, useTableUrlState, type DataTableColumn } from '../../../components/data-table';
import { SearchBar, type SearchItem } from '../../../components/search-bar';
import { formatTime } from '../../../format/time';
import { GroupFormDialog } from './GroupFormDialog';
import { GroupTreeView } from './GroupTreeView';
import { useGroupList, useGroupReload, useGroupRights, useTrunkStates, useUnitNames, type GroupSdk } from './groupData';
import {
  isExternalGroup,
  memberOnline,
  onlineCount,
  shownMembers,
  visibleMembers,
  type TrunkStates,
} from './groupRules';
import { consoleSdk } from '../../../realtime/sdk/groupLogin';
import './voice-manage.css';

/** Prefix of the page's URL parameters (grp.keyword, grp.online, grp.page). */
const URL_KEY = 'grp';
const NONE = '—';

type View = 'table' | 'tree';

/** The members of a group as a list with their online states ("online members only" applied). */
function MemberList({ group, states, onlineOnly }: { group: TalkGroup; states: TrunkStates; onlineOnly: boolean }) {
  const { t } = useTranslation('dispatch');
  const members = shownMembers(group, states, onlineOnly);
  if (members.length === 0)
    return <Typography.Text type="secondary">{t('voiceManage.noMembersShown')}</Typography.Text>;
  return (
    <ul className="bwc-voice-member-list" data-testid="group-member-list">
      {members.map((member) => (
        <li key={member.uid}>
          <Badge
            status={memberOnline(member, states) ? 'success' : 'default'}
            text={member.display_name || member.hostbody}
            data-online={memberOnline(member, states) ? 1 : 0}
          />
        </li>
      ))}
    </ul>
  );
}

/**
 * /dispatch/voiceManage (group management, menu 10107): the talk groups of the user's scope,
 * fixed and temporary (spec part 2 sections 3, 5, 6, 7.1, 9), as a table or as a lazily loaded
 * tree; search by name with "online members only"; create, edit and delete for those whose role
 * the server lets do it. Groups of another system (jg_) are read-only; the list is read again
 * GROUP_RELOAD_DELAY_MS after a create or an edit.
 */
export function VoiceManagePage({ sdk = consoleSdk }: { sdk?: GroupSdk }) {
  const { t } = useTranslation('dispatch');
  const rights = useGroupRights(MenuId.VOICE_MANAGE);
  const [view, setView] = useState<View>('table');
  const [target, setTarget] = useState<TalkGroup | 'new' | null>(null);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('voiceManage.field.name'),
        placeholder: t('groupTab.search'),
      },
      {
        type: 'custom',
        name: 'online',
        render: ({ value, onChange }) => (
          <Checkbox
            checked={value === '1'}
            onChange={(event) => onChange(event.target.checked ? '1' : undefined)}
            data-testid="group-online-only"
          >
            {t('groupTab.onlineOnly')}
          </Checkbox>
        ),
      },
      {
        type: 'button',
        key: 'add',
        label: t('voiceManage.action.add'),
        icon: <PlusOutlined />,
        primary: true,
        onClick: () => setTarget('new'),
        visible: rights.add,
      },
    ],
    [t, rights.add],
  );
  const { filters, setFilters } = useTableUrlState(searchItems, URL_KEY);
  const keyword = typeof filters.keyword === 'string' ? filters.keyword.trim() : '';
  const onlineOnly = filters.online === '1';

  const list = useGroupList(keyword, sdk);
  const groups = useMemo(() => list.data ?? [], [list.data]);
  const states = useTrunkStates(list.dataUpdatedAt, sdk);
  const unitNames = useUnitNames(useMemo(() => groups.map((g) => g.bh), [groups]));

  const reload = useGroupReload();
  const saved = useCallback(() => {
    setTarget(null);
    reload.later();
  }, [reload]);
  const remove = useCallback(
    async (group: TalkGroup) => {
      try {
        await call('groupDelete', { channel_id: group.tgid }, { success: true });
      } catch {
        // the http layer has said why; the row stays
      }
      await reload.now();
    },
    [reload],
  );

  const columns = useMemo<DataTableColumn<TalkGroup>[]>(() => {
    const out: DataTableColumn<TalkGroup>[] = [
      {
        title: t('voiceManage.field.name'),
        key: 'name',
        // a temporary group's name is prefix + 14 digits + 1: whole at 1280 px
        width: 220,
        ellipsis: true,
        render: (_v, group) => (
          <span data-testid="group-row-name" title={group.remark || undefined}>
            {group.tg_name}
          </span>
        ),
      },
      {
        title: t('voiceManage.field.cate'),
        key: 'cate',
        width: 90,
        render: (_v, group) => (
          <Tag color={group.preconfig === 1 ? 'blue' : 'orange'} bordered={false}>
            {group.preconfig === 1 ? t('groupTab.fixed') : t('groupTab.temporary')}
          </Tag>
        ),
      },
      {
        title: t('voiceManage.field.extTgid'),
        key: 'ext_tgid',
        width: 120,
        className: 'bwc-nowrap',
        render: (_v, group) => group.ext_tgid || NONE,
      },
      {
        title: t('voiceManage.field.unit'),
        key: 'unit',
        ellipsis: true,
        render: (_v, group) => unitNames.get(group.bh) ?? group.bh,
      },
      {
        title: t('voiceManage.field.members'),
        key: 'members',
        width: 90,
        render: (_v, group) => (
          <Popover
            trigger="click"
            title={group.tg_name}
            content={<MemberList group={group} states={states} onlineOnly={onlineOnly} />}
          >
            <Button type="link" size="small" data-testid="group-members">
              {visibleMembers(group).length}
            </Button>
          </Popover>
        ),
      },
      {
        title: t('voiceManage.field.online'),
        key: 'online',
        width: 90,
        render: (_v, group) => (
          <span data-testid="group-online">
            {t('voiceManage.onlineOf', { online: onlineCount(group, states), total: visibleMembers(group).length })}
          </span>
        ),
      },
      {
        title: t('voiceManage.field.created'),
        key: 'created',
        width: 170,
        className: 'bwc-nowrap',
        render: (_v, group) => formatTime(group.created),
      },
      {
        title: t('voiceManage.field.expires'),
        key: 'expires',
        width: 170,
        className: 'bwc-nowrap',
        render: (_v, group) => (group.preconfig === 1 || !group.expires ? NONE : formatTime(group.expires)),
      },
    ];
    if (rights.edit)
      out.push({
        title: t('host.operation'),
        key: 'operation',
        width: 130,
        render: (_v, group) => {
          // groups of another system are kept there: both buttons stay, disabled, saying why
          const why = isExternalGroup(group) ? t('voiceManage.external') : undefined;
          return (
            <Space size={0}>
              <Tooltip title={why}>
                <Button
                  type="link"
                  size="small"
                  disabled={why !== undefined}
                  onClick={() => setTarget(group)}
                  data-testid="group-edit"
                >
                  {t('voiceManage.action.edit')}
                </Button>
              </Tooltip>
              {why ? (
                <Tooltip title={why}>
                  <Button type="link" size="small" danger disabled data-testid="group-delete">
                    {t('voiceManage.action.delete')}
                  </Button>
                </Tooltip>
              ) : (
                <Popconfirm
                  title={t('voiceManage.confirmDelete', { name: group.tg_name })}
                  onConfirm={() => remove(group)}
                >
                  <Button type="link" size="small" danger data-testid="group-delete">
                    {t('voiceManage.action.delete')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          );
        },
      });
    return out;
  }, [t, unitNames, states, onlineOnly, rights.edit, remove]);

  return (
    <Card
      title={t('voiceManage.title')}
      extra={
        <Space>
          <Typography.Text type="secondary">
            {t('voiceManage.temporaryNote', { hours: GROUP_TEMP_TTL_H })}
          </Typography.Text>
          <Segmented<View>
            value={view}
            onChange={setView}
            options={[
              { value: 'table', label: t('voiceManage.view.table') },
              { value: 'tree', label: t('voiceManage.view.tree') },
            ]}
            data-testid="group-view"
          />
        </Space>
      }
      data-testid="voice-manage-page"
    >
      <SearchBar items={searchItems} values={filters} onSearch={setFilters} />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : view === 'table' ? (
        <DataTable<TalkGroup>
          columns={columns}
          rowKey="tgid"
          urlKey={URL_KEY}
          dataSource={groups}
          loading={list.isFetching}
          scroll={{ x: 1100 }}
        />
      ) : (
        <GroupTreeView
          // a reload or the online switch reads the opened groups' members again
          key={`${list.dataUpdatedAt}-${onlineOnly ? 1 : 0}`}
          groups={groups}
          states={states}
          onlineOnly={onlineOnly}
        />
      )}
      <GroupFormDialog target={target} onClose={() => setTarget(null)} onSaved={saved} unitNames={unitNames} />
    </Card>
  );
}
