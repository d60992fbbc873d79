import { sql } from 'kysely';
import { now, type Db } from '../../db/connection';
import type { UnitRow } from '../../db/types';

/** Every unit, ordered by sort then code (a few hundred at most: trees are built in memory). */
export async function allUnits(db: Db): Promise<UnitRow[]> {
  return db.selectFrom('units').selectAll().orderBy('sort').orderBy('bh').execute();
}

export async function findUnit(db: Db, id: number): Promise<UnitRow | undefined> {
  return db.selectFrom('units').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUnitByCode(db: Db, bh: string): Promise<UnitRow | undefined> {
  return db.selectFrom('units').selectAll().where('bh', '=', bh).executeTakeFirst();
}

export async function codesTaken(db: Db, codes: string[], exceptIds: number[] = []): Promise<string[]> {
  if (!codes.length) return [];
  let q = db.selectFrom('units').select('bh').where('bh', 'in', codes);
  if (exceptIds.length) q = q.where('id', 'not in', exceptIds);
  return (await q.execute()).map((r) => r.bh);
}

export async function insertUnit(
  db: Db,
  values: { pid: number; bh: string; name: string; sort: number },
): Promise<number> {
  const row = await db
    .insertInto('units')
    .values({ ...values, created: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUnit(
  db: Db,
  id: number,
  values: Partial<Pick<UnitRow, 'pid' | 'bh' | 'name' | 'sort'>>,
): Promise<void> {
  await db.updateTable('units').set(values).where('id', '=', id).execute();
}

export async function deleteUnit(db: Db, id: number): Promise<void> {
  await db.deleteFrom('units').where('id', '=', id).execute();
}

export async function countChildUnits(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('units')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pid', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countUnitUsers(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('unit_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Accounts per unit (the unit itself, not its sub-units). */
export async function userCountsByUnit(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('users')
    .select(['unit_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('unit_id')
    .execute();
  return new Map(rows.map((r) => [r.unit_id, Number(r.n)]));
}

/**
 * Devices come with a later issue. Until its `devices` table (with `unit_id` and `lineon`)
 * exists, every unit has no devices.
 */
async function hasDevicesTable(db: Db): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some((t) => t.name === 'devices');
}

export interface DeviceCount {
  total: number;
  online: number;
}

/** Devices per unit (the unit itself), with how many are online. */
export async function deviceCountsByUnit(db: Db): Promise<Map<number, DeviceCount>> {
  if (!(await hasDevicesTable(db))) return new Map();
  const result = await sql<{ unit_id: number; total: number; online: number }>`
    select unit_id, count(*) as total, sum(case when lineon = 1 then 1 else 0 end) as online
    from devices group by unit_id`.execute(db);
  return new Map(
    result.rows.map((r) => [Number(r.unit_id), { total: Number(r.total), online: Number(r.online ?? 0) }]),
  );
}

export interface DeviceLeaf {
  id: number;
  hostname: string;
  lineon: number;
  did: string;
  jq_hostcode: string;
}

/** The devices of one unit, for the device tree (empty until the devices table exists). */
export async function unitDevices(db: Db, unitId: number): Promise<DeviceLeaf[]> {
  if (!(await hasDevicesTable(db))) return [];
  const result = await sql<Record<string, unknown>>`select * from devices where unit_id = ${unitId}`.execute(db);
  return result.rows.map((r) => ({
    id: Number(r.id),
    hostname: String(r.hostname ?? ''),
    lineon: Number(r.lineon ?? 0),
    did: String(r.did ?? r.hostbody ?? ''),
    jq_hostcode: String(r.jq_hostcode ?? ''),
  }));
}
