export {
  UnitNodeTitle,
  UnitTree,
  UnitTreeSelect,
  rememberUnitTreeLabels,
  type LiveOnline,
  type TerminalDragStart,
  type UnitTreeProps,
  type UnitTreeSelectProps,
} from './UnitTree';
export {
  hasChildren,
  isOnlineTerminal,
  isTerminal,
  unitNodeKey,
  unitNodeLabel,
  unitNodeMatches,
  useUnitTree,
  type UnitTreeEntry,
  type UnitTreeLoader,
  type UnitTreeState,
} from './useUnitTree';
export { isUnitNode, loadDeviceLevel, loadUnitLevel } from './loaders';
export { unitSearchItem } from './unitSearchItem';
