import type { TreeNode } from '@bwc/protocol';
import { call } from '../../api/http';
import { isTerminal, type UnitTreeLoader } from './useUnitTree';

/**
 * The two loaders of the unit tree, one level per call (roots of the caller's scope for `null`):
 * units only (`other/unitjson/gdlist`, unit pickers), and units with their devices and online
 * counts (`other/unitjson/gdlist_dv`, device trees).
 */
export const loadUnitLevel: UnitTreeLoader = (parent: TreeNode | null) =>
  call('unitTree', parent ? { id: parent.id } : {});

export const loadDeviceLevel: UnitTreeLoader = (parent: TreeNode | null) =>
  call('unitTreeDevices', parent ? { id: parent.id } : {});

/** Only units (not terminals) can be picked where a unit id is asked for. */
export const isUnitNode = (node: TreeNode): boolean => !isTerminal(node);
