/** A WGS-84 point in degrees (GeoJSON order when written as a tuple: [lng, lat]). */
export interface LngLat {
  lng: number;
  lat: number;
}

/** Mean Earth radius (metres) of the haversine formula. */
export const EARTH_RADIUS_M = 6_371_008.8;

/** True for finite degrees inside [-180, 180] x [-90, 90]; latitude 91 or NaN is not a point. */
export function isValidLngLat(p: LngLat | null | undefined): p is LngLat {
  return (
    !!p &&
    typeof p.lng === 'number' &&
    typeof p.lat === 'number' &&
    Number.isFinite(p.lng) &&
    Number.isFinite(p.lat) &&
    p.lng >= -180 &&
    p.lng <= 180 &&
    p.lat >= -90 &&
    p.lat <= 90
  );
}

function assertPoint(p: LngLat, what: string): void {
  if (!isValidLngLat(p)) throw new RangeError(`${what}: not a WGS-84 point (${JSON.stringify(p)})`);
}

const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in metres (haversine). Throws RangeError on an invalid point. */
export function haversineMeters(a: LngLat, b: LngLat): number {
  assertPoint(a, 'haversineMeters a');
  assertPoint(b, 'haversineMeters b');
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Ray casting; a point exactly on an edge counts as inside. The ring may or may not repeat its first point. */
export function pointInRing(p: LngLat, ring: readonly LngLat[]): boolean {
  const n = ring.length;
  if (n < 3) return false;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (onSegment(p, a, b)) return true;
    if (a.lat > p.lat !== b.lat > p.lat) {
      const x = ((b.lng - a.lng) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lng;
      if (p.lng < x) inside = !inside;
    }
  }
  return inside;
}

function cross(o: LngLat, a: LngLat, b: LngLat): number {
  return (a.lng - o.lng) * (b.lat - o.lat) - (a.lat - o.lat) * (b.lng - o.lng);
}

function onSegment(p: LngLat, a: LngLat, b: LngLat): boolean {
  if (Math.abs(cross(a, b, p)) > 1e-12) return false;
  return (
    p.lng >= Math.min(a.lng, b.lng) - 1e-12 &&
    p.lng <= Math.max(a.lng, b.lng) + 1e-12 &&
    p.lat >= Math.min(a.lat, b.lat) - 1e-12 &&
    p.lat <= Math.max(a.lat, b.lat) + 1e-12
  );
}

/** Inside the outer ring and not strictly inside any hole (a hole's edge belongs to the polygon). */
export function pointInPolygon(
  p: LngLat,
  outer: readonly LngLat[],
  holes: readonly (readonly LngLat[])[] = [],
): boolean {
  assertPoint(p, 'pointInPolygon');
  if (!pointInRing(p, outer)) return false;
  for (const hole of holes) {
    if (pointInRing(p, hole) && !hole.some((_, i) => onSegment(p, hole[i]!, hole[(i + 1) % hole.length]!)))
      return false;
  }
  return true;
}

/** Within `radiusM` metres (great circle) of the centre. */
export function pointInCircle(p: LngLat, center: LngLat, radiusM: number): boolean {
  if (!(radiusM > 0) || !Number.isFinite(radiusM))
    throw new RangeError(`pointInCircle: radius must be > 0 (${radiusM})`);
  return haversineMeters(p, center) <= radiusM;
}

/** Inside the lng/lat box sw..ne (edges included). */
export function pointInRect(p: LngLat, sw: LngLat, ne: LngLat): boolean {
  assertPoint(p, 'pointInRect');
  return p.lng >= sw.lng && p.lng <= ne.lng && p.lat >= sw.lat && p.lat <= ne.lat;
}

/** Drop a closing point equal to the first one. */
export function openRing(ring: readonly LngLat[]): LngLat[] {
  const out = [...ring];
  if (out.length > 1 && out[0]!.lng === out[out.length - 1]!.lng && out[0]!.lat === out[out.length - 1]!.lat) out.pop();
  return out;
}

function segmentsCross(a: LngLat, b: LngLat, c: LngLat, d: LngLat): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && onSegment(a, c, d)) ||
    (d2 === 0 && onSegment(b, c, d)) ||
    (d3 === 0 && onSegment(c, a, b)) ||
    (d4 === 0 && onSegment(d, a, b))
  );
}

/**
 * True when two non-adjacent edges of the ring touch or cross (a bow tie), or the ring repeats
 * a vertex. O(n^2): rings are limited to FENCE_POINTS_MAX points.
 */
export function ringSelfIntersects(ring: readonly LngLat[]): boolean {
  const pts = openRing(ring);
  const n = pts.length;
  if (n < 3) return false;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (pts[i]!.lng === pts[j]!.lng && pts[i]!.lat === pts[j]!.lat) return true;
    }
  }
  for (let i = 0; i < n; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % n]!;
    for (let j = i + 1; j < n; j++) {
      if (j === i || (j + 1) % n === i || j === (i + 1) % n) continue; // adjacent edges share a vertex
      if (segmentsCross(a, b, pts[j]!, pts[(j + 1) % n]!)) return true;
    }
  }
  return false;
}

/** Shoelace area in square degrees (0 for a degenerate ring: all points on one line). */
export function ringArea(ring: readonly LngLat[]): number {
  const pts = openRing(ring);
  let s = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % pts.length]!;
    s += a.lng * b.lat - b.lng * a.lat;
  }
  return Math.abs(s) / 2;
}

/** A fence or zone shape (WGS-84). */
export type GeoShape =
  | { type: 'polygon'; points: LngLat[]; holes?: LngLat[][] }
  | { type: 'circle'; center: LngLat; radius: number }
  | { type: 'rectangle'; sw: LngLat; ne: LngLat };

/** Whether the shape contains the point. Throws RangeError for an invalid point. */
export function shapeContains(shape: GeoShape, p: LngLat): boolean {
  switch (shape.type) {
    case 'polygon':
      return pointInPolygon(p, shape.points, shape.holes ?? []);
    case 'circle':
      return pointInCircle(p, shape.center, shape.radius);
    case 'rectangle':
      return pointInRect(p, shape.sw, shape.ne);
  }
}

/** Bounding box [west, south, east, north] of a shape. */
export function shapeBounds(shape: GeoShape): [number, number, number, number] {
  if (shape.type === 'rectangle') return [shape.sw.lng, shape.sw.lat, shape.ne.lng, shape.ne.lat];
  if (shape.type === 'circle') {
    const dLat = (shape.radius / EARTH_RADIUS_M) * (180 / Math.PI);
    const dLng = dLat / Math.max(Math.cos(rad(shape.center.lat)), 1e-6);
    return [shape.center.lng - dLng, shape.center.lat - dLat, shape.center.lng + dLng, shape.center.lat + dLat];
  }
  const lngs = shape.points.map((p) => p.lng);
  const lats = shape.points.map((p) => p.lat);
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
}
