import type { DeviceCommand, DeviceCommandType, DeviceListQuery } from '@bwc/protocol';
import { sql, type Insertable, type RawBuilder, type SqlBool, type Updateable } from 'kysely';
import { now, sqliteStatement, type Db } from '../../db/connection';
import type { DeviceRow, DeviceTable, PositionTable, RecorderModelTable } from '../../db/types';
import type { DeviceJoined } from './devices.presenter';

/**
 * All SQL of devices: the records and recorder models (ops centre), and the live state the
 * runtime writes (credentials, online state, events, positions, SOS, commands). The SQLite fast
 * path of position flushes is `sqlite-writer.ts` (its own connection and prepared statements).
 */

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

/** A device with its positions, events and queued commands (run it inside a transaction). */
export async function deleteDevice(db: Db, id: number): Promise<void> {
  await db.deleteFrom('positions').where('device_id', '=', id).execute();
  await db.deleteFrom('device_events').where('device_id', '=', id).execute();
  await db.deleteFrom('device_commands').where('device_id', '=', id).execute();
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

// ---- live state (runtime) ------------------------------------------------------------------

/** A validated position of one device, ready to store. */
export type NewPosition = Insertable<PositionTable>;

/** One device's latest-state change of a position flush. */
export interface LatestUpdate {
  id: number;
  unit_id: number;
  /** 1: the device comes online with this flush (an `online` event row is written too) */
  online: number;
  /** the newest fix is newer than the stored one: move the latest position */
  fresher: boolean;
  row: NewPosition;
}

/** A device event row to write (`sos`, `online`, `offline`, `remote_kill`, `remote_wakeon`). */
export interface NewDeviceEvent {
  device_id: number;
  unit_id: number;
  type: string;
  time: string;
  lat?: number | null;
  lng?: number | null;
  payload?: unknown;
}

/** rows per positions INSERT statement (well under SQLite's and PostgreSQL's parameter limits) */
const POSITION_INSERT_CHUNK = 1_000;
/** SOS device events per INSERT statement on PostgreSQL (8 parameters a row) */
const SOS_INSERT_CHUNK = 100;
const INSERT_SOS_EVENT = `insert into device_events (device_id, unit_id, type, time, lat, lng, payload, created)
  values (?, ?, 'sos', ?, ?, ?, ?, ?) returning id`;

export async function findDeviceRow(db: Db, id: number): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findDeviceByTokenHash(db: Db, hash: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

export async function setTokenHash(db: Db, id: number, hash: string): Promise<void> {
  await db.updateTable('devices').set({ token_hash: hash }).where('id', '=', id).execute();
}

export async function insertDeviceEvent(db: Db, e: NewDeviceEvent): Promise<number> {
  const row = await db
    .insertInto('device_events')
    .values({
      device_id: e.device_id,
      unit_id: e.unit_id,
      type: e.type,
      time: e.time,
      lat: e.lat ?? null,
      lng: e.lng ?? null,
      payload: JSON.stringify(e.payload ?? {}),
      created: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The device was heard: last_seen, and online when `online`. */
export async function touchDevice(db: Db, id: number, seenAt: string): Promise<void> {
  await db.updateTable('devices').set({ last_seen: seenAt }).where('id', '=', id).execute();
}

export async function setBattery(db: Db, id: number, battery: number): Promise<void> {
  await db.updateTable('devices').set({ battery }).where('id', '=', id).execute();
}

/**
 * Online again with a message after being offline, unless remotely killed; answers whether this
 * call changed it (of several nodes hearing the device at once, one does).
 */
export async function bringOnline(db: Db, id: number, seenAt: string): Promise<boolean> {
  const r = await db
    .updateTable('devices')
    .set({ last_seen: seenAt, lineon: 1 })
    .where('id', '=', id)
    .where('lineon', '=', 0)
    .where('remote_kill', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The device's own offline message; answers whether it was online (only then is an event due). */
export async function setOffline(db: Db, id: number, seenAt: string, battery?: number): Promise<boolean> {
  const set = { lineon: 0, last_seen: seenAt, ...(battery !== undefined ? { battery } : {}) };
  const r = await db.updateTable('devices').set(set).where('id', '=', id).where('lineon', '=', 1).executeTakeFirst();
  if (Number(r.numUpdatedRows) > 0) return true;
  await db.updateTable('devices').set(set).where('id', '=', id).execute();
  return false;
}

/**
 * Mark offline every online device not heard since `cutoff`, with an `offline` event (reason
 * silence) each, in one transaction; answers the devices marked.
 */
export async function markSilentOffline(db: Db, cutoff: string, ts: string) {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('devices')
      .set({ lineon: 0 })
      .where('lineon', '=', 1)
      .where((eb) => eb.or([eb('last_seen', 'is', null), eb('last_seen', '<', cutoff)]))
      .returning(['id', 'unit_id', 'hostbody', 'imei', 'hostname'])
      .execute();
    if (rows.length)
      await trx
        .insertInto('device_events')
        .values(
          rows.map((r) => ({
            device_id: r.id,
            unit_id: r.unit_id,
            type: 'offline',
            time: ts,
            lat: null,
            lng: null,
            payload: JSON.stringify({ reason: 'silence' }),
            created: ts,
          })),
        )
        .execute();
    return rows;
  });
}

/** Remote kill / wake: the live state and flags of a device. */
export async function setRemoteState(
  db: Db,
  id: number,
  state: { remote_kill: number; lineon: number; typecate: number[] },
  ts: string,
): Promise<void> {
  await db
    .updateTable('devices')
    .set({
      remote_kill: state.remote_kill,
      lineon: state.lineon,
      typecate: JSON.stringify(state.typecate),
      updated: ts,
      ...(state.remote_kill ? {} : { last_seen: ts }),
    })
    .where('id', '=', id)
    .execute();
}

/** The last known position of some devices, by id. */
export async function lastKnownPositions(db: Db, ids: number[]) {
  if (!ids.length) return new Map<number, { lat: number | null; lng: number | null }>();
  const rows = await db.selectFrom('devices').select(['id', 'lat', 'lng']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, { lat: r.lat, lng: r.lng }] as const));
}

/** An SOS device event to insert. */
export interface NewSosEvent {
  device_id: number;
  unit_id: number;
  time: string;
  lat: number | null;
  lng: number | null;
  /** JSON */
  payload: string;
  created: string;
}

/**
 * Insert SOS device events inside transaction `trx` of `app` (the app's Kysely instance); answers
 * their ids in the order of `rows`. SQLite: one cached prepared statement per row (same
 * connection as the transaction); PostgreSQL: one statement per chunk.
 */
export async function insertSosEvents(trx: Db, rows: NewSosEvent[], app: Db): Promise<number[]> {
  const insertOne = sqliteStatement(app, INSERT_SOS_EVENT);
  if (insertOne)
    return rows.map(
      (r) => (insertOne.get(r.device_id, r.unit_id, r.time, r.lat, r.lng, r.payload, r.created) as { id: number }).id,
    );
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += SOS_INSERT_CHUNK) {
    const chunk = rows.slice(i, i + SOS_INSERT_CHUNK);
    // ids grow in VALUES order, so the sorted ids match the rows (checked)
    const stored = (
      await trx
        .insertInto('device_events')
        .values(chunk.map((r) => ({ ...r, type: 'sos' })))
        .returning(['id', 'device_id', 'time', 'payload'])
        .execute()
    ).sort((a, b) => a.id - b.id);
    if (stored.length !== chunk.length) throw new Error('SOS insert: row count');
    chunk.forEach((r, k) => {
      const s = stored[k]!;
      if (s.device_id !== r.device_id || s.time !== r.time || s.payload !== r.payload)
        throw new Error('SOS insert: returned rows out of order');
      ids.push(s.id);
    });
  }
  return ids;
}

/**
 * One positions flush through Kysely (PostgreSQL, in-memory SQLite): the history rows, each
 * device's latest state and its `online` event, in one transaction.
 */
export async function writePositions(db: Db, rows: NewPosition[], updates: LatestUpdate[], seenAt: string) {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += POSITION_INSERT_CHUNK) {
      await trx
        .insertInto('positions')
        .values(rows.slice(i, i + POSITION_INSERT_CHUNK))
        .execute();
    }
    for (const u of updates) {
      const r = u.row;
      await trx
        .updateTable('devices')
        .set({
          last_seen: seenAt,
          ...(u.online ? { lineon: 1 } : {}),
          ...(u.fresher
            ? {
                lat: r.lat,
                lng: r.lng,
                speed: r.speed,
                course: r.course,
                accuracy: r.accuracy,
                gps_time: r.time,
                ...(r.battery !== null && r.battery !== undefined ? { battery: r.battery } : {}),
              }
            : {}),
        })
        .where('id', '=', u.id)
        .execute();
      if (u.online) {
        await trx
          .insertInto('device_events')
          .values({
            device_id: u.id,
            unit_id: u.unit_id,
            type: 'online',
            time: seenAt,
            lat: null,
            lng: null,
            payload: '{}',
            created: seenAt,
          })
          .execute();
      }
    }
  });
}

