export { CAMERA_ITEM_TYPE, Tree, treeItemKey, type TreeItem, type TreeProps } from './Tree';
export { filterTree, labelIncludes, type FilteredTree, type ShapedNode } from './filter-tree';
