import {
  haversineMeters,
  TRACK_GAP_MIN_S,
  TRACK_STOP_MIN_S,
  TRACK_STOP_RADIUS_M,
  type TrackGap,
  type TrackPoint,
  type TrackStop,
} from '@bwc/protocol';

const ms = (iso: string) => Date.parse(iso);

/** Gaps: consecutive fixes more than `gapS` seconds apart. */
export function findGaps(points: readonly TrackPoint[], gapS = TRACK_GAP_MIN_S): TrackGap[] {
  const gaps: TrackGap[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const d = (ms(b.time) - ms(a.time)) / 1000;
    if (d > gapS)
      gaps.push({
        start: a.time,
        end: b.time,
        duration_s: Math.round(d),
        from: { lat: a.lat, lng: a.lng },
        to: { lat: b.lat, lng: b.lng },
        index: i,
      });
  }
  return gaps;
}

/**
 * Stops: runs of fixes that stay within `radiusM` metres of the run's first fix for at least
 * `minS` seconds. A run does not span a gap (no data is not staying). Greedy, left to right.
 */
export function findStops(
  points: readonly TrackPoint[],
  radiusM = TRACK_STOP_RADIUS_M,
  minS = TRACK_STOP_MIN_S,
  gapS = TRACK_GAP_MIN_S,
): TrackStop[] {
  const stops: TrackStop[] = [];
  let i = 0;
  while (i < points.length - 1) {
    const anchor = points[i]!;
    let j = i;
    while (
      j + 1 < points.length &&
      (ms(points[j + 1]!.time) - ms(points[j]!.time)) / 1000 <= gapS &&
      haversineMeters(anchor, points[j + 1]!) <= radiusM
    )
      j++;
    const duration = (ms(points[j]!.time) - ms(anchor.time)) / 1000;
    if (j > i && duration >= minS) {
      let lat = 0;
      let lng = 0;
      for (let k = i; k <= j; k++) {
        lat += points[k]!.lat;
        lng += points[k]!.lng;
      }
      const n = j - i + 1;
      stops.push({
        start: anchor.time,
        end: points[j]!.time,
        duration_s: Math.round(duration),
        lat: lat / n,
        lng: lng / n,
        from_index: i,
        to_index: j,
      });
      i = j + 1;
    } else i++;
  }
  return stops;
}

/** Metres along the points. */
export function trackDistance(points: readonly TrackPoint[]): number {
  let d = 0;
  for (let i = 1; i < points.length; i++) d += haversineMeters(points[i - 1]!, points[i]!);
  return d;
}
