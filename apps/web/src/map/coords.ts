import gcoord from 'gcoord';

/** Coordinate system of a base map (style metadata `bwc:crs`). */
export type MapCrs = 'WGS84' | 'GCJ02';

export function normaliseCrs(value: unknown): MapCrs {
  return typeof value === 'string' && value.toUpperCase().replace(/[^A-Z0-9]/g, '') === 'GCJ02' ? 'GCJ02' : 'WGS84';
}

/**
 * Stored positions are WGS-84; a GCJ-02 base map needs them shifted for display only
 * (the base map's `bwc:crs`, else the map config's `map_crs`). Returns [lng, lat] for the map.
 */
export function toDisplay(lng: number, lat: number, crs: MapCrs): [number, number] {
  if (crs === 'WGS84') return [lng, lat];
  const [x, y] = gcoord.transform([lng, lat], gcoord.WGS84, gcoord.GCJ02) as [number, number];
  return [x, y];
}

/** A point drawn on the map back to WGS-84 (shapes are stored and compared in WGS-84). */
export function fromDisplay(lng: number, lat: number, crs: MapCrs): [number, number] {
  if (crs === 'WGS84') return [lng, lat];
  const [x, y] = gcoord.transform([lng, lat], gcoord.GCJ02, gcoord.WGS84) as [number, number];
  return [x, y];
}
