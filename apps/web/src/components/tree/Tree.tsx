import { ClusterOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Input, Switch, Tree as AntTree, Empty } from 'antd';
import type { TreeDataNode, TreeProps as AntTreeProps } from 'antd';
import { useCallback, useMemo, useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { filterTree, labelIncludes } from './filter-tree';
import './tree.css';

/** A tree row (spec part 2 section 2.4): devgbid as key (id when absent), itemtype, name, children, hasChildren. */
export interface TreeItem {
  devgbid?: string;
  id?: string | number;
  name: string;
  /** '5' shows a camera icon, anything else a group icon. */
  itemtype?: string;
  children?: TreeItem[];
  /** Children exist but are loaded on expand. */
  hasChildren?: boolean;
  disabled?: boolean;
}

/** The item type shown with its own icon. */
export const CAMERA_ITEM_TYPE = '5';

export interface TreeProps<T extends TreeItem> {
  data: readonly T[];
  /** Lazy loading: children of an item whose `hasChildren` is set and `children` absent. */
  loadChildren?: (item: T) => Promise<T[]>;
  /** Checkboxes on from the start. */
  checkable?: boolean;
  /** Show a switch that turns the checkboxes on and off. */
  checkSwitch?: boolean;
  /** Controlled checked keys; the tree keeps its own otherwise. */
  checkedKeys?: Key[];
  onCheck?: (keys: Key[], items: T[]) => void;
  onSelect?: (item: T) => void;
  /** Show the filter input (label substring). */
  filterable?: boolean;
  /** Overrides the icon by item type. */
  icon?: (item: T) => ReactNode;
  /** Height in px: virtual scrolling for big trees. */
  height?: number;
  defaultExpandAll?: boolean;
}

export function treeItemKey(item: TreeItem): Key {
  return item.devgbid ?? String(item.id ?? item.name);
}

function defaultIcon(item: TreeItem): ReactNode {
  return item.itemtype === CAMERA_ITEM_TYPE ? <VideoCameraOutlined data-itemtype="camera" /> : <ClusterOutlined data-itemtype="group" />;
}

const HIDDEN_ROW_CLASS = 'bwc-tree-hidden';

function parentKeys(items: readonly TreeItem[]): Key[] {
  return items.flatMap((item) => (item.children?.length ? [treeItemKey(item), ...parentKeys(item.children)] : []));
}

interface Shaped<T> extends TreeDataNode {
  key: Key;
  item: T;
  children?: Shaped<T>[];
}

/**
 * Generic tree (spec part 2 section 2.4): optional checkboxes and a switch for them, lazy loading,
 * filtering by label substring, icons by item type.
 */
export function Tree<T extends TreeItem>(props: TreeProps<T>) {
  const { data, loadChildren, checkSwitch = false, onCheck, onSelect, filterable = false, icon = defaultIcon, height, defaultExpandAll } = props;
  const { t } = useTranslation('components');
  const [checkable, setCheckable] = useState(props.checkable ?? false);
  const [ownChecked, setOwnChecked] = useState<Key[]>([]);
  const checkedKeys = props.checkedKeys ?? ownChecked;
  const [loaded, setLoaded] = useState<ReadonlyMap<Key, T[]>>(new Map());
  const [filter, setFilter] = useState('');
  const [expanded, setExpanded] = useState<Key[]>(() => (defaultExpandAll ? parentKeys(data) : []));

  const { shaped, byKey } = useMemo(() => {
    const index = new Map<Key, T>();
    const shape = (items: readonly T[]): Shaped<T>[] =>
      items.map((item) => {
        const key = treeItemKey(item);
        index.set(key, item);
        const children = (item.children as T[] | undefined) ?? loaded.get(key);
        return {
          key,
          item,
          title: item.name,
          icon: icon(item),
          disabled: item.disabled,
          isLeaf: !children?.length && !(item.hasChildren && !loaded.has(key)),
          children: children ? shape(children) : undefined,
        };
      });
    return { shaped: shape(data), byKey: index };
  }, [data, loaded, icon]);

  // Filtering hides rows instead of dropping them: checkbox conduction must still see every child,
  // or a parent whose only visible child is checked would count as fully checked.
  const filtered = useMemo(() => {
    if (!filter.trim()) return null;
    const { nodes, expandedKeys } = filterTree(shaped, (node) => labelIncludes(node.item.name, filter));
    const visible = new Set<Key>();
    const collect = (list: Shaped<T>[]) => {
      for (const node of list) {
        visible.add(node.key);
        if (node.children) collect(node.children);
      }
    };
    collect(nodes);
    const mark = (list: Shaped<T>[]): Shaped<T>[] =>
      list.map((node) => ({
        ...node,
        className: visible.has(node.key) ? undefined : HIDDEN_ROW_CLASS,
        children: node.children && mark(node.children),
      }));
    return { nodes: mark(shaped), expandedKeys, empty: visible.size === 0 };
  }, [shaped, filter]);

  const loadData = useCallback(
    async (node: { key: Key }) => {
      const item = byKey.get(node.key);
      if (!item || !loadChildren || item.children || loaded.has(node.key)) return;
      const children = await loadChildren(item);
      setLoaded((current) => new Map(current).set(node.key, children));
    },
    [loadChildren, loaded, byKey],
  );

  const handleCheck: AntTreeProps['onCheck'] = (keys) => {
    const list = Array.isArray(keys) ? keys : keys.checked;
    setOwnChecked(list);
    onCheck?.(list, list.map((key) => byKey.get(key)).filter((item): item is T => item !== undefined));
  };

  const toggleCheckable = (on: boolean) => {
    setCheckable(on);
    if (!on && checkedKeys.length > 0) {
      setOwnChecked([]);
      onCheck?.([], []);
    }
  };

  const treeData = filtered?.nodes ?? shaped;
  return (
    <div className="bwc-tree">
      {(filterable || checkSwitch) && (
        <div className="bwc-tree-toolbar">
          {filterable && (
            <Input.Search allowClear placeholder={t('tree.filterPlaceholder')} value={filter} onChange={(event) => setFilter(event.target.value)} />
          )}
          {checkSwitch && (
            <label className="bwc-tree-switch">
              <Switch size="small" checked={checkable} onChange={toggleCheckable} />
              <span>{t('tree.multiple')}</span>
            </label>
          )}
        </div>
      )}
      {treeData.length === 0 || filtered?.empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tree.empty')} />
      ) : (
        <AntTree<Shaped<T>>
          showIcon
          blockNode
          treeData={treeData}
          checkable={checkable}
          checkedKeys={checkedKeys}
          onCheck={handleCheck}
          onSelect={(_keys, info) => onSelect?.(info.node.item)}
          loadData={loadChildren ? loadData : undefined}
          expandedKeys={filtered ? filtered.expandedKeys : expanded}
          onExpand={(keys) => setExpanded(keys)}
          height={height}
        />
      )}
    </div>
  );
}
