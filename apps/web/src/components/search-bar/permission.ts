import { can, type Action } from '@bwc/protocol';
import { useMemo } from 'react';
import { permissionMap } from '../../app/session/permissions';
import { useUserContext } from '../../app/session/queries';

/** A menu id and the action the current user must hold on it (spec part 1 section 6). */
export interface PermissionRequirement {
  menu: number;
  action: Action;
}

/** Anything a widget may hide: by a permission, by a plain flag, or both (both must allow it). */
export interface Gated {
  permission?: PermissionRequirement;
  visible?: boolean;
}

/**
 * The one place where widgets ask whether a gated element is shown. Returns a checker so that a
 * widget can test any number of elements (columns, buttons, menu entries) with a single hook call.
 * Same rule as the shell's `usePermission`; the server enforces it again.
 */
export function usePermissionCheck(): (gated: Gated) => boolean {
  const { data } = useUserContext();
  const map = useMemo(() => permissionMap(data), [data]);
  return (gated) => gated.visible !== false && (!gated.permission || can(map, gated.permission.menu, gated.permission.action));
}
