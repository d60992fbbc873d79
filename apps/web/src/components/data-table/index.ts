export { DataTable, fitScrollX, formatIndex, type DataTableProps } from './DataTable';
export * from './data-table.types';
export { useTableUrlState, type TableUrlState } from './useTableUrlState';
export { NameWithCode } from './NameWithCode';
