import { AudioOutlined, PlusOutlined } from '@ant-design/icons';
import { MenuId, type TalkGroup } from '@bwc/protocol';
import { Button, Card, Checkbox, Empty, Input, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/crud';
import { LEFT_PANEL_WIDTH } from '../../../map/MapScreen';
import { consoleSdk } from '../../../realtime/sdk/groupLogin';
import { openTalk } from '../../talk/openTalk';
import { GroupFormDialog } from '../voice-manage/GroupFormDialog';
import { GroupTreeView } from '../voice-manage/GroupTreeView';
import {
  useGroupList,
  useGroupReload,
  useGroupRights,
  useTrunkStates,
  useUnitNames,
  type GroupSdk,
} from '../voice-manage/groupData';
import './cluster.css';

/**
 * /dispatch/cluster (cluster intercom, menu 10102; spec part 2 section 2.2): the group tree with
 * fixed and temporary groups, its search and the add-group dialog on the left; a group clicked
 * opens its talk panel (`openTalk`), which sits in the slot on the right.
 */
export function ClusterPage({ sdk = consoleSdk }: { sdk?: GroupSdk }) {
  const { t } = useTranslation('dispatch');
  const rights = useGroupRights(MenuId.CLUSTER);
  const [keyword, setKeyword] = useState('');
  const [onlineOnly, setOnlineOnly] = useState(false);
  const [adding, setAdding] = useState(false);
  const [active, setActive] = useState<TalkGroup | null>(null);

  const list = useGroupList(keyword, sdk);
  const groups = useMemo(() => list.data ?? [], [list.data]);
  const states = useTrunkStates(list.dataUpdatedAt, sdk);
  const unitNames = useUnitNames(useMemo(() => groups.map((g) => g.bh), [groups]));
  const reload = useGroupReload();
  // the group shown in the slot as the list last told it (renamed, or gone)
  const shown = active && groups.find((g) => g.tgid === active.tgid);

  const talk = useCallback((group: TalkGroup) => {
    setActive(group);
    openTalk({ tgid: group.tgid });
  }, []);

  return (
    <div className="bwc-cluster" data-testid="cluster-page">
      <Card
        className="bwc-cluster-groups"
        style={{ width: LEFT_PANEL_WIDTH }}
        size="small"
        title={t('cluster.groups')}
        extra={
          rights.add && (
            <Button size="small" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="cluster-add">
              {t('voiceManage.action.add')}
            </Button>
          )
        }
      >
        <Input.Search
          allowClear
          placeholder={t('groupTab.search')}
          onSearch={(value) => setKeyword(value.trim())}
          data-testid="cluster-search"
        />
        <Checkbox
          checked={onlineOnly}
          onChange={(event) => setOnlineOnly(event.target.checked)}
          data-testid="group-online-only"
        >
          {t('groupTab.onlineOnly')}
        </Checkbox>
        {list.isError && !list.data ? (
          <QueryError error={list.error} onRetry={() => void list.refetch()} />
        ) : groups.length === 0 && !list.isFetching ? (
          <Empty description={t(keyword ? 'groupTab.noMatch' : 'groupTab.empty')} />
        ) : (
          <GroupTreeView
            // a reload or the online switch reads the opened groups' members again
            key={`${list.dataUpdatedAt}-${onlineOnly ? 1 : 0}`}
            groups={groups}
            states={states}
            onlineOnly={onlineOnly}
            onSelectGroup={talk}
          />
        )}
      </Card>
      {/* the talk panel (features/talk) opens on openTalk and takes this place */}
      <section className="bwc-cluster-talk" data-testid="cluster-talk-slot" data-tgid={shown?.tgid}>
        {shown ? (
          <Empty image={<AudioOutlined className="bwc-cluster-talk-icon" />} description={shown.tg_name}>
            <Typography.Paragraph type="secondary">{t('cluster.talkHere')}</Typography.Paragraph>
            <Button type="primary" onClick={() => openTalk({ tgid: shown.tgid })} data-testid="cluster-open-talk">
              {t('cluster.openTalk')}
            </Button>
          </Empty>
        ) : (
          <Empty description={t('cluster.pick')} />
        )}
      </section>
      <GroupFormDialog
        target={adding ? 'new' : null}
        onClose={() => setAdding(false)}
        onSaved={() => {
          setAdding(false);
          reload.later();
        }}
        unitNames={unitNames}
      />
    </div>
  );
}
