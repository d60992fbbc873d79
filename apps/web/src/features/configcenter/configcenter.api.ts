import type { TreeNode } from '@bwc/protocol';
import { call } from '../../api/http';
import type { UnitTreeLoader } from '../../components/unit-tree';

/** TanStack Query keys of the configuration centre; invalidate a prefix to reload its screens. */
export const configKeys = {
  all: ['configcenter'] as const,
  units: ['configcenter', 'units'] as const,
  accounts: ['configcenter', 'accounts'] as const,
  online: ['configcenter', 'online'] as const,
  roles: ['configcenter', 'roles'] as const,
  roleOptions: ['configcenter', 'roleOptions'] as const,
  roleAuth: ['configcenter', 'roleAuth'] as const,
  oplog: ['configcenter', 'oplog'] as const,
  dictTypes: ['configcenter', 'dictTypes'] as const,
  dict: ['configcenter', 'dict'] as const,
};

/** The unit tree selector's loader over `other/unitjson/gdlist`: roots of the caller's scope, then one level per expand. */
export const loadUnitLevel: UnitTreeLoader = (parent: TreeNode | null) =>
  call('unitTree', parent ? { id: parent.id } : {});

/** Only units (not terminals) can be picked where a unit id is asked for. */
export const isUnitNode = (node: TreeNode): boolean => node.treecate !== 'device';
