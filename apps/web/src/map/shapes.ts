import { EARTH_RADIUS_M, haversineMeters, type FenceShape, type LngLat } from '@bwc/protocol';
import { fromDisplay, toDisplay, type MapCrs } from './coords';
import type { DrawShape } from './DrawControl';

const CIRCLE_STEPS = 64;
const round = (v: number) => Math.round(v * 1e7) / 1e7;

/**
 * A shape drawn with terra-draw (its outer ring, in the base map's coordinates) as the protocol's
 * WGS-84 fence/zone shape: polygon points without the closing point, a rectangle's south-west and
 * north-east corners, a circle's centre and radius in metres.
 */
export function ringToShape(ring: readonly (readonly number[])[], kind: DrawShape, crs: MapCrs): FenceShape {
  const open =
    ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1]
      ? ring.slice(0, -1)
      : ring;
  const points: LngLat[] = open.map(([x, y]) => {
    const [lng, lat] = fromDisplay(x as number, y as number, crs);
    return { lng: round(lng), lat: round(lat) };
  });
  if (kind === 'rectangle') {
    const lngs = points.map((p) => p.lng);
    const lats = points.map((p) => p.lat);
    return {
      type: 'rectangle',
      sw: { lng: Math.min(...lngs), lat: Math.min(...lats) },
      ne: { lng: Math.max(...lngs), lat: Math.max(...lats) },
    };
  }
  if (kind === 'circle') {
    const center = {
      lng: round(points.reduce((s, p) => s + p.lng, 0) / points.length),
      lat: round(points.reduce((s, p) => s + p.lat, 0) / points.length),
    };
    const radius = points.reduce((s, p) => s + haversineMeters(center, p), 0) / points.length;
    return { type: 'circle', center, radius: Math.round(radius * 10) / 10 };
  }
  return { type: 'polygon', points, holes: [] };
}

/** Point at `distance` metres from `from` along `bearing` degrees (great circle). */
function destination(from: LngLat, distance: number, bearing: number): LngLat {
  const d = distance / EARTH_RADIUS_M;
  const b = (bearing * Math.PI) / 180;
  const lat1 = (from.lat * Math.PI) / 180;
  const lng1 = (from.lng * Math.PI) / 180;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lng2 =
    lng1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lng: (lng2 * 180) / Math.PI, lat: (lat2 * 180) / Math.PI };
}

/** Outer ring (closed) and holes of a shape, in the base map's coordinates, for drawing. */
export function shapeToRings(shape: FenceShape, crs: MapCrs): number[][][] {
  const show = (p: LngLat) => toDisplay(p.lng, p.lat, crs);
  const close = (ring: [number, number][]) => [...ring, ring[0]!];
  if (shape.type === 'rectangle') {
    const { sw, ne } = shape;
    return [close([show(sw), show({ lng: ne.lng, lat: sw.lat }), show(ne), show({ lng: sw.lng, lat: ne.lat })])];
  }
  if (shape.type === 'circle') {
    const ring: [number, number][] = [];
    for (let i = 0; i < CIRCLE_STEPS; i++)
      ring.push(show(destination(shape.center, shape.radius, (360 * i) / CIRCLE_STEPS)));
    return [close(ring)];
  }
  return [close(shape.points.map(show)), ...(shape.holes ?? []).map((hole) => close(hole.map(show)))];
}
