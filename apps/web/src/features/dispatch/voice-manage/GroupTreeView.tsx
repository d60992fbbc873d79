import { TeamOutlined } from '@ant-design/icons';
import { GROUP_TREE_LOAD_DELAY_MS, type GroupMember, type TalkGroup } from '@bwc/protocol';
import { Badge } from 'antd';
import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { Tree, type TreeItem } from '../../../components/tree';
import { memberOnline, onlineCount, shownMembers, visibleMembers, type TrunkStates } from './groupRules';

interface GroupTreeItem extends TreeItem {
  group?: TalkGroup;
  member?: GroupMember;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Props {
  groups: readonly TalkGroup[];
  states: TrunkStates;
  onlineOnly: boolean;
  /** a group row clicked (the cluster screen opens its talk panel) */
  onSelectGroup?: (group: TalkGroup) => void;
  height?: number;
}

/**
 * The group tree (spec part 2 sections 2.2 and 9): groups, each one's members read when it is
 * opened, GROUP_TREE_LOAD_DELAY_MS per loaded node. Remount it (React key) to read members again.
 */
export function GroupTreeView({ groups, states, onlineOnly, onSelectGroup, height = 520 }: Props) {
  const { t } = useTranslation('dispatch');
  const data = useMemo<GroupTreeItem[]>(
    () =>
      groups.map((group) => ({
        id: `g${group.tgid}`,
        name: `${group.tg_name} · ${t(group.preconfig === 1 ? 'groupTab.fixed' : 'groupTab.temporary')} · ${t(
          'groupTab.count',
          { online: onlineCount(group, states), total: visibleMembers(group).length },
        )}`,
        hasChildren: visibleMembers(group).length > 0,
        group,
      })),
    [groups, states, t],
  );
  // "online only" goes by the states when a group opens; the icons follow them afterwards
  const statesNow = useRef(states);
  statesNow.current = states;
  const loadChildren = useCallback(
    async (item: GroupTreeItem): Promise<GroupTreeItem[]> => {
      if (!item.group) return [];
      await delay(GROUP_TREE_LOAD_DELAY_MS);
      const group = await call('groupGet', { channel_id: item.group.tgid });
      return shownMembers(group, statesNow.current, onlineOnly).map((member) => ({
        id: `m${group.tgid}-${member.uid}`,
        name: member.display_name || member.hostbody,
        member,
      }));
    },
    [onlineOnly],
  );
  const icon = useCallback(
    (item: GroupTreeItem) =>
      item.member ? (
        <Badge
          status={memberOnline(item.member, states) ? 'success' : 'default'}
          data-testid="group-tree-member"
          data-online={memberOnline(item.member, states) ? 1 : 0}
        />
      ) : (
        <TeamOutlined />
      ),
    [states],
  );
  return (
    <div className="bwc-voice-tree" data-testid="group-tree">
      <Tree<GroupTreeItem>
        data={data}
        loadChildren={loadChildren}
        icon={icon}
        height={height}
        onSelect={(item) => item.group && onSelectGroup?.(item.group)}
      />
    </div>
  );
}
