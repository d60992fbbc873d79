import { describe, expect, it } from 'vitest';
import { advance, positionAt, timed } from './replay';

const points = timed([
  { time: '2026-01-01T00:00:10.000Z', lng: 114.1, lat: 22.6, speed: null, course: null },
  { time: '2026-01-01T00:00:00.000Z', lng: 114.0, lat: 22.5, speed: null, course: null },
  { time: '2026-01-01T00:20:00.000Z', lng: 115.0, lat: 23.0, speed: null, course: null },
]);
const t0 = Date.parse('2026-01-01T00:00:00.000Z');

describe('replay', () => {
  it('orders points by time', () => {
    expect(points.map((p) => p.lng)).toEqual([114.0, 114.1, 115.0]);
  });
  it('interpolates between fixes, nothing before the first, the last after the end', () => {
    expect(positionAt(points, t0 - 1)).toBeNull();
    const mid = positionAt(points, t0 + 5_000)!;
    expect(mid.lng).toBeCloseTo(114.05, 6);
    expect(mid.lat).toBeCloseTo(22.55, 6);
    expect(positionAt(points, t0 + 3_600_000)?.lng).toBe(115.0);
  });
  it('holds the last fix inside a gap', () => {
    const inGap = positionAt(points, t0 + 600_000, 300_000)!;
    expect(inGap.lng).toBe(114.1);
    expect(positionAt(points, t0 + 600_000)!.lng).toBeGreaterThan(114.1);
  });
  it('advances by speed and stops at the end', () => {
    expect(advance(0, 100, 16, 10_000)).toEqual({ time: 1_600, ended: false });
    expect(advance(9_000, 100, 16, 10_000)).toEqual({ time: 10_000, ended: true });
  });
});
