import { AudioOutlined, MessageOutlined, TeamOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { MenuId, UserState, type GroupMember, type TalkGroup } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Checkbox, Empty, Input, Spin, Tag, Tree } from 'antd';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import type { DevicePointStore } from '../../map/pointStore';
import { consoleSdk } from '../../realtime/sdk/groupLogin';
import { usePermission } from '../../app/session/Permission';
import { useFloor } from '../talk/floor';
import { AddMembers, AttachTag, MemberActions, useAttachments, type GroupTabSdk } from './groupMembers';
import { useTrunkStates } from './voice-manage/groupData';
import type { TrunkStates } from './voice-manage/groupRules';
import { openTalk } from '../talk/openTalk';
import { openConference } from '../conference/openConference';

/**
 * How often the stored groups are read again besides the console service's group notices (a
 * console that is not logged onto the service hears none).
 */
const GROUPS_REFRESH_MS = 60_000;

/** Notices of the console service after which the groups are read again (any console, terminal or administrator). */
const GROUP_NOTICES = [
  'notice_create_grp',
  'notice_update_grp',
  'notice_delete_grp',
  'notice_add_grp_mem',
  'notice_rem_grp_mem',
] as const;

/** The query key of the group tab; invalidate it after creating or deleting a group. */
export const GROUPS_QUERY_KEY = ['dispatch', 'groups'] as const;

interface Props {
  store: DevicePointStore;
  onLocate: (deviceId: number) => void;
  /** opens the group's conversation in the messages tab */
  onMessage?: (tgid: number, name: string) => void;
  /** the console service connection whose group notices refresh the list (default: the console's) */
  sdk?: GroupTabSdk;
}

/** Who talks in a group now (notice_ptt_status), beside its name; nothing while nobody does. */
function GroupFloor({ sdk, tgid }: { sdk: GroupTabSdk; tgid: number }) {
  const { t } = useTranslation('talk');
  const talker = useFloor(sdk, tgid)?.talker;
  if (!talker) return null;
  return (
    <Tag color={talker.emergency ? 'red' : 'green'} bordered={false} data-testid="group-floor" data-uid={talker.uid}>
      <AudioOutlined /> {t('group.talking', { name: talker.name })}
    </Tag>
  );
}

/**
 * A member is online when the console service says so (trunk state 7: logged on as a terminal),
 * or by the live point store when it has the device (device API), else by the group answer.
 */
function online(store: DevicePointStore, member: GroupMember, trunk: TrunkStates): boolean {
  if (trunk.get(member.uid) === UserState.ONLINE) return true;
  const point = store.get(member.uid);
  return (point?.lineon ?? member.lineon) === 1;
}

/**
 * Group tab of the emergency screen: the stored talk groups of the user's scope (fixed and
 * temporary) with their live online counts and members, read again as soon as the console service
 * tells of a group change; a member click locates it on the map. Each group shows who holds its
 * floor and has a talk button that opens its push-to-talk panel (features/talk). With edit on the
 * emergency screen (the rule of the console service's codes) a console adds members, pulls a member
 * into the group or pushes it out, and removes it; each member shows whether it is in the group
 * (speak and hear) or listening only.
 */
