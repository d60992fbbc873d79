import type { UseQueryResult } from '@tanstack/react-query';
import { DataTable, type DataTableProps, type Row } from '../data-table';
import { QueryError } from './QueryError';

export interface CrudTableProps<T extends Row> extends Omit<DataTableProps<T>, 'dataSource'> {
  /** every row, read by a query (paged and filtered in memory); its failure shows a retry state */
  rows?: UseQueryResult<readonly T[]>;
  /** loading besides the rows' own fetching (what the rows depend on) */
  loading?: boolean;
}

/**
 * The list of a CRUD screen: `DataTable` paged on the server (`fetch` + `queryKey`) or in memory
 * over a query's rows (`rows`), with the query's loading state, and a retry state when the rows
 * could not be read.
 */
export function CrudTable<T extends Row>({ rows, loading = false, ...table }: CrudTableProps<T>) {
  if (rows?.isError && !rows.data) return <QueryError error={rows.error} onRetry={() => void rows.refetch()} />;
  if (!rows) return <DataTable<T> {...table} />;
  return <DataTable<T> {...table} dataSource={rows.data ?? []} loading={rows.isFetching || loading} />;
}
