import type { TrackPoint } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import '../fences/geo.tables';

/** SQL of the history track: devices, stored positions, device events and fence crossings of a range. */

export interface TrackDevice {
  id: number;
  unit_id: number;
  hostbody: string;
  hostname: string;
  hostcode: string;
}

export const trackDevices = (db: Db, ids: readonly number[]): Promise<TrackDevice[]> =>
  db
    .selectFrom('devices')
    .select(['id', 'unit_id', 'hostbody', 'hostname', 'hostcode'])
    .where('id', 'in', [...ids])
    .execute();

/** A device's positions of [start, end] (ISO), oldest first, at most `limit`. */
export const positionsOf = (
  db: Db,
  deviceId: number,
  start: string,
  end: string,
  limit: number,
): Promise<TrackPoint[]> =>
  db
    .selectFrom('positions')
    .select(['time', 'lat', 'lng', 'speed', 'course'])
    .where('device_id', '=', deviceId)
    .where('time', '>=', start)
    .where('time', '<=', end)
    .orderBy('time')
    .orderBy('id')
    .limit(limit)
    .execute();

export async function countPositions(db: Db, deviceId: number, start: string, end: string): Promise<number> {
  const row = await db
    .selectFrom('positions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('device_id', '=', deviceId)
    .where('time', '>=', start)
    .where('time', '<=', end)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export const deviceEventsOf = (db: Db, ids: readonly number[], start: string, end: string, limit: number) =>
  db
    .selectFrom('device_events')
    .select(['device_id', 'type', 'time', 'lat', 'lng', 'payload'])
    .where('device_id', 'in', [...ids])
    .where('time', '>=', start)
    .where('time', '<=', end)
    .orderBy('time')
    .limit(limit)
    .execute();

export const fenceCrossingsOf = (db: Db, ids: readonly number[], start: string, end: string, limit: number) =>
  db
    .selectFrom('fence_events')
    .select(['device_id', 'direction', 'time', 'lat', 'lng', 'fence_name'])
    .where('device_id', 'in', [...ids])
    .where('time', '>=', start)
    .where('time', '<=', end)
    .orderBy('time')
    .limit(limit)
    .execute();
