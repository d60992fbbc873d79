import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import { now, type Db } from '../../db/connection';
import type { Database, UserStatus } from '../../db/types';

/** Case-insensitive "column contains text" alike on SQLite and PostgreSQL; % _ \ match literally. */
function contains(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** 1 when the user has an active session seen since `since`, else 0. */
function onlineFlag(eb: ExpressionBuilder<Database & { u: Database['users'] }, 'u'>, since: string) {
  return eb
    .case()
    .when(
      eb.exists(
        eb
          .selectFrom('sessions as s')
          .select('s.id')
          .whereRef('s.user_id', '=', 'u.id')
          .where('s.status', '=', 'active')
          .where('s.last_seen', '>=', since),
      ),
    )
    .then(1)
    .else(0)
    .end();
}

export interface AccountRow {
  id: number;
  username: string;
  hostname: string;
  phone: string;
  unit_id: number;
  dname: string;
  dwbh: string;
  role_id: number;
  group_name: string;
  ifadmin: number;
  status: UserStatus;
  online: number;
  created: string;
  updated: string;
}

function accountQuery(db: Db, since: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('units as d', 'd.id', 'u.unit_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select((eb) => [
      'u.id',
      'u.username',
      'u.hostname',
      'u.phone',
      'u.unit_id',
      'd.name as dname',
      'd.bh as dwbh',
      'u.role_id',
      'r.name as group_name',
      'u.ifadmin',
      'u.status',
      onlineFlag(eb, since).as('online'),
      'u.created',
      'u.updated',
    ]);
}

export interface AccountFilter {
  /** units to list from; null: every unit */
  unitIds: number[] | null;
  keyword?: string;
  roleId?: number;
  status?: UserStatus;
  page: number;
  limit: number;
  onlineSince: string;
}

export async function listAccounts(db: Db, f: AccountFilter): Promise<{ total: number; rows: AccountRow[] }> {
  let q = accountQuery(db, f.onlineSince);
  if (f.unitIds) q = q.where('u.unit_id', 'in', f.unitIds.length ? f.unitIds : [-1]);
  if (f.keyword) {
    const k = f.keyword;
    q = q.where((eb) => eb.or([contains('u.username', k), contains('u.hostname', k)]));
  }
  if (f.roleId) q = q.where('u.role_id', '=', f.roleId);
  if (f.status) q = q.where('u.status', '=', f.status);
  const total = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await q
    .orderBy('u.id')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  return { total: Number(total.n), rows: rows.map((r) => ({ ...r, online: Number(r.online) })) };
}

export async function findAccount(db: Db, id: number, onlineSince: string): Promise<AccountRow | undefined> {
  const row = await accountQuery(db, onlineSince).where('u.id', '=', id).executeTakeFirst();
  return row && { ...row, online: Number(row.online) };
}

export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()) !== undefined;
}

export async function insertAccount(
  db: Db,
  values: {
    username: string;
    password_hash: string;
    hostname: string;
    phone: string;
    unit_id: number;
    role_id: number;
    ifadmin: number;
  },
): Promise<number> {
  const ts = now();
  const row = await db
    .insertInto('users')
    .values({ ...values, status: 'enabled', created: ts, updated: ts })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateAccount(
  db: Db,
  id: number,
  values: Partial<{
    hostname: string;
    phone: string;
    unit_id: number;
    role_id: number;
    ifadmin: number;
    status: UserStatus;
    password_hash: string;
  }>,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...values, updated: now() })
    .where('id', '=', id)
    .execute();
}

export async function deleteAccount(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** Enabled administrators other than `exceptId`. */
export async function countOtherEnabledAdmins(db: Db, exceptId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ifadmin', '=', 1)
    .where('status', '=', 'enabled')
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** End every active session of the user: `kicked` answers forcedOffline at the next request, `ended` sessionExpired. */
export async function endUserSessions(db: Db, userId: number, status: 'ended' | 'kicked'): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ status, ended: now() })
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface OnlineRow {
  id: number;
  session_id: number;
  username: string;
  hostname: string;
  dname: string;
  group_name: string;
  ip: string;
  user_agent: string;
  login_time: string;
  last_seen: string;
}

/** Active sessions seen since `since`, newest login first. */
export async function onlineSessions(
  db: Db,
  unitIds: number[] | null,
  keyword: string | undefined,
  since: string,
): Promise<OnlineRow[]> {
  let q = db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('units as d', 'd.id', 'u.unit_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      'u.id',
      's.id as session_id',
      'u.username',
      'u.hostname',
      'd.name as dname',
      'r.name as group_name',
      's.ip',
      's.user_agent',
      's.created as login_time',
      's.last_seen',
    ])
    .where('s.status', '=', 'active')
    .where('s.last_seen', '>=', since);
  if (unitIds) q = q.where('u.unit_id', 'in', unitIds.length ? unitIds : [-1]);
  if (keyword) q = q.where((eb) => eb.or([contains('u.username', keyword), contains('u.hostname', keyword)]));
  return q.orderBy('s.created', 'desc').execute();
}
