import { ApartmentOutlined, ApiOutlined, PlayCircleOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { GbPoint, GbPointChannel, TreeNode } from '@bwc/protocol';
import { Button, Tree, type TreeDataNode } from 'antd';
import { useMemo, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { UnitNodeTitle } from '../../../../components/unit-tree';
import { openLive } from '../../openLive';
import { liveDeviceOfGbChannel } from '../gbLive';
import { unitKeys, type GbDeviceTree, type GbUnitEntry } from './gbTree';

/** A unit as the unit tree's node, so that its row reads as on the dispatch map (name, online count). */
function unitNode(entry: GbUnitEntry): TreeNode {
  return { id: entry.unit.id, unitname: entry.unit.name, sub: 1, last: 0, treecate: 'unit', lion_count: entry.online };
}

/** channels may repeat ids across devices: the key carries the device */
const channelKey = (device: GbPoint, channel: GbPointChannel) => `${device.devgbid}/${channel.devgbid}`;

function DeviceTitle({ point }: { point: GbPoint }) {
  return (
    <span
      className="bwc-gb-map-device"
      data-testid="gb-map-row"
      data-devgbid={point.devgbid}
      data-online={point.lineon}
    >
      <span className="bwc-gb-map-name">{point.name}</span>
      <span className="bwc-gb-map-id">{point.devgbid}</span>
    </span>
  );
}

function ChannelTitle({ device, channel }: { device: GbPoint; channel: GbPointChannel }) {
  const { t } = useTranslation('video');
  const on = channel.lineon === 1;
  return (
    <span className="bwc-gb-map-node" data-testid="gb-map-channel" data-devgbid={channel.devgbid}>
      {/* a long name is cut to the row: in full, with the GB id, on hover */}
      <span className="bwc-gb-map-name" title={`${channel.name} ${channel.devgbid}`}>
        {channel.name}
      </span>
      <Button
        size="small"
        type="link"
        icon={<PlayCircleOutlined />}
        disabled={!on}
        // the name needs the row's width: the button is its icon, named for screen readers and on hover
        aria-label={t('gbMap.live')}
        title={on ? t('gbMap.live') : t('gbMap.channelOffline')}
        onClick={(e) => {
          // the row stays as it is: live opens a player, it does not select the channel
          e.stopPropagation();
          openLive(liveDeviceOfGbChannel({ devgbid: channel.devgbid, device: device.devgbid, name: channel.name }));
        }}
        data-testid="gb-map-channel-live"
      />
    </span>
  );
}

/** a device's or channel's online state on its icon (as the patrol page's GB tree shows it) */
function StateIcon({ on, channel = false }: { on: boolean; channel?: boolean }) {
  const { t } = useTranslation('video');
  const state = on ? t('gb.tree.online') : t('gb.tree.offline');
  const Icon = channel ? VideoCameraOutlined : ApiOutlined;
  return <Icon className={on ? 'bwc-gb-map-on' : 'bwc-gb-map-off'} aria-label={state} title={state} />;
}

function deviceNode(p: GbPoint): TreeDataNode {
  return {
    key: p.devgbid,
    title: <DeviceTitle point={p} />,
    icon: <StateIcon on={p.lineon === 1} />,
    isLeaf: p.channels.length === 0,
    children: p.channels.map((c) => ({
      key: channelKey(p, c),
      title: <ChannelTitle device={p} channel={c} />,
      icon: <StateIcon on={c.lineon === 1} channel />,
      isLeaf: true,
      selectable: false,
    })),
  };
}

function unitDataNode(entry: GbUnitEntry): TreeDataNode {
  return {
    key: entry.key,
    title: (
      <span data-testid="gb-map-unit" data-unit-id={entry.unit.id}>
        <UnitNodeTitle node={unitNode(entry)} />
      </span>
    ),
    icon: <ApartmentOutlined />,
    children: [...entry.units.map(unitDataNode), ...entry.devices.map(deviceNode)],
  };
}

export interface GbUnitTreeProps {
  tree: GbDeviceTree;
  expanded: Key[];
  onExpand: (keys: Key[]) => void;
  selected: string | null;
  onDevice: (devgbid: string) => void;
}

/**
 * The GB map's device tree: the caller's units (as the dispatch map's unit tree shows them, with
 * online counts), their GB devices (online first) and each device's channels with live.
 */
export function GbUnitTree({ tree, expanded, onExpand, selected, onDevice }: GbUnitTreeProps) {
  const { t } = useTranslation('video');
  const data = useMemo(() => [...tree.units.map(unitDataNode), ...tree.loose.map(deviceNode)], [tree]);
  const units = useMemo(() => new Set(unitKeys(tree.units)), [tree]);
  return (
    <Tree
      className="bwc-gb-map-tree"
      data-testid="gb-map-tree"
      aria-label={t('gbMap.tree')}
      showIcon
      blockNode
      treeData={data}
      expandedKeys={expanded}
      onExpand={(keys) => onExpand(keys)}
      selectedKeys={selected ? [selected] : []}
      onSelect={(_keys, info) => {
        const key = String(info.node.key);
        if (units.has(key)) {
          // a unit's row opens or closes it
          onExpand(expanded.includes(key) ? expanded.filter((k) => k !== key) : [...expanded, key]);
        } else onDevice(key);
      }}
    />
  );
}
