import { ApartmentOutlined, MobileOutlined } from '@ant-design/icons';
import { PRODUCT_PREFIX, type TreeNode } from '@bwc/protocol';
import { Empty, Input, Spin, Switch, Tree, TreeSelect } from 'antd';
import type { TreeDataNode } from 'antd';
import { useMemo, useState, useSyncExternalStore, type DragEvent, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterValue } from '../search-bar';
import { isOnlineTerminal, isTerminal, unitNodeKey, unitNodeLabel, useUnitTree, type UnitTreeEntry, type UnitTreeLoader } from './useUnitTree';
import './unit-tree.css';

/**
 * Live online states of terminals (e.g. the dispatch map's point store, fed by pushes): `online`
 * answers undefined for a terminal it does not know, which then keeps the state of the tree answer.
 */
export interface LiveOnline {
  subscribe: (listener: () => void) => () => void;
  online: (deviceId: number) => boolean | undefined;
}

const noSubscribe = () => () => undefined;
const unknown = () => undefined;

/** Starts dragging a terminal out of the tree (HTML5 drag and drop, e.g. onto a video tile). */
export type TerminalDragStart = (node: TreeNode, event: DragEvent<HTMLElement>) => void;

function TerminalTitle({ node, live, onDragStart }: { node: TreeNode; live?: LiveOnline; onDragStart?: TerminalDragStart }) {
  const { t } = useTranslation('components');
  const id = Number(node.id);
  const pushed = useSyncExternalStore(live?.subscribe ?? noSubscribe, live ? () => live.online(id) : unknown);
  const online = pushed ?? isOnlineTerminal(node);
  return (
    <span
      className={online ? 'bwc-unit-node bwc-unit-node-online' : 'bwc-unit-node bwc-unit-node-offline'}
      data-testid="unit-tree-terminal"
      data-online={online ? 1 : 0}
      draggable={onDragStart ? true : undefined}
      onDragStart={onDragStart ? (event) => onDragStart(node, event) : undefined}
    >
      {unitNodeLabel(node)}
      <span className="bwc-unit-node-state">{online ? t('unitTree.online') : t('unitTree.offline')}</span>
    </span>
  );
}

/** Label of a node: units with their online count when the server gives it, terminals with their (live) state. */
export function UnitNodeTitle({ node, live, onDragStart }: { node: TreeNode; live?: LiveOnline; onDragStart?: TerminalDragStart }) {
  const { t } = useTranslation('components');
  if (isTerminal(node)) return <TerminalTitle node={node} live={live} onDragStart={onDragStart} />;
  return (
    <span className="bwc-unit-node">
      {unitNodeLabel(node)}
      {node.lion_count !== undefined && <span className="bwc-unit-node-count">{t('unitTree.onlineCount', { count: node.lion_count })}</span>}
    </span>
  );
}

function nodeIcon(node: TreeNode): ReactNode {
  return isTerminal(node) ? <MobileOutlined /> : <ApartmentOutlined />;
}

interface FilterControlsProps {
  text: string;
  onText: (text: string) => void;
  onlineOnly: boolean;
  onOnlineOnly: (on: boolean) => void;
  showText?: boolean;
}

function FilterControls({ text, onText, onlineOnly, onOnlineOnly, showText = true }: FilterControlsProps) {
  const { t } = useTranslation('components');
  return (
    <div className="bwc-unit-tree-toolbar">
      {showText && <Input.Search allowClear placeholder={t('unitTree.filterPlaceholder')} value={text} onChange={(event) => onText(event.target.value)} />}
      <label className="bwc-unit-tree-switch">
        <Switch size="small" checked={onlineOnly} onChange={onOnlineOnly} aria-label={t('unitTree.onlineOnly')} />
        <span>{t('unitTree.onlineOnly')}</span>
      </label>
    </div>
  );
}

export interface UnitTreeProps {
  loader: UnitTreeLoader;
  checkable?: boolean;
  /** Controlled checked node keys (`unitNodeKey`). */
  checkedKeys?: string[];
  onCheck?: (nodes: TreeNode[], keys: string[]) => void;
  onSelect?: (node: TreeNode) => void;
  /** Which nodes get a checkbox (all by default). */
  checkableNode?: (node: TreeNode) => boolean;
  /** Nodes shown greyed out, not checkable or selectable. */
  disabledNode?: (node: TreeNode) => boolean;
  height?: number;
  /** Content under the filter controls (e.g. counts). */
  header?: (loaded: TreeNode[]) => ReactNode;
  /** Live online states of terminals (they then change without reloading the tree). */
  live?: LiveOnline;
  /** Terminals can be dragged out of the tree when given. */
  onTerminalDragStart?: TerminalDragStart;
}