export async function insertCommand(
  db: Db,
  deviceId: number,
  type: DeviceCommandType,
  userId: number | null,
): Promise<number> {
  const row = await db
    .insertInto('device_commands')
    .values({
      device_id: deviceId,
      type,
      status: 'pending',
      user_id: userId,
      result_msg: '',
      created: now(),
      delivered: null,
      acked: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The pending commands of a device never handed out or handed out before `redeliverBefore`
 * (oldest first, at most 100), marked handed out now.
 */
export async function takeDueCommands(db: Db, deviceId: number, redeliverBefore: string): Promise<DeviceCommand[]> {
  const rows = await db
    .selectFrom('device_commands')
    .select(['id', 'type', 'created'])
    .where('device_id', '=', deviceId)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('delivered', 'is', null), eb('delivered', '<', redeliverBefore)]))
    .orderBy('id')
    .limit(100)
    .execute();
  if (rows.length)
    await db
      .updateTable('device_commands')
      .set({ delivered: now() })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  return rows.map((r) => ({ id: r.id, type: r.type as DeviceCommand['type'], created: r.created }));
}

export async function findCommand(db: Db, id: number) {
  return db.selectFrom('device_commands').select(['id', 'device_id', 'status']).where('id', '=', id).executeTakeFirst();
}

export async function ackCommand(db: Db, id: number, result: 'ok' | 'failed', message: string): Promise<void> {
  await db
    .updateTable('device_commands')
    .set({ status: result, result_msg: message, acked: now() })
    .where('id', '=', id)
    .execute();
}
