import { ACTIONS, MODULES, can, type PermissionMap } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import { loadPermissions } from '../auth/permission.repository';

/** Every action on every module: what an administrator may distribute. */
export const ALL_RIGHTS: PermissionMap = Object.fromEntries(MODULES.map((m) => [m.id, { view: 1, edit: 1, add: 1 }]));

/** True when every action of `rights` is also in `ceiling`. */
export function rightsWithin(rights: PermissionMap, ceiling: PermissionMap): boolean {
  return Object.entries(rights).every(([id, auth]) =>
    ACTIONS.every((a) => auth[a] !== 1 || can(ceiling, Number(id), a)),
  );
}

/** The ceiling of what the caller may grant: everything for an administrator, else his role's rights. */
export async function grantableRights(db: Db, user: Pick<AuthUser, 'ifadmin' | 'role_id'>): Promise<PermissionMap> {
  return user.ifadmin === 1 ? ALL_RIGHTS : loadPermissions(db, user.role_id);
}

/** Whether the caller may assign the role to an account or change it: its rights are within his. */
export async function roleWithinCaller(
  db: Db,
  user: Pick<AuthUser, 'ifadmin' | 'role_id'>,
  roleId: number,
): Promise<boolean> {
  if (user.ifadmin === 1) return true;
  return rightsWithin(await loadPermissions(db, roleId), await loadPermissions(db, user.role_id));
}
