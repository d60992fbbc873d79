import type { Db } from '../../db/connection';

/** SQL of the GPS family: latest fixes, history, and which devices are terminals. */

/** The latest fix of each terminal among `ids` that has one. */
export async function latestFixes(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('devices')
    .select(['id', 'jq_hostcode', 'lat', 'lng', 'speed', 'course', 'accuracy', 'battery', 'gps_time'])
    .where('id', 'in', [...ids])
    .where('lat', 'is not', null)
    .where('lng', 'is not', null)
    .where('gps_time', 'is not', null)
    .orderBy('id')
    .execute();
}

/** Fixes of one device between two ISO times, oldest first, at most `limit`. */
export async function historyFixes(db: Db, deviceId: number, from: string, to: string, limit: number) {
  return db
    .selectFrom('positions')
    .select(['time', 'lat', 'lng', 'speed', 'course', 'accuracy', 'battery'])
    .where('device_id', '=', deviceId)
    .where('time', '>=', from)
    .where('time', '<=', to)
    .orderBy('time')
    .limit(limit)
    .execute();
}

/** Cluster numbers of devices (devices without one are no terminals: ''). */
export async function clusterNumbers(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'jq_hostcode'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.jq_hostcode]));
}
