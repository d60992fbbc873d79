import type { Generated, Selectable } from 'kysely';

/**
 * Tables of the fences (migration 0005_geo; the talk groups and map tables it also creates are in
 * groups/groups.tables.ts and maps/maps.tables.ts), merged into the `Database` interface of
 * db/types.ts by declaration merging so that the shared file stays untouched.
 */
export interface GeoFenceTable {
  id: Generated<number>;
  /** fence | zone */
  kind: string;
  name: string;
  unit_id: number;
  /** JSON FenceShape (WGS-84) */
  shape: string;
  /** enter | exit | both (zones: both, unused) */
  rule: string;
  time_start: string;
  time_end: string;
  /** JSON number[] */
  device_ids: string;
  /** JSON number[] */
  unit_ids: string;
  enabled: number;
  remark: string;
  created: string;
  updated: string;
}

export interface FenceStateTable {
  fence_id: number;
  device_id: number;
  inside: number;
  /** fix time of the position that set the state */
  time: string;
}

export interface FenceEventTable {
  id: Generated<number>;
  fence_id: number;
  fence_name: string;
  device_id: number;
  unit_id: number;
  direction: string;
  lat: number;
  lng: number;
  time: string;
  created: string;
}

declare module '../../db/types' {
  interface Database {
    geo_fences: GeoFenceTable;
    fence_states: FenceStateTable;
    fence_events: FenceEventTable;
  }
}

export type GeoFenceRow = Selectable<GeoFenceTable>;
