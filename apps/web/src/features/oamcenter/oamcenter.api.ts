import type { ApiName, TreeNode } from '@bwc/protocol';
import { call, type CallOptions, type Payload } from '../../api/http';
import type { UnitTreeLoader } from '../../components/unit-tree';

/** Query keys of the operations centre screens. */
export const oamKeys = {
  all: ['oamcenter'] as const,
  devices: ['oamcenter', 'devices'] as const,
  models: ['oamcenter', 'models'] as const,
};

/** `call` with the answer typed by the caller (issue 4 endpoints are not in api/types.ts yet). */
export function callAs<T>(name: ApiName, payload?: Payload, options?: CallOptions): Promise<T> {
  return call(name, payload, options) as Promise<T>;
}

/** Unit levels for the unit pickers (units only). */
export const loadUnits: UnitTreeLoader = (parent: TreeNode | null) =>
  callAs<TreeNode[]>('unitTree', parent ? { id: parent.id } : {});
export const isUnit = (node: TreeNode): boolean => node.treecate !== 'device';
