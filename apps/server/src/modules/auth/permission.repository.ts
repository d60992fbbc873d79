import type { Action, PermissionMap, UserAuth } from '@bwc/protocol';
import type { Db } from '../../db/connection';

function toUserAuth(row: { view: number; edit: number; add: number }): UserAuth {
  const auth: UserAuth = {};
  if (row.view) auth.view = 1;
  if (row.edit) auth.edit = 1;
  if (row.add) auth.add = 1;
  return auth;
}

/** The role's permissions as stored now (read per request so that a change applies at once). */
export async function loadPermissions(db: Db, roleId: number): Promise<PermissionMap> {
  const rows = await db
    .selectFrom('role_permissions')
    .select(['module_id', 'view', 'edit', 'add'])
    .where('role_id', '=', roleId)
    .execute();
  const map: PermissionMap = {};
  for (const r of rows) {
    const auth = toUserAuth(r);
    if (Object.keys(auth).length) map[r.module_id] = auth;
  }
  return map;
}

export async function roleCan(db: Db, roleId: number, menuId: number, action: Action): Promise<boolean> {
  const row = await db
    .selectFrom('role_permissions')
    .select(['view', 'edit', 'add'])
    .where('role_id', '=', roleId)
    .where('module_id', '=', menuId)
    .executeTakeFirst();
  return row?.[action] === 1;
}
