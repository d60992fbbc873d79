import type { DeviceListQuery } from '@bwc/protocol';
import { sql, type Insertable, type RawBuilder, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/connection';
import type { DeviceTable, RecorderModelTable } from '../../db/types';
import type { DeviceJoined } from './devices.presenter';

/** All SQL of device records and recorder models. */

function joined(db: Db) {
  return db
    .selectFrom('devices as d')
    .leftJoin('units as u', 'u.id', 'd.unit_id')
    .leftJoin('recorder_models as m', 'm.id', 'd.model_id')
    .leftJoin('users as o', 'o.id', 'd.owner_id')
    .selectAll('d')
    .select(['u.name as unitname', 'u.bh as dwbh', 'm.name as model_name', 'o.hostname as owner_name']);
}

export interface DeviceFilter {
  /** null: every unit */
  unitIds: number[] | null;
  keyword?: string;
  modelId?: number;
  lineon?: number;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The filter as one SQL condition over alias `d` (works in the joined list and the count). */
function filterSql(f: DeviceFilter): RawBuilder<SqlBool> {
  const parts: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (f.unitIds) parts.push(f.unitIds.length ? sql`d.unit_id in (${sql.join(f.unitIds)})` : sql`1 = 0`);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword.toLowerCase())}%`;
    const cols = ['hostname', 'hostbody', 'imei', 'hostcode', 'jq_hostcode'].map(
      (c) => sql`lower(${sql.ref(`d.${c}`)}) like ${like} escape '\\'`,
    );
    parts.push(sql`(${sql.join(cols, sql` or `)})`);
  }
  if (f.modelId !== undefined) parts.push(sql`d.model_id = ${f.modelId}`);
  if (f.lineon !== undefined) parts.push(sql`d.lineon = ${f.lineon}`);
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}

export async function listDevices(
  db: Db,
  f: DeviceFilter,
  page: Pick<DeviceListQuery, 'page' | 'limit'>,
): Promise<{ total: number; rows: DeviceJoined[] }> {
  const where = filterSql(f);
  const countRow = await db
    .selectFrom('devices as d')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(where)
    .executeTakeFirst();
  const rows = await joined(db)
    .where(where)
    .orderBy('d.unit_id')
    .orderBy('d.hostbody')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute();
  return { total: Number(countRow?.n ?? 0), rows: rows as DeviceJoined[] };
}

export async function findDevice(db: Db, id: number): Promise<DeviceJoined | undefined> {
  return (await joined(db).where('d.id', '=', id).executeTakeFirst()) as DeviceJoined | undefined;
}

export async function findDevicesByIds(db: Db, ids: number[]): Promise<DeviceJoined[]> {
  if (!ids.length) return [];
  return (await joined(db).where('d.id', 'in', ids).orderBy('d.id').execute()) as DeviceJoined[];
}

export async function findDeviceByImei(db: Db, imei: string) {
  return db.selectFrom('devices').selectAll().where('imei', '=', imei).executeTakeFirst();
}

export async function findDeviceByHostbody(db: Db, hostbody: string) {
  return db.selectFrom('devices').selectAll().where('hostbody', '=', hostbody).executeTakeFirst();
}

/** The device whose hostbody or imei is `ident` (device login, OsmAnd id). */
export async function findDeviceByIdent(db: Db, ident: string) {
  return db
    .selectFrom('devices')
    .selectAll()
    .where((eb) => eb.or([eb('hostbody', '=', ident), eb('imei', '=', ident)]))
    .orderBy('id')
    .executeTakeFirst();
}

export async function countDevices(db: Db): Promise<number> {
  const row = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertDevice(db: Db, values: Insertable<DeviceTable>): Promise<number> {
  const row = await db.insertInto('devices').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateDevice(db: Db, id: number, values: Updateable<DeviceTable>): Promise<void> {
  await db.updateTable('devices').set(values).where('id', '=', id).execute();
}

export async function deleteDevice(db: Db, id: number): Promise<void> {
  await db.deleteFrom('devices').where('id', '=', id).execute();
}

/** Position and state of the devices of some units (null: all), for the map. */
export async function devicePoints(db: Db, unitIds: number[] | null, ids?: number[], locatedOnly = false) {
  let q = db
    .selectFrom('devices')
    .select([
      'id',
      'hostbody',
      'imei',
      'hostname',
      'hostcode',
      'jq_hostcode',
      'unit_id',
      'lineon',
      'remote_kill',
      'typecate',
      'lat',
      'lng',
      'speed',
      'course',
      'battery',
      'gps_time',
    ]);
  if (unitIds) q = unitIds.length ? q.where('unit_id', 'in', unitIds) : q.where(sql<SqlBool>`1 = 0`);
  if (ids) q = ids.length ? q.where('id', 'in', ids) : q.where(sql<SqlBool>`1 = 0`);
  if (locatedOnly) q = q.where('lat', 'is not', null);
  return q.orderBy('id').execute();
}

// ---- users and units referenced by devices ---------------------------------------------------

export async function findUserUnit(db: Db, userId: number): Promise<number | undefined> {
  return (await db.selectFrom('users').select('unit_id').where('id', '=', userId).executeTakeFirst())?.unit_id;
}

export async function unitExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('units').select('id').where('id', '=', id).executeTakeFirst());
}

export async function unitsByCode(db: Db) {
  return db.selectFrom('units').select(['id', 'bh']).orderBy('id').execute();
}

// ---- recorder models -----------------------------------------------------------------------

export async function listModels(db: Db, keyword?: string) {
  let q = db.selectFrom('recorder_models').selectAll().orderBy('name');
  if (keyword) q = q.where(sql<SqlBool>`lower(name) like ${`%${escapeLike(keyword.toLowerCase())}%`} escape '\\'`);
  return q.execute();
}

export async function modelDeviceCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('devices')
    .select(['model_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('model_id', 'is not', null)
    .groupBy('model_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.model_id), Number(r.n)]));
}

export async function findModel(db: Db, id: number) {
  return db.selectFrom('recorder_models').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findModelByName(db: Db, name: string) {
  return db.selectFrom('recorder_models').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertModel(db: Db, values: Insertable<RecorderModelTable>): Promise<number> {
  return (await db.insertInto('recorder_models').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateModel(db: Db, id: number, values: Updateable<RecorderModelTable>): Promise<void> {
  await db.updateTable('recorder_models').set(values).where('id', '=', id).execute();
}

export async function deleteModel(db: Db, id: number): Promise<void> {
  await db.deleteFrom('recorder_models').where('id', '=', id).execute();
}

// ---- commands and events -------------------------------------------------------------------

export async function pendingCommandCount(db: Db, deviceId: number): Promise<number> {
  const row = await db
    .selectFrom('device_commands')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('device_id', '=', deviceId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