export function GroupTab({ store, onLocate, onMessage, sdk = consoleSdk }: Props) {
  const { t } = useTranslation('dispatch');
  const { t: tt } = useTranslation('talk');
  const { t: tc } = useTranslation('conference');
  const queryClient = useQueryClient();
  // a group created, changed or deleted anywhere: read the list again at once
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: GROUPS_QUERY_KEY });
    const offs = GROUP_NOTICES.map((code) => sdk.on(code, refresh));
    return () => offs.forEach((off) => off());
  }, [sdk, queryClient]);
  const [keyword, setKeyword] = useState('');
  const [onlineOnly, setOnlineOnly] = useState(false);
  const groups = useQuery({
    queryKey: [...GROUPS_QUERY_KEY, keyword],
    // every member comes back: "online only" filters here, by the live states, so the counts stay whole
    queryFn: ({ signal }) => call('groupList', { keyword: keyword || undefined }, { signal }),
    refetchInterval: GROUPS_REFRESH_MS,
  });
  // online states follow the live store (pushed online/offline), not only the last answer
  const version = useSyncExternalStore(store.subscribe, store.version);
  const mayEdit = usePermission(MenuId.EMERGENCY, 'edit');
  const memberUids = useMemo(
    () =>
      [...new Set((groups.data ?? []).flatMap((g: TalkGroup) => g.children.map((m) => m.uid)))].sort((a, b) => a - b),
    [groups.data],
  );
  const attach = useAttachments(sdk, memberUids);
  const trunk = useTrunkStates(groups.data, sdk);

  const treeData = useMemo(() => {
    void version;
    return (groups.data ?? []).map((g: TalkGroup) => {
      const members = g.children.filter((m) => !onlineOnly || online(store, m, trunk));
      const on = g.children.filter((m) => online(store, m, trunk)).length;
      return {
        key: `g${g.tgid}`,
        selectable: false,
        title: (
          <span className="bwc-group-node" data-testid="group-node" data-tgid={g.tgid}>
            <span className="bwc-group-title">
              <TeamOutlined />
              <span className="bwc-group-name" title={g.tg_name}>
                {g.tg_name}
              </span>
            </span>
            <span className="bwc-group-meta">
              <Tag color={g.preconfig === 1 ? 'blue' : 'orange'} bordered={false}>
                {g.preconfig === 1 ? t('groupTab.fixed') : t('groupTab.temporary')}
              </Tag>
              <GroupFloor sdk={sdk} tgid={g.tgid} />
              <span className="bwc-group-count" data-testid="group-count">
                {t('groupTab.count', { online: on, total: g.total })}
              </span>
              <Button
                size="small"
                type="text"
                icon={<AudioOutlined />}
                aria-label={tt('group.talk')}
                title={tt('group.talk')}
                data-testid="group-talk"
                onClick={(event) => {
                  event.stopPropagation();
                  openTalk({ tgid: g.tgid });
                }}
              />
              <Button
                size="small"
                type="text"
                icon={<VideoCameraOutlined />}
                aria-label={tc('group.open')}
                title={tc('group.open')}
                data-testid="group-conference"
                onClick={(event) => {
                  event.stopPropagation();
                  openConference({ tgid: g.tgid });
                }}
              />
              {mayEdit && <AddMembers sdk={sdk} tgid={g.tgid} name={g.tg_name} />}
              {onMessage && (
                <Button
                  size="small"
                  type="text"
                  icon={<MessageOutlined />}
                  aria-label={t('im.message')}
                  title={t('im.message')}
                  data-testid="group-message"
                  onClick={(event) => {
                    event.stopPropagation();
                    onMessage(g.tgid, g.tg_name);
                  }}
                />
              )}
            </span>
          </span>
        ),
        children: members.map((m) => ({
          key: `m${g.tgid}-${m.uid}`,
          isLeaf: true,
          uid: m.uid,
          title: (
            <span
              className="bwc-group-member"
              data-testid="group-member"
              data-uid={m.uid}
              data-online={online(store, m, trunk) ? 1 : 0}
            >
              <Badge
                status={online(store, m, trunk) ? 'success' : 'default'}
                text={m.display_name || m.hostbody}
                data-state={online(store, m, trunk) ? 'online' : 'offline'}
              />
              <AttachTag info={attach.get(m.uid)} tgid={g.tgid} />
              {mayEdit && (
                <MemberActions sdk={sdk} tgid={g.tgid} uid={m.uid} attached={attach.get(m.uid)?.tgid === g.tgid} />
              )}
            </span>
          ),
        })),
      };
    });
  }, [groups.data, onlineOnly, store, t, tt, tc, version, onMessage, sdk, attach, mayEdit, trunk]);

  return (
    <div className="bwc-group-tab" data-testid="group-tab">
      <Input.Search
        allowClear
        placeholder={t('groupTab.search')}
        enterButton={t('search.button')}
        onSearch={(value) => setKeyword(value.trim())}
        data-testid="group-search"
      />
      <Checkbox checked={onlineOnly} onChange={(e) => setOnlineOnly(e.target.checked)} data-testid="group-online-only">
        {t('groupTab.onlineOnly')}
      </Checkbox>
      {groups.isPending ? (
        <Spin />
      ) : treeData.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={keyword ? t('groupTab.noMatch') : t('groupTab.empty')}
        />
      ) : (
        <Tree
          blockNode
          defaultExpandAll
          height={420}
          treeData={treeData}
          onSelect={(_keys, { node }) => {
            const uid = (node as { uid?: number }).uid;
            if (uid !== undefined) onLocate(uid);
          }}
        />
      )}
    </div>
  );
}
