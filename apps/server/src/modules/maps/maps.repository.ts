import type { Insertable } from 'kysely';
import { now, type Db } from '../../db/connection';
import type { MapFileRow, MapFileTable } from './maps.tables';
import './maps.tables';

/** SQL of the maps module: the offline map file (one at a time) and the reverse geocoding cache. */

export const currentMapFile = (db: Db): Promise<MapFileRow | undefined> =>
  db.selectFrom('map_files').selectAll().orderBy('id', 'desc').executeTakeFirst();

export const allMapFiles = (db: Db): Promise<MapFileRow[]> => db.selectFrom('map_files').selectAll().execute();

/** Replace the stored map file by `values` in one transaction; answers the new row. */
export const replaceMapFile = (db: Db, values: Insertable<MapFileTable>): Promise<MapFileRow> =>
  db.transaction().execute(async (trx) => {
    await trx.deleteFrom('map_files').execute();
    return trx.insertInto('map_files').values(values).returningAll().executeTakeFirstOrThrow();
  });

export async function deleteMapFiles(db: Db): Promise<void> {
  await db.deleteFrom('map_files').execute();
}

export async function cachedAddress(db: Db, key: string): Promise<string | undefined> {
  return (await db.selectFrom('geocode_cache').select('address').where('key', '=', key).executeTakeFirst())?.address;
}

/** Keep an address; a concurrent insert of the same key wins. */
export async function cacheAddress(db: Db, key: string, lat: number, lng: number, address: string): Promise<void> {
  await db
    .insertInto('geocode_cache')
    .values({ key, lat, lng, address, created: now() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

export async function readSettingsValue(db: Db, type: string): Promise<string | undefined> {
  return (await db.selectFrom('settings').select('value').where('type', '=', type).executeTakeFirst())?.value;
}
