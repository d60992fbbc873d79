/** Geometry of the replay timeline: times of a range mapped to percentages of a row. */

export interface Span {
  /** left edge, percent of the row */
  left: number;
  /** width, percent of the row (at least `minWidth`) */
  width: number;
}

/** Where [start, end] lies on a row showing [from, to], clipped to the row; null when outside it. */
export function placeSpan(start: string, end: string, from: string, to: string, minWidth = 0.3): Span | null {
  const a = Date.parse(from);
  const b = Date.parse(to);
  const s = Math.max(Date.parse(start), a);
  const e = Math.min(Date.parse(end), b);
  if (!(b > a) || e < s) return null;
  const left = ((s - a) / (b - a)) * 100;
  const width = Math.max(((e - s) / (b - a)) * 100, minWidth);
  return { left, width: Math.min(width, 100 - left) };
}

/** Percent of the row where `time` is; null outside [from, to]. */
export function placeMoment(time: string, from: string, to: string): number | null {
  const a = Date.parse(from);
  const b = Date.parse(to);
  const t = Date.parse(time);
  if (!(b > a) || t < a || t > b) return null;
  return ((t - a) / (b - a)) * 100;
}

/**
 * Seconds into a recording for a click at `fraction` (0..1) of its bar: the bar shows the part of
 * the recording inside the range, so the offset counts from the recording's own start.
 */
export function offsetOf(
  recording: { recorded_at: string; end: string },
  fraction: number,
  from: string,
  to: string,
): number {
  const start = Date.parse(recording.recorded_at);
  const shownStart = Math.max(start, Date.parse(from));
  const shownEnd = Math.min(Date.parse(recording.end), Date.parse(to));
  const at = shownStart + Math.min(Math.max(fraction, 0), 1) * Math.max(shownEnd - shownStart, 0);
  return Math.max(0, (at - start) / 1000);
}

/** Hour ticks of the range (at most `max`, spaced evenly on whole hours). */
export function ticksOf(from: string, to: string, max = 12): { at: number; time: number }[] {
  const a = Date.parse(from);
  const b = Date.parse(to);
  if (!(b > a)) return [];
  const hour = 3_600_000;
  const step = Math.max(1, Math.ceil((b - a) / hour / max)) * hour;
  const out: { at: number; time: number }[] = [];
  const first = new Date(a);
  first.setMinutes(0, 0, 0);
  for (let t = first.getTime() < a ? first.getTime() + hour : first.getTime(); t <= b; t += step)
    out.push({ at: ((t - a) / (b - a)) * 100, time: t });
  return out;
}
