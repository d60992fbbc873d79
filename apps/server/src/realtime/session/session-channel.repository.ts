import type { Db } from '../../db/connection';

/** SQL of the session push channel: logins by logincode, the view rights its pushes follow, sessions' state. */

export async function tokenHashOfLogincode(db: Db, logincode: string): Promise<string | undefined> {
  return (await db.selectFrom('sessions').select('token_hash').where('logincode', '=', logincode).executeTakeFirst())
    ?.token_hash;
}

/** View flags of `menus` for roles. */
export const viewRights = (db: Db, roleIds: readonly number[], menus: readonly number[]) =>
  db
    .selectFrom('role_permissions')
    .select(['role_id', 'module_id', 'view'])
    .where('role_id', 'in', [...roleIds])
    .where('module_id', 'in', [...menus])
    .execute();

/** Sessions with their user's state, role and unit. */
export const sessionStates = (db: Db, ids: readonly number[]) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.status', 's.last_seen', 'u.status as user_status', 'u.role_id', 'u.unit_id'])
    .where('s.id', 'in', [...ids])
    .execute();
