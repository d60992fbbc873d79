import type { TrackPoint } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { findGaps, findStops, trackDistance } from './track-analysis';

const T0 = Date.parse('2026-01-01T00:00:00Z');
/** a point `s` seconds after T0, `northM` metres north of (114, 22.5) */
const pt = (s: number, northM: number): TrackPoint => ({
  time: new Date(T0 + s * 1000).toISOString(),
  lat: 22.5 + northM / 111_195,
  lng: 114,
  speed: null,
  course: null,
});

describe('track analysis', () => {
  it('a stop of 3 minutes within 20 m between two drives', () => {
    const pts = [
      pt(0, 0),
      pt(10, 100),
      pt(20, 200),
      pt(80, 205),
      pt(140, 210),
      pt(200, 215),
      pt(210, 400),
      pt(220, 600),
    ];
    const stops = findStops(pts);
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({
      from_index: 2,
      to_index: 5,
      duration_s: 180,
      start: pts[2]!.time,
      end: pts[5]!.time,
    });
    expect(stops[0]!.lat).toBeCloseTo(22.5 + 207.5 / 111_195, 7);
  });
  it('staying less than 2 minutes is no stop; moving steadily is none', () => {
    expect(findStops([pt(0, 0), pt(60, 5), pt(100, 8), pt(110, 300)])).toEqual([]);
    expect(findStops(Array.from({ length: 50 }, (_, i) => pt(i * 10, i * 60)))).toEqual([]);
  });
  it('gaps over 5 minutes, and a stop does not span a gap', () => {
    const pts = [pt(0, 0), pt(60, 1), pt(1000, 2), pt(1060, 3)];
    const gaps = findGaps(pts);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ index: 2, duration_s: 940, start: pts[1]!.time, end: pts[2]!.time });
    expect(findStops(pts)).toEqual([]);
    expect(findGaps([pt(0, 0), pt(300, 0)])).toEqual([]);
  });
  it('distance adds the legs; empty and single tracks are fine', () => {
    expect(trackDistance([pt(0, 0), pt(10, 100), pt(20, 300)])).toBeCloseTo(300, 0);
    expect(trackDistance([])).toBe(0);
    expect(findStops([pt(0, 0)])).toEqual([]);
    expect(findGaps([])).toEqual([]);
  });
});
