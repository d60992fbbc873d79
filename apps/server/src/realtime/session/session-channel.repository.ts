import type { Db } from '../../db/connection';

/** SQL of the session push channel: logins by logincode, sessions' state (rights: connections/rights.ts). */

export async function tokenHashOfLogincode(db: Db, logincode: string): Promise<string | undefined> {
  return (await db.selectFrom('sessions').select('token_hash').where('logincode', '=', logincode).executeTakeFirst())
    ?.token_hash;
}

/** Sessions with their user's state, role and unit. */
export const sessionStates = (db: Db, ids: readonly number[]) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.status', 's.last_seen', 'u.status as user_status', 'u.role_id', 'u.unit_id'])
    .where('s.id', 'in', [...ids])
    .execute();