/** Unit tree panel (spec part 1 sections 2 and 5): filter input, online-only switch, lazy children. */
export function UnitTree({ loader, checkable = false, checkedKeys, onCheck, onSelect, checkableNode, disabledNode, height, header, live, onTerminalDragStart }: UnitTreeProps) {
  const { t } = useTranslation('components');
  const [text, setText] = useState('');
  const [onlineOnly, setOnlineOnly] = useState(false);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [ownChecked, setOwnChecked] = useState<string[]>([]);
  const tree = useUnitTree(loader, text, onlineOnly);
  const checked = checkedKeys ?? ownChecked;

  const treeData = useMemo(() => {
    const shape = (entries: UnitTreeEntry[]): TreeDataNode[] =>
      entries.map((entry) => ({
        key: entry.key,
        title: <UnitNodeTitle node={entry.node} live={live} onDragStart={onTerminalDragStart} />,
        icon: nodeIcon(entry.node),
        isLeaf: entry.isLeaf,
        checkable: checkableNode ? checkableNode(entry.node) : undefined,
        disabled: disabledNode?.(entry.node),
        children: entry.children && shape(entry.children),
      }));
    return shape(tree.visible);
  }, [tree.visible, checkableNode, disabledNode, live, onTerminalDragStart]);

  return (
    <div className="bwc-unit-tree">
      <FilterControls text={text} onText={setText} onlineOnly={onlineOnly} onOnlineOnly={setOnlineOnly} />
      {header?.(tree.loadedNodes)}
      {tree.entries === null ? (
        <Spin tip={t('table.loading')}>
          <div className="bwc-unit-tree-loading" />
        </Spin>
      ) : treeData.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tree.empty')} />
      ) : (
        <Tree
          showIcon
          blockNode
          checkable={checkable}
          checkStrictly
          treeData={treeData}
          height={height}
          loadData={(node) => tree.load(node.key)}
          expandedKeys={tree.filterExpandedKeys ?? expanded}
          onExpand={(keys) => setExpanded(keys)}
          checkedKeys={checked}
          onCheck={(keys) => {
            const list = (Array.isArray(keys) ? keys : keys.checked).map(String);
            setOwnChecked(list);
            onCheck?.(list.map((key) => tree.nodeOf(key)).filter((node): node is TreeNode => node !== undefined), list);
          }}
          onSelect={(keys) => {
            const node = keys[0] === undefined ? undefined : tree.nodeOf(keys[0]);
            if (node) onSelect?.(node);
          }}
        />
      )}
    </div>
  );
}

export interface UnitTreeSelectProps {
  loader: UnitTreeLoader;
  /** Value(s) as the search bar keeps them: `nodeValue(node)` strings. */
  value?: FilterValue;
  onChange?: (value: FilterValue | undefined, nodes: TreeNode[]) => void;
  multiple?: boolean;
  /** Which nodes may be picked (all by default). */
  selectableNode?: (node: TreeNode) => boolean;
  /** Value of a node: the unit id by default, `device:<id>` for terminals. */
  nodeValue?: (node: TreeNode) => string;
  placeholder?: string;
  width?: number;
}

/** Names of picked units for this session (logout clears session storage), so a reload shows names, not ids. */
const LABEL_STORAGE_KEY = `${PRODUCT_PREFIX}unit_picker_labels`;

