import type { Key } from 'react';

/** A node of any loaded tree, as antd's Tree and TreeSelect take it. */
export interface ShapedNode {
  key: Key;
  children?: ShapedNode[];
}

export interface FilteredTree<N extends ShapedNode> {
  nodes: N[];
  /** Ancestors of every match, to expand while the filter is on. */
  expandedKeys: Key[];
}

/**
 * Keeps a node when it matches or when one of its descendants matches, so that every match is
 * shown with its path from the root (spec: "filter by label substring"). Only loaded nodes can match.
 */
export function filterTree<N extends ShapedNode>(nodes: readonly N[], matches: (node: N) => boolean): FilteredTree<N> {
  const expandedKeys: Key[] = [];
  const visit = (list: readonly N[]): N[] => {
    const out: N[] = [];
    for (const node of list) {
      const children = node.children ? visit(node.children as N[]) : [];
      if (children.length > 0) {
        expandedKeys.push(node.key);
        out.push({ ...node, children });
      } else if (matches(node)) {
        out.push({ ...node, children: node.children ? [] : undefined });
      }
    }
    return out;
  };
  return { nodes: visit(nodes), expandedKeys };
}

/** Case-insensitive substring test of a label; an empty needle matches everything. */
export function labelIncludes(label: string | undefined, needle: string): boolean {
  const wanted = needle.trim().toLowerCase();
  return wanted === '' || (label ?? '').toLowerCase().includes(wanted);
}
