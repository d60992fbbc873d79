import { EVIDENCE_MENUS, can, type Action } from '@bwc/protocol';
import { useMemo } from 'react';
import { permissionMap } from '../../app/session/permissions';
import { useUserContext } from '../../app/session/queries';

/** True when the user's role holds `action` on any of `menus` (an `anyMenu` rule of the Api). */
export function useAnyPermission(menus: readonly number[], action: Action): boolean {
  const { data } = useUserContext();
  const map = useMemo(() => permissionMap(data), [data]);
  return menus.some((m) => can(map, m, action));
}

/** Who may score and list items to score: 'edit' on any library menu (the Api rule of mediaScoreUpdate, videoScore). */
export const SCORE_MENUS = EVIDENCE_MENUS;
