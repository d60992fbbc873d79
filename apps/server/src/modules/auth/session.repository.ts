import { now, type Db } from '../../db/connection';
import type { SessionStatus } from '../../db/types';

export interface SessionWithUser {
  session: { id: number; status: SessionStatus; logincode: string; created: string; last_seen: string };
  user: {
    id: number;
    username: string;
    hostname: string;
    unit_id: number;
    unit_name: string;
    unit_bh: string;
    role_id: number;
    role_name: string;
    ifadmin: number;
    status: 'enabled' | 'disabled';
  };
}

export async function findSessionByTokenHash(db: Db, tokenHash: string): Promise<SessionWithUser | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('units as d', 'd.id', 'u.unit_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      's.id as session_id',
      's.status as session_status',
      's.logincode',
      's.created as session_created',
      's.last_seen',
      'u.id as user_id',
      'u.username',
      'u.hostname',
      'u.unit_id',
      'd.name as unit_name',
      'd.bh as unit_bh',
      'u.role_id',
      'r.name as role_name',
      'u.ifadmin',
      'u.status as user_status',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    session: {
      id: row.session_id,
      status: row.session_status,
      logincode: row.logincode,
      created: row.session_created,
      last_seen: row.last_seen,
    },
    user: {
      id: row.user_id,
      username: row.username,
      hostname: row.hostname,
      unit_id: row.unit_id,
      unit_name: row.unit_name,
      unit_bh: row.unit_bh,
      role_id: row.role_id,
      role_name: row.role_name,
      ifadmin: row.ifadmin,
      status: row.user_status,
    },
  };
}

export async function createSession(
  db: Db,
  values: {
    token_hash: string;
    user_id: number;
    ip: string;
    user_agent: string;
    pe_signals: string;
    logincode: string;
  },
): Promise<number> {
  const ts = now();
  const row = await db
    .insertInto('sessions')
    .values({ ...values, status: 'active', created: ts, last_seen: ts, ended: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Force every other active session of the user offline (a second login wins). */
export async function kickOtherSessions(db: Db, userId: number, keepSessionId: number): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ status: 'kicked', ended: now() })
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('id', '!=', keepSessionId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function endSession(db: Db, sessionId: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ status: 'ended', ended: now() })
    .where('id', '=', sessionId)
    .where('status', '=', 'active')
    .execute();
}

export async function touchSession(db: Db, sessionId: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen: now() }).where('id', '=', sessionId).execute();
}

/** Sessions seen since `since` (ISO) that are still active: the workstations in use. */
export async function countActiveSessions(db: Db, since: string, excludeUserId?: number): Promise<number> {
  let q = db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'active')
    .where('last_seen', '>=', since);
  if (excludeUserId !== undefined) q = q.where('user_id', '!=', excludeUserId);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}
