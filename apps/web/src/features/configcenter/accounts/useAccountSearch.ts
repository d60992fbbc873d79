import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { call } from '../../../api/http';

export interface AccountChoice {
  id: number;
  /** "name (username)" */
  label: string;
}

/**
 * Accounts found by name or username for a picker (an officer field or filter): the first 50 of
 * the account list, which needs view on the account screen. `enabled` false asks nothing.
 */
export function useAccountSearch(keyword: string, enabled = true) {
  const query = useQuery({
    queryKey: ['accounts', 'search', keyword],
    queryFn: ({ signal }) =>
      call('accountList', { page: 1, limit: 50, ...(keyword ? { keyword } : {}) }, { signal, silent: true }),
    enabled,
    staleTime: 60_000,
  });
  const found = useMemo<AccountChoice[]>(
    () => (query.data?.list ?? []).map((a) => ({ id: a.id, label: `${a.hostname} (${a.username})` })),
    [query.data],
  );
  return { found, isFetching: query.isFetching, isError: query.isError };
}
