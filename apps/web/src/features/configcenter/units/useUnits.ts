import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { call } from '../../../api/http';
import { configKeys } from '../configcenter.api';
import { buildUnitTree, flattenUnitTree, type UnitRow } from './unitTree';

/** Units of the caller's scope (`unit/get`), as a tree and flat; `keyword` keeps matches and their ancestors. */
export function useUnits(keyword?: string, enabled = true) {
  const query = useQuery({
    queryKey: [...configKeys.units, { keyword: keyword ?? '' }],
    queryFn: ({ signal }) => call('unitGet', keyword ? { keyword } : {}, { signal }),
    enabled,
  });
  const tree = useMemo<UnitRow[]>(() => buildUnitTree(query.data ?? []), [query.data]);
  const flat = useMemo(() => flattenUnitTree(tree), [tree]);
  return { ...query, tree, flat };
}
