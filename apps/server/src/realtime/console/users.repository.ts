import { CONSOLE_UID_BASE, type ParamInfo } from '@bwc/protocol';
import { now, type Db } from '../../db/connection';
import './console.tables';

/** Terminals and consoles as the service names them (SQL of the users family and of the directory). */

const terminalColumns = [
  'd.id',
  'd.hostbody',
  'd.hostname',
  'd.hostcode',
  'd.imei',
  'd.jq_hostcode',
  'd.unit_id',
  'd.lat',
  'd.lng',
  'u.name as unitname',
  'u.bh as dwbh',
] as const;

/** Terminals (devices with a cluster number) by device id and / or cluster number. */
export async function findTerminals(db: Db, ids: readonly number[], extIds: readonly string[]) {
  if (!ids.length && !extIds.length) return [];
  return db
    .selectFrom('devices as d')
    .innerJoin('units as u', 'u.id', 'd.unit_id')
    .select([...terminalColumns])
    .where('d.jq_hostcode', '!=', '')
    .where((eb) => {
      const ors = [];
      if (ids.length) ors.push(eb('d.id', 'in', [...ids]));
      if (extIds.length) ors.push(eb('d.jq_hostcode', 'in', [...extIds]));
      return eb.or(ors);
    })
    .execute();
}
export type TerminalRow = Awaited<ReturnType<typeof findTerminals>>[number];

/** Every terminal of the given units (null: of every unit), by device id. */
export async function terminalsOfUnits(db: Db, unitIds: readonly number[] | null): Promise<TerminalRow[]> {
  if (unitIds && !unitIds.length) return [];
  let q = db
    .selectFrom('devices as d')
    .innerJoin('units as u', 'u.id', 'd.unit_id')
    .select([...terminalColumns])
    .where('d.jq_hostcode', '!=', '');
  if (unitIds) q = q.where('d.unit_id', 'in', [...unitIds]);
  return q.orderBy('d.id').execute();
}

/** Console users by user id and / or username. */
export async function findConsoleUsers(db: Db, userIds: readonly number[], usernames: readonly string[]) {
  if (!userIds.length && !usernames.length) return [];
  return db
    .selectFrom('users as s')
    .innerJoin('units as u', 'u.id', 's.unit_id')
    .select([
      's.id',
      's.username',
      's.hostname',
      's.unit_id',
      's.status',
      's.ifadmin',
      'u.name as unitname',
      'u.bh as dwbh',
    ])
    .where((eb) => {
      const ors = [];
      if (userIds.length) ors.push(eb('s.id', 'in', [...userIds]));
      if (usernames.length) ors.push(eb('s.username', 'in', [...usernames]));
      return eb.or(ors);
    })
    .execute();
}
export type ConsoleUserRow = Awaited<ReturnType<typeof findConsoleUsers>>[number];

export async function readParams(db: Db, uids: readonly number[]): Promise<Map<number, ParamInfo>> {
  if (!uids.length) return new Map();
  const rows = await db
    .selectFrom('console_params')
    .select(['uid', 'paraminfo'])
    .where('uid', 'in', [...uids])
    .execute();
  return new Map(rows.map((r) => [r.uid, JSON.parse(r.paraminfo) as ParamInfo]));
}

/** Merge `paraminfo` into each uid's stored parameters (keys given replace the stored ones), in one transaction. */
export async function mergeParams(db: Db, uids: readonly number[], paraminfo: ParamInfo, by: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await readParams(trx, uids);
    const ts = now();
    for (const uid of uids) {
      const value = JSON.stringify({ ...(current.get(uid) ?? {}), ...paraminfo });
      await trx
        .insertInto('console_params')
        .values({ uid, paraminfo: value, updated_by: by, updated: ts })
        .onConflict((oc) => oc.column('uid').doUpdateSet({ paraminfo: value, updated_by: by, updated: ts }))
        .execute();
    }
  });
}

export async function addAdminUsers(db: Db, consoleUid: number, uids: readonly number[]): Promise<void> {
  if (!uids.length) return;
  const ts = now();
  await db
    .insertInto('console_admin_users')
    .values(uids.map((uid) => ({ console_uid: consoleUid, uid, created: ts })))
    .onConflict((oc) => oc.columns(['console_uid', 'uid']).doNothing())
    .execute();
}

export async function adminUsersOf(db: Db, consoleUid: number): Promise<number[]> {
  const rows = await db
    .selectFrom('console_admin_users')
    .select('uid')
    .where('console_uid', '=', consoleUid)
    .orderBy('uid')
    .execute();
  return rows.map((r) => r.uid);
}

/** Console uids among `uids` (see CONSOLE_UID_BASE). */
export const consoleUserIds = (uids: readonly number[]): number[] =>
  uids.filter((u) => u > CONSOLE_UID_BASE).map((u) => u - CONSOLE_UID_BASE);

/** A unit and its ancestors (the units whose consoles see it). */
export async function unitAndAncestors(db: Db, unitId: number): Promise<Set<number>> {
  const units = await db.selectFrom('units').select(['id', 'pid']).execute();
  const parent = new Map(units.map((u) => [u.id, u.pid]));
  const out = new Set<number>();
  for (let id: number | undefined = unitId; id && !out.has(id); id = parent.get(id)) out.add(id);
  return out;
}
