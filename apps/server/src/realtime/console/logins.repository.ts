import type { Insertable } from 'kysely';
import { now, type Db } from '../../db/connection';
import { readSecret } from '../../db/settings';
import type { ConsoleLoginRow, ConsoleLoginTable, LoginStatus } from './console.tables';
import './console.tables';

/** Settings row of the key that derives consoles' service passwords (shared by every node). */
const SERVICE_KEY_TYPE = 'console_service_key';

/** The service key (db/settings.ts readSecret: created once, shared by every node). */
export function readServiceKey(db: Db): Promise<Buffer> {
  return readSecret(db, SERVICE_KEY_TYPE);
}

/** A console account: the user, its unit and role. */
export async function findConsoleUser(db: Db, username: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('units as d', 'd.id', 'u.unit_id')
    .select([
      'u.id',
      'u.username',
      'u.hostname',
      'u.unit_id',
      'u.role_id',
      'u.ifadmin',
      'u.status',
      'd.bh as unit_bh',
      'd.name as unit_name',
    ])
    .where('u.username', '=', username)
    .executeTakeFirst();
}
export type ConsoleUser = NonNullable<Awaited<ReturnType<typeof findConsoleUser>>>;

export async function findConsoleUserById(db: Db, id: number): Promise<ConsoleUser | undefined> {
  return db
    .selectFrom('users as u')
    .innerJoin('units as d', 'd.id', 'u.unit_id')
    .select([
      'u.id',
      'u.username',
      'u.hostname',
      'u.unit_id',
      'u.role_id',
      'u.ifadmin',
      'u.status',
      'd.bh as unit_bh',
      'd.name as unit_name',
    ])
    .where('u.id', '=', id)
    .executeTakeFirst();
}

/** The user's HTTP sessions that are still active (a console's service password is bound to one). */
export async function activeSessionsOf(db: Db, userId: number) {
  return db
    .selectFrom('sessions')
    .select(['id', 'token_hash', 'last_seen'])
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .execute();
}

/** One HTTP session's id and token hash (a console's service password is derived from them). */
export async function findSessionKey(db: Db, sessionId: number) {
  return db.selectFrom('sessions').select(['id', 'token_hash']).where('id', '=', sessionId).executeTakeFirstOrThrow();
}

/** A terminal by hostbody, IMEI or cluster number. */
export async function findTerminal(db: Db, ident: string) {
  return db
    .selectFrom('devices')
    .select(['id', 'hostbody', 'hostname', 'imei', 'unit_id', 'jq_hostcode', 'remote_kill'])
    .where((eb) => eb.or([eb('hostbody', '=', ident), eb('imei', '=', ident), eb('jq_hostcode', '=', ident)]))
    .orderBy('id')
    .executeTakeFirst();
}

export async function insertLogin(db: Db, values: Omit<Insertable<ConsoleLoginTable>, 'id'>): Promise<number> {
  const row = await db.insertInto('console_logins').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function findLoginByTokenHash(db: Db, tokenHash: string): Promise<ConsoleLoginRow | undefined> {
  return db.selectFrom('console_logins').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Active logins of a uid (a second logon takes them over). */
export async function activeLoginsOf(db: Db, uid: number): Promise<ConsoleLoginRow[]> {
  return db.selectFrom('console_logins').selectAll().where('uid', '=', uid).where('status', '=', 'active').execute();
}

export async function endLogins(db: Db, ids: number[], status: Exclude<LoginStatus, 'active'>): Promise<number> {
  if (!ids.length) return 0;
  const result = await db
    .updateTable('console_logins')
    .set({ status, ended: now() })
    .where('id', 'in', ids)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function touchLogins(db: Db, ids: number[], time: string = now()): Promise<void> {
  if (!ids.length) return;
  await db.updateTable('console_logins').set({ last_seen: time }).where('id', 'in', ids).execute();
}

/** Active logins not seen since `before` (ISO): candidates for ending when their alive time ran out. */
export async function staleLogins(db: Db, before: string) {
  return db
    .selectFrom('console_logins')
    .select(['id', 'uid', 'last_seen', 'alive_minutes'])
    .where('status', '=', 'active')
    .where('last_seen', '<', before)
    .execute();
}

/** State of consoles' sessions and users, for the refresh. */
export async function sessionStates(db: Db, sessionIds: number[]) {
  if (!sessionIds.length) return [];
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.status',
      's.last_seen',
      'u.status as user_status',
      'u.role_id',
      'u.unit_id',
      'u.ifadmin',
      'u.hostname',
    ])
    .where('s.id', 'in', sessionIds)
    .execute();
}

/** State of terminals' devices, for the refresh. */
export async function terminalStates(db: Db, deviceIds: number[]) {
  if (!deviceIds.length) return [];
  return db
    .selectFrom('devices')
    .select(['id', 'unit_id', 'jq_hostcode', 'remote_kill', 'hostname', 'hostbody'])
    .where('id', 'in', deviceIds)
    .execute();
}

/** The node whose connection holds the login now (null: none). Clearing names the node, so a newer binding elsewhere stays. */
export async function setLoginNode(db: Db, id: number, node: string | null, ifNode?: string): Promise<void> {
  let q = db.updateTable('console_logins').set({ node }).where('id', '=', id);
  if (ifNode !== undefined) q = q.where('node', '=', ifNode);
  await q.execute();
}

/** Active logins held by a connection on some node, with their unit (the user's or the device's). */
export async function boundLogins(db: Db) {
  return db
    .selectFrom('console_logins as l')
    .leftJoin('users as u', 'u.id', 'l.user_id')
    .leftJoin('devices as d', 'd.id', 'l.device_id')
    .select([
      'l.id',
      'l.uid',
      'l.ext_id',
      'l.user_type',
      'l.node',
      'u.unit_id as user_unit',
      'd.unit_id as device_unit',
    ])
    .where('l.node', 'is not', null)
    .where('l.status', '=', 'active')
    .execute();
}

/** Forget the binding of one login if `node` still holds it; answers whether it did. */
export async function clearLoginNode(db: Db, id: number, node: string): Promise<boolean> {
  const r = await db
    .updateTable('console_logins')
    .set({ node: null })
    .where('id', '=', id)
    .where('node', '=', node)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
