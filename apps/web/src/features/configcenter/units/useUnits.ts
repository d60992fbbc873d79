import { MenuId } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { call } from '../../../api/http';
import { usePermission } from '../../../app/session/Permission';
import { configKeys } from '../configcenter.api';
import { buildUnitTree, flattenUnitTree, type UnitRow } from './unitTree';

/**
 * Units of the caller's scope (`unit/get`, needs view on UnitAdmin), as a tree (`data`, also
 * `tree`) and flat; `keyword` keeps matches and their ancestors. Without that permission nothing
 * is asked (`allowed` false).
 */
export function useUnits(keyword?: string, enabled = true) {
  const allowed = usePermission(MenuId.UNITS, 'view');
  const query = useQuery({
    queryKey: [...configKeys.units, { keyword: keyword ?? '' }],
    queryFn: ({ signal }) => call('unitGet', keyword ? { keyword } : {}, { signal }),
    select: buildUnitTree,
    enabled: enabled && allowed,
  });
  const tree = useMemo<UnitRow[]>(() => query.data ?? [], [query.data]);
  const flat = useMemo(() => flattenUnitTree(tree), [tree]);
  return { ...query, tree, flat, allowed };
}
