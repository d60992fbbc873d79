/** A coordinate as alarm rows and position answers carry it: number, numeric string or nothing. */
export type Coordinate = number | string | null | undefined;

/**
 * The marker position [lng, lat] (WGS-84) of an alarm, or null when it has none: lng or lat
 * missing, not a number, out of range, or 0/0 (a device without a fix reports zeros).
 */
export function markerPosition(lng: Coordinate, lat: Coordinate): [number, number] | null {
  if (lng === null || lng === undefined || lat === null || lat === undefined) return null;
  if (typeof lng === 'string' && lng.trim() === '') return null;
  if (typeof lat === 'string' && lat.trim() === '') return null;
  const x = Number(lng);
  const y = Number(lat);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
  if (Math.abs(x) > 180 || Math.abs(y) > 90) return null;
  if (x === 0 && y === 0) return null;
  return [x, y];
}
