import { pointInPolygon, type DevicePoint, type LngLat } from '@bwc/protocol';
import { fromDisplay, type MapCrs } from './coords';
import { hasPosition } from './points';

/**
 * Devices inside a shape drawn on the map. Terra-draw gives polygons (a circle or rectangle is a
 * polygon too) in the base map's coordinates; the ring goes back to WGS-84 and is compared with
 * the stored positions.
 */
export function devicesInRing(
  ring: readonly (readonly number[])[],
  crs: MapCrs,
  points: Iterable<DevicePoint>,
): DevicePoint[] {
  const wgs: LngLat[] = ring.map(([lng, lat]) => {
    const [x, y] = fromDisplay(lng as number, lat as number, crs);
    return { lng: x, lat: y };
  });
  if (wgs.length < 3) return [];
  const inside: DevicePoint[] = [];
  for (const point of points) {
    if (!hasPosition(point)) continue;
    if (pointInPolygon({ lng: point.lng as number, lat: point.lat as number }, wgs)) inside.push(point);
  }
  return inside;
}