function storedLabels(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(LABEL_STORAGE_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

function rememberedLabel(value: string): string | undefined {
  return storedLabels()[value];
}

/**
 * Names for picker values whose nodes are not loaded yet (`[value, label]`, value as the picker
 * keeps it: a unit id, or `device:<id>`), e.g. the targets of a record opened for editing.
 */
export function rememberUnitTreeLabels(entries: [string, string][]): void {
  rememberLabels(entries);
}

function rememberLabels(entries: [string, string][]): void {
  if (entries.length === 0) return;
  try {
    sessionStorage.setItem(LABEL_STORAGE_KEY, JSON.stringify({ ...storedLabels(), ...Object.fromEntries(entries) }));
  } catch {
    // storage unavailable: ids are shown after a reload
  }
}

function defaultNodeValue(node: TreeNode): string {
  return isTerminal(node) ? unitNodeKey(node) : String(node.id);
}

const SELECT_WIDTH = 220;

/**
 * Unit picker (spec part 1 section 5): a tree select loading children lazily, filtering by label
 * substring as the user types, with the online-only switch in its popup. Fits the search bar's
 * custom slot: `render: ({ value, onChange }) => <UnitTreeSelect loader={…} value={value} onChange={onChange} />`.
 */
export function UnitTreeSelect({ loader, value, onChange, multiple = false, selectableNode, nodeValue = defaultNodeValue, placeholder, width }: UnitTreeSelectProps) {
  const { t } = useTranslation('components');
  const [text, setText] = useState('');
  const [onlineOnly, setOnlineOnly] = useState(false);
  const [expanded, setExpanded] = useState<string[]>([]);
  const tree = useUnitTree(loader, text, onlineOnly);

  // rc-tree-select keys its nodes by value: expanded keys and lazy loads go through these maps.
  const { treeData, nodeByValue, valueOfKey } = useMemo(() => {
    const byValue = new Map<string, TreeNode>();
    const keyToValue = new Map<string, string>();
    const shape = (entries: UnitTreeEntry[]): object[] =>
      entries.map((entry) => {
        const value = nodeValue(entry.node);
        byValue.set(value, entry.node);
        keyToValue.set(entry.key, value);
        return {
          value,
          title: <UnitNodeTitle node={entry.node} />,
          label: unitNodeLabel(entry.node),
          isLeaf: entry.isLeaf,
          selectable: selectableNode ? selectableNode(entry.node) : true,
          disableCheckbox: selectableNode ? !selectableNode(entry.node) : false,
          children: entry.children && shape(entry.children),
        };
      });
    return { treeData: shape(tree.visible), nodeByValue: byValue, valueOfKey: keyToValue };
  }, [tree.visible, selectableNode, nodeValue]);
  const expandedValues = tree.filterExpandedKeys
    ? tree.filterExpandedKeys.map((key) => valueOfKey.get(String(key))).filter((value): value is string => value !== undefined)
    : expanded;

  // A value from the URL may name a unit deeper than what is loaded: show the name picked earlier.
  const labelled = (v: string) => {
    const node = nodeByValue.get(v);
    return { value: v, label: node ? unitNodeLabel(node) : (rememberedLabel(v) ?? v) };
  };
  const values = Array.isArray(value) ? value : value ? [value] : [];
  const selected = multiple ? values.map(labelled) : values[0] === undefined ? undefined : labelled(values[0]);
  return (
    <TreeSelect
      allowClear
      showSearch
      style={{ width: width ?? SELECT_WIDTH }}
      placeholder={placeholder ?? t('unitTree.placeholder')}
      loading={tree.entries === null}
      // names with online state are longer than the field: let the popup grow
      popupMatchSelectWidth={false}
      treeData={treeData}
      treeNodeLabelProp="label"
      labelInValue
      value={selected}
      multiple={multiple}
      treeCheckable={multiple}
      treeCheckStrictly={multiple}
      searchValue={text}
      onSearch={setText}
      filterTreeNode={() => true}
      treeExpandedKeys={expandedValues}
      onTreeExpand={(keys) => setExpanded(keys.map(String))}
      loadData={async (node) => {
        const target = nodeByValue.get(String(node.value));
        if (target) await tree.load(unitNodeKey(target));
      }}
      notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tree.empty')} />}
      popupRender={(menu) => (
        <>
          <FilterControls text={text} onText={setText} onlineOnly={onlineOnly} onOnlineOnly={setOnlineOnly} showText={false} />
          {menu}
        </>
      )}
      onChange={(next: unknown) => {
        // labelInValue: {label, value} objects
        const picked = (Array.isArray(next) ? next : next === undefined || next === null ? [] : [next]).map((item) =>
          typeof item === 'object' && item !== null && 'value' in item ? String((item as { value: unknown }).value) : String(item),
        );
        const nodes = picked.map((v) => nodeByValue.get(v)).filter((node): node is TreeNode => node !== undefined);
        rememberLabels(nodes.map((node) => [nodeValue(node), unitNodeLabel(node)]));
        onChange?.(multiple ? picked : picked[0], nodes);
      }}
    />
  );
}
