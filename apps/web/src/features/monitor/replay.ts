import type { TrackPoint } from '@bwc/protocol';

/** Replay speeds (1x to 16x). */
export const REPLAY_SPEEDS = [1, 2, 4, 8, 16] as const;

export interface TimedPoint {
  t: number;
  lng: number;
  lat: number;
}

/** Track points with their times in epoch ms, oldest first (unparsable times left out). */
export function timed(points: readonly TrackPoint[]): TimedPoint[] {
  return points
    .map((p) => ({ t: Date.parse(p.time), lng: p.lng, lat: p.lat }))
    .filter((p) => Number.isFinite(p.t))
    .sort((a, b) => a.t - b.t);
}

/**
 * Where a device is at time `t` of the replay: null before its first fix, its last fix after the
 * end, interpolated between two fixes; inside a gap (longer than gapMs) it stays at the last fix.
 */
export function positionAt(
  points: readonly TimedPoint[],
  t: number,
  gapMs = Number.POSITIVE_INFINITY,
): TimedPoint | null {
  if (points.length === 0 || t < points[0]!.t) return null;
  const last = points[points.length - 1]!;
  if (t >= last.t) return last;
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  const a = points[lo]!;
  const b = points[hi]!;
  if (b.t - a.t > gapMs) return a;
  const f = b.t === a.t ? 0 : (t - a.t) / (b.t - a.t);
  return { t, lng: a.lng + (b.lng - a.lng) * f, lat: a.lat + (b.lat - a.lat) * f };
}

/** The replay clock one frame later: elapsed real ms times the speed, stopping at the end. */
export function advance(now: number, elapsedMs: number, speed: number, end: number): { time: number; ended: boolean } {
  const time = now + elapsedMs * speed;
  return time >= end ? { time: end, ended: true } : { time, ended: false };
}
