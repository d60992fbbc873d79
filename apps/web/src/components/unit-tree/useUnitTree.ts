import type { TreeNode } from '@bwc/protocol';
import { useCallback, useEffect, useMemo, useRef, useState, type Key } from 'react';
import { filterTree, labelIncludes } from '../tree';

/**
 * Loads one level of the unit tree: the roots for `null`, else the children of a node (the
 * server's `other/unitjson/gdlist`, `gdlist_dv`, `dweilist` answer this shape).
 */
export type UnitTreeLoader = (parent: TreeNode | null) => Promise<TreeNode[]>;

export const TERMINAL_TREECATE = 'device';
export const ONLINE = 1;

/** Units and terminals may share ids: the key carries the category. */
export function unitNodeKey(node: TreeNode): string {
  return `${node.treecate}:${String(node.id)}`;
}

export function isTerminal(node: TreeNode): boolean {
  return node.treecate === TERMINAL_TREECATE;
}

export function isOnlineTerminal(node: TreeNode): boolean {
  return isTerminal(node) && node.lineon === ONLINE;
}

/** The label a user reads and filters by. */
export function unitNodeLabel(node: TreeNode): string {
  return node.display_name || (isTerminal(node) ? node.hostname || node.unitname : node.unitname);
}

/**
 * Unit tree selector rule (spec part 1 section 5): filter by label substring; with the online-only
 * switch on, only online nodes of terminal type match.
 */
export function unitNodeMatches(node: TreeNode, text: string, onlineOnly: boolean): boolean {
  return labelIncludes(unitNodeLabel(node), text) && (!onlineOnly || isOnlineTerminal(node));
}

/** Whether a node may have children to load. */
export function hasChildren(node: TreeNode): boolean {
  return node.sub === 1 && node.last !== 1;
}

export interface UnitTreeEntry {
  key: string;
  node: TreeNode;
  isLeaf: boolean;
  children?: UnitTreeEntry[];
}

export interface UnitTreeState {
  /** Null until the roots arrived. */
  entries: UnitTreeEntry[] | null;
  /** After the filter (text and online-only), with the keys to expand. */
  visible: UnitTreeEntry[];
  filterExpandedKeys: Key[] | null;
  load: (key: Key) => Promise<void>;
  nodeOf: (key: Key) => TreeNode | undefined;
  /** Every loaded node. */
  loadedNodes: TreeNode[];
}

/** Loads the unit tree lazily through `loader` (roots once per mount) and applies the selector's filter rule. */
export function useUnitTree(loader: UnitTreeLoader, text: string, onlineOnly: boolean): UnitTreeState {
  const [roots, setRoots] = useState<TreeNode[] | null>(null);
  const [children, setChildren] = useState<ReadonlyMap<string, TreeNode[]>>(new Map());
  // Loaders are often inline functions: the roots are loaded once per mounted tree (remount to reload).
  const loaderRef = useRef(loader);
  loaderRef.current = loader;

  useEffect(() => {
    let live = true;
    loaderRef.current(null).then(
      (nodes) => live && setRoots(nodes),
      // the http layer has told the user; show an empty tree
      () => live && setRoots([]),
    );
    return () => {
      live = false;
    };
  }, []);

  const { entries, index } = useMemo(() => {
    const byKey = new Map<string, TreeNode>();
    const shape = (nodes: TreeNode[]): UnitTreeEntry[] =>
      nodes.map((node) => {
        const key = unitNodeKey(node);
        byKey.set(key, node);
        const loaded = children.get(key);
        return { key, node, isLeaf: !hasChildren(node) || (loaded !== undefined && loaded.length === 0), children: loaded && shape(loaded) };
      });
    return { entries: roots && shape(roots), index: byKey };
  }, [roots, children]);

  const filtering = text.trim() !== '' || onlineOnly;
  const filtered = useMemo(
    () => (filtering && entries ? filterTree(entries, (entry) => unitNodeMatches(entry.node, text, onlineOnly)) : null),
    [filtering, entries, text, onlineOnly],
  );

  const load = useCallback(
    async (key: Key) => {
      const node = index.get(String(key));
      if (!node || !hasChildren(node) || children.has(String(key))) return;
      try {
        const list = await loaderRef.current(node);
        setChildren((current) => new Map(current).set(String(key), list));
      } catch {
        setChildren((current) => new Map(current).set(String(key), []));
      }
    },
    [index, children],
  );

  const nodeOf = useCallback((key: Key) => index.get(String(key)), [index]);
  const loadedNodes = useMemo(() => [...index.values()], [index]);

  return { entries, visible: filtered?.nodes ?? entries ?? [], filterExpandedKeys: filtered?.expandedKeys ?? null, load, nodeOf, loadedNodes };
}
