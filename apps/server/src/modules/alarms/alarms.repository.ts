import { ALARM_TYPE, DICT_TYPES, type AlarmLevel } from '@bwc/protocol';
import { sql, type Insertable } from 'kysely';
import { sqliteStatement, type Db } from '../../db/connection';
import type { UnitScope } from '../../http/scope';
import type { AlarmRow, AlarmTable } from './alarms.tables';
import './alarms.tables';
import '../fences/geo.tables';

/** An alarm row with its unit name and the caller's read flag. */
export type AlarmView = AlarmRow & { unitname: string; has_read: number };

export type NewAlarm = Omit<Insertable<AlarmTable>, 'id'>;

export async function findAlarmByEid(db: Db, eid: string): Promise<AlarmRow | undefined> {
  return db.selectFrom('alarms').selectAll().where('eid', '=', eid).executeTakeFirst();
}

export async function insertAlarm(db: Db, row: NewAlarm): Promise<AlarmRow> {
  return db.insertInto('alarms').values(row).returningAll().executeTakeFirstOrThrow();
}

/** every column of a new alarm (a Record, so that a column added to the table must be added here) */
const ALARM_COLUMN_SET: Record<keyof NewAlarm, true> = {
  eid: true,
  type: true,
  alerm_level: true,
  device_id: true,
  unit_id: true,
  hostname: true,
  hostcode: true,
  hostbody: true,
  alarm_time: true,
  insert_time: true,
  lat: true,
  lng: true,
  message: true,
  fence_name: true,
  fence_direction: true,
  picture: true,
  sure: true,
  sure_user_id: true,
  sure_user: true,
  sure_note: true,
  sure_time: true,
  sure_type: true,
};
const ALARM_COLUMNS = Object.keys(ALARM_COLUMN_SET) as (keyof NewAlarm)[];

const INSERT_ALARM_IF_NEW = `insert into alarms (${ALARM_COLUMNS.join(', ')}) values (${ALARM_COLUMNS.map(() => '?').join(', ')})
  on conflict (eid) do nothing returning *`;

/**
 * Insert alarms; a row whose eid exists is skipped. Answers the inserted rows. `db` may be a
 * transaction of `app` (the app's Kysely instance): on SQLite each row goes through one cached
 * prepared statement on that connection, on PostgreSQL one multi-row statement.
 */
export async function insertAlarmsIfNew(db: Db, rows: NewAlarm[], app: Db = db): Promise<AlarmRow[]> {
  if (!rows.length) return [];
  const one = sqliteStatement(app, INSERT_ALARM_IF_NEW);
  if (one) {
    const out: AlarmRow[] = [];
    for (const r of rows) {
      const stored = one.get(...ALARM_COLUMNS.map((c) => r[c] ?? null)) as AlarmRow | undefined;
      if (stored) out.push(stored);
    }
    return out;
  }
  return db
    .insertInto('alarms')
    .values(rows)
    .onConflict((oc) => oc.column('eid').doNothing())
    .returningAll()
    .execute();
}

export async function unitName(db: Db, unitId: number): Promise<string> {
  return (await db.selectFrom('units').select('name').where('id', '=', unitId).executeTakeFirst())?.name ?? '';
}

/** Everything up to this id counts as read for the user (mark-all-read); 0 when never. */
export async function readMark(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('alarm_read_marks')
    .select('read_upto')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? Number(row.read_upto) : 0;
}

