import { now, type Db } from '../../db/connection';

export async function findUserForLogin(db: Db, username: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('units as d', 'd.id', 'u.unit_id')
    .select(['u.id', 'u.username', 'u.password_hash', 'u.status', 'u.ifadmin', 'u.unit_id', 'd.name as unit_name'])
    .where('u.username', '=', username)
    .executeTakeFirst();
}

export async function getPasswordHash(db: Db, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return row?.password_hash;
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated: now() }).where('id', '=', userId).execute();
}

/** Modules the role holds at least one action on, in catalogue order, with the actions. */
export async function roleModules(db: Db, roleId: number) {
  return db
    .selectFrom('modules as m')
    .innerJoin('role_permissions as p', 'p.module_id', 'm.id')
    .select(['m.id', 'm.bh', 'm.pid', 'm.key', 'm.path', 'p.view', 'p.edit', 'p.add'])
    .where('p.role_id', '=', roleId)
    .where((eb) => eb.or([eb('p.view', '=', 1), eb('p.edit', '=', 1), eb('p.add', '=', 1)]))
    .orderBy('m.sort')
    .execute();
}

export async function allModuleCodes(db: Db): Promise<string[]> {
  return (await db.selectFrom('modules').select('bh').orderBy('sort').execute()).map((r) => r.bh);
}
