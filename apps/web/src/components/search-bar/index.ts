export { SearchBar, type SearchBarProps } from './SearchBar';
export * from './search-bar.types';
export { usePermissionCheck, type Gated, type PermissionRequirement } from './permission';
