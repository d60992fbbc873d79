/**
 * Pure geometry shared by server and console: WGS-84 coordinates as {lng, lat} in
 * degrees, haversine distance, point in polygon (with holes), circle and rectangle, polygon
 * self-intersection, and the WGS-84 <-> GCJ-02 transform of Chinese base maps. Planar tests on
 * lng/lat are fine at fence scale; the antimeridian is out of scope (no fence crosses it).
 */
export * from './geometry';
export * from './gcj02';