/** alarms a, units u, and the caller's single read marks r (left joined). */
function base(db: Db, userId: number, scope: UnitScope) {
  let q = db
    .selectFrom('alarms as a')
    .leftJoin('units as u', 'u.id', 'a.unit_id')
    .leftJoin('alarm_reads as r', (j) => j.onRef('r.alarm_id', '=', 'a.id').on('r.user_id', '=', userId));
  if (!scope.all) q = q.where('a.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  return q;
}

function withView<T extends ReturnType<typeof base>>(q: T, mark: number) {
  return q.selectAll('a').select((eb) => [
    eb.fn.coalesce('u.name', eb.val('')).as('unitname'),
    eb
      .case()
      .when(eb.or([eb('r.alarm_id', 'is not', null), eb('a.id', '<=', mark)]))
      .then(1)
      .else(0)
      .end()
      .as('has_read'),
  ]);
}

function unreadOnly<T extends ReturnType<typeof base>>(q: T, mark: number): T {
  return q.where('a.sure', '=', 0).where('r.alarm_id', 'is', null).where('a.id', '>', mark) as T;
}

function toView(row: Record<string, unknown>): AlarmView {
  return { ...(row as unknown as AlarmView), has_read: Number(row.has_read), id: Number(row.id) };
}

/** Unread, unacknowledged alarms of the caller by severity. */
export async function countUnread(db: Db, userId: number, scope: UnitScope): Promise<Record<AlarmLevel, number>> {
  const mark = await readMark(db, userId);
  const rows = await unreadOnly(base(db, userId, scope), mark)
    .select(['a.alerm_level', (eb) => eb.fn.countAll().as('n')])
    .groupBy('a.alerm_level')
    .execute();
  const counts = { criticle: 0, middle: 0, normal: 0 };
  for (const r of rows) if (r.alerm_level in counts) counts[r.alerm_level as AlarmLevel] = Number(r.n);
  return counts;
}

export async function listUnread(
  db: Db,
  userId: number,
  scope: UnitScope,
  level: AlarmLevel,
  limit: number,
): Promise<AlarmView[]> {
  const mark = await readMark(db, userId);
  const rows = await withView(unreadOnly(base(db, userId, scope), mark), mark)
    .where('a.alerm_level', '=', level)
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => toView(r as Record<string, unknown>));
}

