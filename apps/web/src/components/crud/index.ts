export { CrudPage, type CrudPageProps } from './CrudPage';
export { CrudTable, type CrudTableProps } from './CrudTable';
export { QueryError } from './QueryError';
export { useCrud, type Crud, type CrudOptions, type DeleteActionOptions } from './useCrud';
