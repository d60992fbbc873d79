import { PLAYBACK_LOOKBACK_H, type PlaybackDevice } from '@bwc/protocol';
import type { Db } from '../../../db/connection';
import type { UnitScope } from '../../../http/scope';
import '../../alarms/alarms.tables';
import '../library/library.repository';

/** SQL of history replay: devices in scope, their recordings and alarms over a range. */

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const inUnits = (scope: Extract<UnitScope, { all: false }>) => (scope.ids.length ? scope.ids : [-1]);

function devicesQuery(db: Db) {
  return db
    .selectFrom('devices as d')
    .leftJoin('units as un', 'un.id', 'd.unit_id')
    .select(['d.id', 'd.hostname', 'd.hostbody', 'd.hostcode', 'd.unit_id', 'd.lineon', 'un.name as unit_name']);
}

const toDevice = (r: Awaited<ReturnType<ReturnType<typeof devicesQuery>['execute']>>[number]): PlaybackDevice => ({
  id: r.id,
  hostname: r.hostname,
  hostbody: r.hostbody,
  hostcode: r.hostcode,
  unit_id: r.unit_id,
  unit_name: r.unit_name ?? '',
  lineon: r.lineon,
});

/** Devices of the caller's units whose name, code or body number contains the keyword, by name. */
export async function findDevices(db: Db, scope: UnitScope, keyword: string, limit: number): Promise<PlaybackDevice[]> {
  let q = devicesQuery(db);
  if (!scope.all) q = q.where('d.unit_id', 'in', inUnits(scope));
  if (keyword) {
    const like = `%${likeEscape(keyword)}%`;
    q = q.where((eb) =>
      eb.or([eb('d.hostname', 'like', like), eb('d.hostbody', 'like', like), eb('d.hostcode', 'like', like)]),
    );
  }
  const rows = await q.orderBy('d.hostname').orderBy('d.id').limit(limit).execute();
  return rows.map(toDevice);
}

/** The devices of `ids` inside the scope, in the order asked (others are simply absent). */
export async function devicesIn(db: Db, scope: UnitScope, ids: readonly number[]): Promise<PlaybackDevice[]> {
  let q = devicesQuery(db).where('d.id', 'in', [...ids]);
  if (!scope.all) q = q.where('d.unit_id', 'in', inUnits(scope));
  const rows = (await q.execute()).map(toDevice);
  return ids.flatMap((id) => rows.filter((r) => r.id === id));
}

/**
 * Recordings of the devices that may overlap [start, end]: begun at most PLAYBACK_LOOKBACK_H
 * before `start` and not after `end` (the caller keeps those still running at `start`); items of
 * the caller's units, not deleted or purged, oldest first, at most `limit`.
 */
export function recordingsOf(db: Db, scope: UnitScope, deviceIds: number[], start: string, end: string, limit: number) {
  const from = new Date(Date.parse(start) - PLAYBACK_LOOKBACK_H * 3_600_000).toISOString();
  let q = db
    .selectFrom('evidence_items as e')
    .select([
      'e.id',
      'e.device_id',
      'e.media_type',
      'e.title',
      'e.recorded_at',
      'e.duration',
      'e.flg',
      'e.playable',
      'e.thumb_sha256',
    ])
    .where('e.device_id', 'in', deviceIds)
    .where('e.recorded_at', '>=', from)
    .where('e.recorded_at', '<=', end)
    .where('e.deleted_at', 'is', null)
    .where('e.purged_at', 'is', null);
  if (!scope.all) q = q.where('e.unit_id', 'in', inUnits(scope));
  return q.orderBy('e.recorded_at').orderBy('e.id').limit(limit).execute();
}

/** Alarms of the devices in [start, end], oldest first, at most `limit`. */
export function alarmsOf(db: Db, deviceIds: number[], start: string, end: string, limit: number) {
  return db
    .selectFrom('alarms')
    .select(['id', 'device_id', 'type', 'alarm_time', 'message'])
    .where('device_id', 'in', deviceIds)
    .where('alarm_time', '>=', start)
    .where('alarm_time', '<=', end)
    .orderBy('alarm_time')
    .orderBy('id')
    .limit(limit)
    .execute();
}
