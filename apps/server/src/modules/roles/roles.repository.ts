import { now, type Db } from '../../db/connection';
import type { RoleRow } from '../../db/types';

export interface RoleWithUsers extends RoleRow {
  users: number;
}

/** Roles by weight (descending) then id, with their accounts counted within `unitIds` (all when null). */
export async function listRoles(db: Db, unitIds: number[] | null): Promise<RoleWithUsers[]> {
  const roles = await db.selectFrom('roles').selectAll().orderBy('weight', 'desc').orderBy('id').execute();
  let q = db
    .selectFrom('users')
    .select(['role_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('role_id');
  if (unitIds) q = q.where('unit_id', 'in', unitIds.length ? unitIds : [-1]);
  const counts = new Map((await q.execute()).map((r) => [r.role_id, Number(r.n)]));
  return roles.map((r) => ({ ...r, users: counts.get(r.id) ?? 0 }));
}

export async function findRole(db: Db, id: number): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function roleNameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('roles').select('id').where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertRole(db: Db, values: { name: string; weight: number; remark: string }): Promise<number> {
  const row = await db
    .insertInto('roles')
    .values({ ...values, created: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRole(
  db: Db,
  id: number,
  values: { name: string; weight: number; remark: string },
): Promise<void> {
  await db.updateTable('roles').set(values).where('id', '=', id).execute();
}

export async function deleteRole(db: Db, id: number): Promise<void> {
  await db.deleteFrom('role_permissions').where('role_id', '=', id).execute();
  await db.deleteFrom('roles').where('id', '=', id).execute();
}

export async function countRoleUsers(db: Db, roleId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Accounts holding the role whose unit is not one of `unitIds`. */
export async function countRoleUsersOutside(db: Db, roleId: number, unitIds: number[]): Promise<number> {
  let q = db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role_id', '=', roleId);
  if (unitIds.length) q = q.where('unit_id', 'not in', unitIds);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface PermissionRow {
  module_id: number;
  view: number;
  edit: number;
  add: number;
}

/** Replace the role's permissions (call inside a transaction). */
export async function replacePermissions(db: Db, roleId: number, rows: PermissionRow[]): Promise<void> {
  await db.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  if (rows.length)
    await db
      .insertInto('role_permissions')
      .values(rows.map((r) => ({ role_id: roleId, ...r })))
      .execute();
}
