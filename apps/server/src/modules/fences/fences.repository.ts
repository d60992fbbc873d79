import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/connection';
import type { FenceEventTable, GeoFenceRow, GeoFenceTable } from './geo.tables';
import './geo.tables';

/** All SQL of fences, zones (same table, `kind`), crossing states and fence events. */

export type GeoKind = 'fence' | 'zone';
export type GeoFenceJoined = GeoFenceRow & { unitname: string | null };

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listGeo(
  db: Db,
  kind: GeoKind,
  f: { unitIds: number[] | null; keyword?: string; enabled?: number },
): Promise<GeoFenceJoined[]> {
  let q = db
    .selectFrom('geo_fences as g')
    .leftJoin('units as u', 'u.id', 'g.unit_id')
    .selectAll('g')
    .select('u.name as unitname')
    .where('g.kind', '=', kind);
  if (f.unitIds) q = f.unitIds.length ? q.where('g.unit_id', 'in', f.unitIds) : q.where(sql<boolean>`1 = 0`);
  if (f.keyword)
    q = q.where((eb) => eb(eb.fn('lower', ['g.name']), 'like', `%${escapeLike(f.keyword!.toLowerCase())}%`));
  if (f.enabled !== undefined) q = q.where('g.enabled', '=', f.enabled);
  return q.orderBy('g.id').execute();
}

export async function findGeo(db: Db, kind: GeoKind, id: number): Promise<GeoFenceJoined | undefined> {
  return db
    .selectFrom('geo_fences as g')
    .leftJoin('units as u', 'u.id', 'g.unit_id')
    .selectAll('g')
    .select('u.name as unitname')
    .where('g.kind', '=', kind)
    .where('g.id', '=', id)
    .executeTakeFirst();
}

export async function insertGeo(db: Db, values: Insertable<GeoFenceTable>): Promise<number> {
  return (await db.insertInto('geo_fences').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateGeo(db: Db, id: number, values: Updateable<GeoFenceTable>): Promise<void> {
  await db.updateTable('geo_fences').set(values).where('id', '=', id).execute();
}

export async function deleteGeo(db: Db, id: number): Promise<void> {
  await db.deleteFrom('fence_states').where('fence_id', '=', id).execute();
  await db.deleteFrom('geo_fences').where('id', '=', id).execute();
}

export async function clearFenceStates(db: Db, fenceId: number): Promise<void> {
  await db.deleteFrom('fence_states').where('fence_id', '=', fenceId).execute();
}

/** Enabled fences (the crossing engine's cache). */
export async function enabledFences(db: Db): Promise<GeoFenceRow[]> {
  return db
    .selectFrom('geo_fences')
    .selectAll()
    .where('kind', '=', 'fence')
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

export async function fenceStates(db: Db, fenceIds: number[]) {
  if (!fenceIds.length) return [];
  return db.selectFrom('fence_states').selectAll().where('fence_id', 'in', fenceIds).execute();
}

export async function upsertFenceState(
  db: Db,
  fenceId: number,
  deviceId: number,
  inside: number,
  time: string,
): Promise<void> {
  await db
    .insertInto('fence_states')
    .values({ fence_id: fenceId, device_id: deviceId, inside, time })
    .onConflict((oc) => oc.columns(['fence_id', 'device_id']).doUpdateSet({ inside, time }))
    .execute();
}

export async function insertFenceEvent(db: Db, values: Insertable<FenceEventTable>): Promise<number> {
  return (await db.insertInto('fence_events').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function listFenceEvents(
  db: Db,
  f: { unitIds: number[] | null; fenceId?: number; deviceId?: number },
  page: { page: number; limit: number },
) {
  let q = db.selectFrom('fence_events as e').innerJoin('devices as d', 'd.id', 'e.device_id');
  if (f.unitIds) q = f.unitIds.length ? q.where('e.unit_id', 'in', f.unitIds) : q.where(sql<boolean>`1 = 0`);
  if (f.fenceId !== undefined) q = q.where('e.fence_id', '=', f.fenceId);
  if (f.deviceId !== undefined) q = q.where('e.device_id', '=', f.deviceId);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await q
    .selectAll('e')
    .select(['d.hostbody', 'd.hostname'])
    .orderBy('e.id', 'desc')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute();
  return { total, rows };
}

/** Devices by id with their unit (target checks). */
export async function devicesByIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('devices')
    .select(['id', 'unit_id', 'hostbody', 'hostname', 'imei', 'hostcode'])
    .where('id', 'in', ids)
    .execute();
}

export async function unitsByIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db.selectFrom('units').select(['id', 'name']).where('id', 'in', ids).execute();
}
