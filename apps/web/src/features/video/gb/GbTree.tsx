import { ApiOutlined, ReloadOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { GbDeviceTreeRequest, GbTreeNode } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, Spin, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { Tree, CAMERA_ITEM_TYPE } from '../../../components/tree';
import { isUnitNode, loadUnitLevel, UnitTreeSelect } from '../../../components/unit-tree';

/** How often the tree is read again while shown (react-query pauses it while the tab is hidden). */
export const GB_TREE_REFETCH_MS = 30_000;

export const gbTreeKey = (request: GbDeviceTreeRequest) =>
  ['gb', 'tree', request.unit ?? null, request.key ?? ''] as const;

/** The GB devices with their channels (videopatrols/getdevice): the catalog step fetches the same query. */
export function fetchGbTree(request: GbDeviceTreeRequest, signal?: AbortSignal): Promise<GbTreeNode[]> {
  return call('gbDeviceTree', request, { silent: true, signal });
}

function GbIcon({ node }: { node: GbTreeNode }) {
  const { t } = useTranslation('video');
  const state = node.lineon === 1 ? t('gb.tree.online') : t('gb.tree.offline');
  const className = node.lineon === 1 ? 'bwc-gb-online' : 'bwc-gb-offline';
  return node.itemtype === CAMERA_ITEM_TYPE ? (
    <VideoCameraOutlined
      className={className}
      data-itemtype="camera"
      data-online={node.lineon}
      aria-label={state}
      title={state}
    />
  ) : (
    <ApiOutlined
      className={className}
      data-itemtype="device"
      data-online={node.lineon}
      aria-label={state}
      title={state}
    />
  );
}

const icon = (node: GbTreeNode): ReactNode => <GbIcon node={node} />;

function count(nodes: readonly GbTreeNode[]) {
  let online = 0;
  let channels = 0;
  for (const node of nodes) {
    if (node.lineon === 1) online += 1;
    channels += node.children?.length ?? 0;
  }
  return { devices: nodes.length, online, channels };
}

interface Props {
  /** a channel row was clicked (itemtype '5') */
  onChannel?: (channel: GbTreeNode) => void;
  /** the selected channel's row key */
  selected?: string;
}

/**
 * The equipment tree's GB variant (spec part 1 section 2; part 2 section 2.4): GB devices with
 * their channels, devgbid as the row key, channels (itemtype '5') with the camera icon, online
 * state on the icon; a unit picker and a search (name or GB id, the server filters) as the body
 * camera tree has.
 */
export function GbTree({ onChannel }: Props) {
  const { t } = useTranslation('video');
  const [unit, setUnit] = useState<number | undefined>();
  const [key, setKey] = useState('');
  const request: GbDeviceTreeRequest = { ...(unit ? { unit } : {}), ...(key ? { key } : {}) };
  const tree = useQuery({
    queryKey: gbTreeKey(request),
    queryFn: ({ signal }) => fetchGbTree(request, signal),
    // devices register and drop offline: read again quietly (not while the tab is hidden)
    refetchInterval: GB_TREE_REFETCH_MS,
    refetchIntervalInBackground: false,
  });
  const nodes = tree.data ?? [];
  const totals = count(nodes);
  const refresh = t('gb.tree.refresh');
  return (
    <div className="bwc-gb-tree" data-testid="gb-tree">
      <div className="bwc-gb-tree-filters">
        <UnitTreeSelect
          loader={loadUnitLevel}
          selectableNode={isUnitNode}
          placeholder={t('gb.tree.allUnits')}
          value={unit === undefined ? undefined : String(unit)}
          onChange={(value) => setUnit(typeof value === 'string' && value ? Number(value) : undefined)}
        />
        <Input.Search
          allowClear
          placeholder={t('gb.tree.search')}
          aria-label={t('gb.tree.search')}
          onSearch={(value) => setKey(value.trim())}
          data-testid="gb-tree-search"
        />
      </div>
      <div
        className="bwc-gb-tree-count"
        data-testid="gb-tree-count"
        style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}
      >
        <span>{t('gb.tree.count', totals)}</span>
        <Tooltip title={refresh}>
          <Button
            type="text"
            size="small"
            icon={<ReloadOutlined spin={tree.isFetching} />}
            aria-label={refresh}
            data-testid="gb-tree-refresh"
            onClick={() => void tree.refetch()}
          />
        </Tooltip>
      </div>
      {tree.isError && tree.data ? (
        // a later reading failed: the last tree stays, said to be stale
        <Typography.Text type="warning" data-testid="gb-tree-stale">
          {t('gb.tree.stale', { reason: tree.error.message })}
        </Typography.Text>
      ) : null}
      {tree.isError && !tree.data ? (
        <Alert type="error" showIcon message={t('gb.init.failure.catalog')} description={tree.error.message} />
      ) : tree.isPending ? (
        <Spin />
      ) : (
        <Tree<GbTreeNode>
          // a new search or unit expands all its devices; a refetch keeps what the user expanded and selected
          key={JSON.stringify(request)}
          data={nodes}
          icon={icon}
          defaultExpandAll
          onSelect={(node) => {
            if (node.itemtype === CAMERA_ITEM_TYPE) onChannel?.(node);
          }}
        />
      )}
    </div>
  );
}
