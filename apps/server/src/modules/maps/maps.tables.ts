import type { Generated, Selectable } from 'kysely';

/**
 * Tables of the maps (created by migration 0005_geo): the uploaded offline map file and the reverse
 * geocoding cache, merged into the `Database` interface of db/types.ts.
 */
export interface MapFileTable {
  id: Generated<number>;
  name: string;
  format: string;
  /** stored file name under DATA_DIR/maps */
  file: string;
  size: number;
  tile_type: string;
  minzoom: number;
  maxzoom: number;
  /** JSON [w, s, e, n] or null */
  bounds: string | null;
  /** JSON [lng, lat, zoom] or null */
  center: string | null;
  /** JSON string[] */
  vector_layers: string;
  uploaded: string;
}

export interface GeocodeCacheTable {
  /** `lat,lng` rounded to GEOCODE_ROUND_DECIMALS */
  key: string;
  lat: number;
  lng: number;
  address: string;
  created: string;
}

declare module '../../db/types' {
  interface Database {
    map_files: MapFileTable;
    geocode_cache: GeocodeCacheTable;
  }
}

export type MapFileRow = Selectable<MapFileTable>;