export async function hasUnread(db: Db, userId: number, scope: UnitScope): Promise<boolean> {
  const mark = await readMark(db, userId);
  const row = await unreadOnly(base(db, userId, scope), mark)
    .select('a.id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Alarms by id within the scope (unit name, read flag). */
export async function findAlarms(db: Db, userId: number, scope: UnitScope, ids: number[]): Promise<AlarmView[]> {
  if (!ids.length) return [];
  const mark = await readMark(db, userId);
  const rows = await withView(base(db, userId, scope), mark)
    .where('a.id', 'in', ids)
    .execute();
  return rows.map((r) => toView(r as Record<string, unknown>));
}

/** One alarm regardless of scope (the caller checks the scope). */
export async function findAlarm(db: Db, id: number): Promise<AlarmRow | undefined> {
  return db.selectFrom('alarms').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Mark alarms read for the user (already read ones are left alone); answers how many became read. */
export async function markRead(db: Db, userId: number, ids: number[], time: string): Promise<number> {
  if (!ids.length) return 0;
  return db.transaction().execute(async (trx) => {
    const mark = await readMark(trx, userId);
    const already = await trx
      .selectFrom('alarm_reads')
      .select('alarm_id')
      .where('user_id', '=', userId)
      .where('alarm_id', 'in', ids)
      .execute();
    const skip = new Set(already.map((r) => Number(r.alarm_id)));
    const fresh = [...new Set(ids)].filter((id) => !skip.has(id) && id > mark);
    if (fresh.length) {
      await trx
        .insertInto('alarm_reads')
        .values(fresh.map((alarm_id) => ({ alarm_id, user_id: userId, read_time: time })))
        .execute();
    }
    return fresh.length;
  });
}

/** Mark every alarm up to the newest one read for the user; answers how many unread ones it covered. */
export async function markAllRead(db: Db, userId: number, scope: UnitScope, time: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const counts = await countUnread(trx, userId, scope);
    const top = await trx
      .selectFrom('alarms')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirst();
    const upto = Number(top?.m ?? 0);
    const current = await readMark(trx, userId);
    if (upto > current) {
      const exists = await trx
        .selectFrom('alarm_read_marks')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (exists) {
        await trx
          .updateTable('alarm_read_marks')
          .set({ read_upto: upto, updated: time })
          .where('user_id', '=', userId)
          .execute();
      } else {
        await trx.insertInto('alarm_read_marks').values({ user_id: userId, read_upto: upto, updated: time }).execute();
      }
      // single marks below the new mark are covered by it
      await trx.deleteFrom('alarm_reads').where('user_id', '=', userId).where('alarm_id', '<=', upto).execute();
    }
    return counts.criticle + counts.middle + counts.normal;
  });
}

export interface AlarmFilter {
  start?: string;
  end?: string;
  type?: string;
  level?: AlarmLevel;
  unitIds?: number[];
  device?: string;
  read?: 0 | 1;
  sure?: 0 | 1;
}

function filtered(db: Db, userId: number, scope: UnitScope, f: AlarmFilter, mark: number) {
  let q = base(db, userId, scope);
  if (f.start) q = q.where('a.alarm_time', '>=', f.start);
  if (f.end) q = q.where('a.alarm_time', '<=', f.end);
  if (f.type !== undefined) q = q.where('a.type', '=', f.type);
  if (f.level) q = q.where('a.alerm_level', '=', f.level);
  if (f.unitIds) q = q.where('a.unit_id', 'in', f.unitIds.length ? f.unitIds : [-1]);
  if (f.device) {
    const like = `%${f.device.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where(
      sql<boolean>`(a.hostbody like ${like} escape '\\' or a.hostname like ${like} escape '\\' or a.hostcode like ${like} escape '\\')`,
    );
  }
  if (f.sure !== undefined) q = q.where('a.sure', '=', f.sure);
  if (f.read === 1) q = q.where((eb) => eb.or([eb('r.alarm_id', 'is not', null), eb('a.id', '<=', mark)]));
  if (f.read === 0) q = q.where('r.alarm_id', 'is', null).where('a.id', '>', mark);
  return q;
}

export async function searchAlarms(
  db: Db,
  userId: number,
  scope: UnitScope,
  f: AlarmFilter,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: AlarmView[] }> {
  const mark = await readMark(db, userId);
  const total = await filtered(db, userId, scope, f, mark)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const rows = await withView(filtered(db, userId, scope, f, mark), mark)
    .orderBy('a.alarm_time', 'desc')
    .orderBy('a.id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return { total: Number(total?.n ?? 0), rows: rows.map((r) => toView(r as Record<string, unknown>)) };
}

/** Who acknowledges, when, with what note and how (AckType). */
export interface AlarmAck {
  user_id: number | null;
  name: string;
  note: string;
  time: string;
  ack_type: number;
}

/** An alarm an acknowledgement closed. */
export interface AckedAlarm {
  id: number;
  type: string;
  device_id: number | null;
  unit_id: number;
}

const ackSet = (by: AlarmAck) => ({
  sure: 1,
  sure_user_id: by.user_id,
  sure_user: by.name,
  sure_note: by.note,
  sure_time: by.time,
  sure_type: by.ack_type,
});

/** Acknowledge: only unacknowledged alarms change (the first handler stays); answers those it closed. */
export async function sureAlarms(db: Db, scope: UnitScope, ids: number[] | 'all', by: AlarmAck): Promise<AckedAlarm[]> {
  let q = db.updateTable('alarms').set(ackSet(by)).where('sure', '=', 0);
  if (ids !== 'all') q = q.where('id', 'in', ids.length ? ids : [-1]);
  if (!scope.all) q = q.where('unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  const rows = await q.returning(['id', 'type', 'device_id', 'unit_id']).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    type: r.type,
    device_id: r.device_id === null ? null : Number(r.device_id),
    unit_id: Number(r.unit_id),
  }));
}

/**
 * Acknowledge a device's open alarms of the given types (an emergency handled over the console
 * service); the first handler stays. Answers the ids acknowledged.
 */
export async function sureDeviceAlarms(db: Db, deviceId: number, types: string[], by: AlarmAck): Promise<number[]> {
  const rows = await db
    .updateTable('alarms')
    .set(ackSet(by))
    .where('sure', '=', 0)
    .where('device_id', '=', deviceId)
    .where('type', 'in', types)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Newest alarms with pictures (face / plate) in scope. */
export async function listPictures(db: Db, scope: UnitScope, types: string[], limit: number): Promise<AlarmRow[]> {
  let q = db.selectFrom('alarms').selectAll().where('type', 'in', types).where('picture', '!=', '');
  if (!scope.all) q = q.where('unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Devices with an SOS alarm that is not acknowledged and was raised at or after `since` (the SOS
 * state of the dispatch map). Few rows: the (type, alarm_time) index finds them.
 */
export async function activeSosDevices(db: Db, since: string): Promise<number[]> {
  const rows = await db
    .selectFrom('alarms')
    .select('device_id')
    .distinct()
    .where('type', '=', ALARM_TYPE.SOS)
    .where('alarm_time', '>=', since)
    .where('sure', '=', 0)
    .where('device_id', 'is not', null)
    .execute();
  return rows.map((r) => Number(r.device_id));
}

/** Last known positions of devices by hostbody within scope. */
export async function devicePositions(
  db: Db,
  scope: UnitScope,
  hostbodies: string[],
): Promise<{ hostbody: string; lat: number | null; lng: number | null }[]> {
  let q = db.selectFrom('devices').select(['hostbody', 'lat', 'lng']).where('hostbody', 'in', hostbodies);
  if (!scope.all) q = q.where('unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  return q.execute();
}

/**
 * The last MobilePosition of GB devices (gb_devices, issue 16) by 20-digit GB id, in the scope: a
 * GB alarm's gbbm names its device so. A device without a fix answers null.
 */
export async function gbDevicePositions(
  db: Db,
  scope: UnitScope,
  gbids: string[],
): Promise<{ gbid: string; lat: number | null; lng: number | null }[]> {
  let q = db.selectFrom('gb_devices').select(['gbid', 'lat', 'lng']).where('gbid', 'in', gbids);
  if (!scope.all) q = q.where('unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  return q.execute();
}

/** SOS device events (and fence crossings) that have no alarm yet: the recovery after a crash. */
export async function orphanSources(db: Db, limit: number) {
  const sos = await db
    .selectFrom('device_events as e')
    .leftJoin('alarms as a', (j) => j.on('a.eid', '=', sql<string>`${'sos:'} || cast(e.id as varchar(20))`))
    .select(['e.id', 'e.device_id', 'e.time', 'e.lat', 'e.lng', 'e.payload'])
    .where('e.type', '=', 'sos')
    .where('a.id', 'is', null)
    .orderBy('e.id')
    .limit(limit)
    .execute();
  const fences = await db
    .selectFrom('fence_events as e')
    .leftJoin('alarms as a', (j) => j.on('a.eid', '=', sql<string>`${'fence:'} || cast(e.id as varchar(20))`))
    .select(['e.id', 'e.device_id', 'e.fence_name', 'e.direction', 'e.time', 'e.lat', 'e.lng'])
    .where('a.id', 'is', null)
    .orderBy('e.id')
    .limit(limit)
    .execute();
  return { sos, fences };
}

/** Enabled alarm types of the dictionary (alermcate), in their order. */
export const alarmTypeEntries = (db: Db) =>
  db
    .selectFrom('dict_entries')
    .select(['key', 'label', 'label_en'])
    .where('type', '=', DICT_TYPES.ALARM_TYPE)
    .where('enabled', '=', 1)
    .orderBy('sort')
    .orderBy('key')
    .execute();

/** The alarm levels of the dictionary with their labels. */
export const levelLabels = (db: Db) =>
  db
    .selectFrom('dict_entries')
    .select(['key', 'label', 'label_en'])
    .where('type', '=', DICT_TYPES.ALARM_LEVEL)
    .execute();

export const deviceByHostbody = (db: Db, hostbody: string) =>
  db
    .selectFrom('devices')
    .select(['id', 'unit_id', 'hostname', 'hostcode', 'hostbody'])
    .where('hostbody', '=', hostbody)
    .executeTakeFirst();

/** The alarm type names of the data dictionary. */
export async function alarmTypeNames(db: Db) {
  return db
    .selectFrom('dict_entries')
    .select(['key', 'label', 'label_en'])
    .where('type', '=', DICT_TYPES.ALARM_TYPE)
    .execute();
}

/** What an alarm copies of its device. */
export async function alarmDeviceFields(db: Db, deviceId: number) {
  return db
    .selectFrom('devices')
    .select(['id', 'unit_id', 'hostname', 'hostcode', 'hostbody'])
    .where('id', '=', deviceId)
    .executeTakeFirst();
}

/** A device's code and last position (offline alarms). */
export async function deviceCodeAndPlace(db: Db, deviceId: number) {
  return db.selectFrom('devices').select(['hostcode', 'lat', 'lng']).where('id', '=', deviceId).executeTakeFirst();
}
