import type { DevicePoint } from '@bwc/protocol';
import { toDisplay, type MapCrs } from './coords';

/** Marker state of a device (icon): remote-killed wins over SOS, SOS over online/offline. */
export type DeviceMarkerState = 'online' | 'offline' | 'killed' | 'sos';

export function markerState(point: Pick<DevicePoint, 'lineon' | 'remote_kill'>, sos = false): DeviceMarkerState {
  if (point.remote_kill === 1) return 'killed';
  if (sos) return 'sos';
  return point.lineon === 1 ? 'online' : 'offline';
}

/** Name with the code in brackets, as the host list and markers show it (spec part 2 section 3). */
export function nameWithCode(point: Pick<DevicePoint, 'hostname' | 'hostcode'>): string {
  return point.hostcode ? `${point.hostname}(${point.hostcode})` : point.hostname;
}

function newer(a: DevicePoint, b: DevicePoint): DevicePoint {
  // the later fix wins; without times the later arrival wins
  if (a.gps_time && b.gps_time && Date.parse(a.gps_time) > Date.parse(b.gps_time)) return a;
  return b;
}

/**
 * Merge a burst of answers (several polls or pushes that arrived between two frames) into one
 * point per device, so React and the map see each device once per frame.
 */
export function mergeBurst(batches: readonly (readonly DevicePoint[])[]): Map<number, DevicePoint> {
  const merged = new Map<number, DevicePoint>();
  for (const batch of batches)
    for (const point of batch) {
      const seen = merged.get(point.id);
      merged.set(point.id, seen ? newer(seen, point) : point);
    }
  return merged;
}

/** Whether a device changed in a way the map shows (position, state, flags, label). */
export function pointChanged(a: DevicePoint, b: DevicePoint): boolean {
  return (
    a.lat !== b.lat ||
    a.lng !== b.lng ||
    a.lineon !== b.lineon ||
    a.remote_kill !== b.remote_kill ||
    a.hostname !== b.hostname ||
    a.hostcode !== b.hostcode ||
    a.typecate.length !== b.typecate.length ||
    a.typecate.some((flag, i) => flag !== b.typecate[i])
  );
}

export interface PointDiff {
  /** new devices and devices that changed */
  upsert: DevicePoint[];
  /** ids gone from a full refresh */
  remove: number[];
}

/**
 * Difference between what the map shows and an answer. `full`: the answer is every device of the
 * scope (devices missing from it are removed); otherwise it is a partial refresh (tracked ids)
 * and nothing is removed.
 */
export function diffPoints(
  current: ReadonlyMap<number, DevicePoint>,
  next: ReadonlyMap<number, DevicePoint>,
  full: boolean,
): PointDiff {
  const upsert: DevicePoint[] = [];
  for (const point of next.values()) {
    const before = current.get(point.id);
    if (!before || pointChanged(before, point)) upsert.push(point);
  }
  const remove: number[] = [];
  if (full) for (const id of current.keys()) if (!next.has(id)) remove.push(id);
  return { upsert, remove };
}

export function hasPosition(point: Pick<DevicePoint, 'lat' | 'lng'>): point is { lat: number; lng: number } {
  return point.lat !== null && point.lng !== null && Number.isFinite(point.lat) && Number.isFinite(point.lng);
}

export interface DeviceFeature {
  type: 'Feature';
  id: number;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: { id: number; state: DeviceMarkerState; label: string };
}

/** GeoJSON feature of a located device, in the base map's coordinate system; null without a fix. */
export function pointFeature(point: DevicePoint, crs: MapCrs, sos = false): DeviceFeature | null {
  if (!hasPosition(point)) return null;
  return {
    type: 'Feature',
    id: point.id,
    geometry: { type: 'Point', coordinates: toDisplay(point.lng as number, point.lat as number, crs) },
    properties: { id: point.id, state: markerState(point, sos), label: nameWithCode(point) },
  };
}
