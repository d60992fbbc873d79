import { describe, expect, it } from 'vitest';
import {
  convertCrs,
  gcj02ToWgs84,
  haversineMeters,
  isValidLngLat,
  outOfChina,
  pointInCircle,
  pointInPolygon,
  pointInRect,
  ringArea,
  ringSelfIntersects,
  shapeBounds,
  shapeContains,
  wgs84ToGcj02,
  type LngLat,
} from './index';

const P = (lng: number, lat: number): LngLat => ({ lng, lat });
const square = [P(0, 0), P(10, 0), P(10, 10), P(0, 10)];

describe('haversine', () => {
  it('one degree of latitude is about 111.2 km', () => {
    expect(haversineMeters(P(0, 0), P(0, 1))).toBeCloseTo(111_195, -1);
  });
  it('Beijing to Shanghai is about 1067 km', () => {
    const d = haversineMeters(P(116.4074, 39.9042), P(121.4737, 31.2304));
    expect(d / 1000).toBeGreaterThan(1060);
    expect(d / 1000).toBeLessThan(1075);
  });
  it('zero for the same point, symmetric', () => {
    expect(haversineMeters(P(114, 22.5), P(114, 22.5))).toBe(0);
    expect(haversineMeters(P(1, 2), P(3, 4))).toBeCloseTo(haversineMeters(P(3, 4), P(1, 2)), 6);
  });
  it('refuses latitude 91 and NaN', () => {
    expect(() => haversineMeters(P(0, 91), P(0, 0))).toThrow(RangeError);
    expect(() => haversineMeters(P(Number.NaN, 0), P(0, 0))).toThrow(RangeError);
  });
});

describe('isValidLngLat', () => {
  it('accepts the poles and the antimeridian, refuses beyond', () => {
    expect(isValidLngLat(P(0, 90))).toBe(true);
    expect(isValidLngLat(P(180, -90))).toBe(true);
    expect(isValidLngLat(P(0, 91))).toBe(false);
    expect(isValidLngLat(P(0, -90.0001))).toBe(false);
    expect(isValidLngLat(P(181, 0))).toBe(false);
    expect(isValidLngLat(P(Infinity, 0))).toBe(false);
    expect(isValidLngLat(null)).toBe(false);
  });
});

describe('polygon', () => {
  it('inside, outside, on the edge, on a vertex', () => {
    expect(pointInPolygon(P(5, 5), square)).toBe(true);
    expect(pointInPolygon(P(15, 5), square)).toBe(false);
    expect(pointInPolygon(P(-0.001, 5), square)).toBe(false);
    expect(pointInPolygon(P(10, 5), square)).toBe(true);
    expect(pointInPolygon(P(0, 0), square)).toBe(true);
  });
  it('concave polygon: the notch is outside', () => {
    const u = [P(0, 0), P(10, 0), P(10, 10), P(7, 10), P(7, 3), P(3, 3), P(3, 10), P(0, 10)];
    expect(pointInPolygon(P(5, 6), u)).toBe(false);
    expect(pointInPolygon(P(5, 1), u)).toBe(true);
    expect(pointInPolygon(P(1, 8), u)).toBe(true);
  });
  it('a hole is outside, its edge and the ring around it are inside', () => {
    const hole = [P(3, 3), P(7, 3), P(7, 7), P(3, 7)];
    expect(pointInPolygon(P(5, 5), square, [hole])).toBe(false);
    expect(pointInPolygon(P(1, 1), square, [hole])).toBe(true);
    expect(pointInPolygon(P(3, 5), square, [hole])).toBe(true);
    expect(pointInPolygon(P(8, 8), square, [hole])).toBe(true);
  });
  it('closing point repeated is the same ring', () => {
    expect(pointInPolygon(P(5, 5), [...square, P(0, 0)])).toBe(true);
  });
  it('fewer than 3 points contain nothing', () => {
    expect(pointInPolygon(P(0, 0), [P(0, 0), P(1, 1)])).toBe(false);
  });
  it('refuses a point at latitude 91', () => {
    expect(() => pointInPolygon(P(5, 91), square)).toThrow(RangeError);
  });
  it('self-intersection: bow tie yes, square and concave no, repeated vertex yes', () => {
    expect(ringSelfIntersects([P(0, 0), P(10, 10), P(10, 0), P(0, 10)])).toBe(true);
    expect(ringSelfIntersects(square)).toBe(false);
    expect(ringSelfIntersects([...square, P(0, 0)])).toBe(false);
    expect(ringSelfIntersects([P(0, 0), P(10, 0), P(10, 10), P(7, 10), P(7, 3), P(3, 3), P(3, 10), P(0, 10)])).toBe(
      false,
    );
    expect(ringSelfIntersects([P(0, 0), P(10, 0), P(5, 5), P(10, 10), P(0, 10), P(5, 5)])).toBe(true);
  });
  it('area: square 100, collinear 0', () => {
    expect(ringArea(square)).toBe(100);
    expect(ringArea([P(0, 0), P(1, 1), P(2, 2)])).toBe(0);
  });
});

describe('circle and rectangle', () => {
  const c = P(114.0579, 22.5431);
  it('circle: 100 m away is inside a 150 m circle, outside a 50 m one', () => {
    const p = P(114.0579, 22.5431 + 100 / 111_195);
    expect(pointInCircle(p, c, 150)).toBe(true);
    expect(pointInCircle(p, c, 50)).toBe(false);
  });
  it('circle: radius 0 or negative is refused', () => {
    expect(() => pointInCircle(c, c, 0)).toThrow(RangeError);
    expect(() => pointInCircle(c, c, -5)).toThrow(RangeError);
  });
  it('circle near the pole works, a bad point is refused', () => {
    expect(pointInCircle(P(10, 89.999), P(-170, 89.999), 1000)).toBe(true);
    expect(() => pointInCircle(P(0, 91), P(0, 89), 1000)).toThrow(RangeError);
  });
  it('rectangle', () => {
    expect(pointInRect(P(1, 1), P(0, 0), P(2, 2))).toBe(true);
    expect(pointInRect(P(2, 2), P(0, 0), P(2, 2))).toBe(true);
    expect(pointInRect(P(3, 1), P(0, 0), P(2, 2))).toBe(false);
  });
  it('shapeContains dispatches and shapeBounds covers the circle', () => {
    expect(shapeContains({ type: 'circle', center: c, radius: 200 }, c)).toBe(true);
    expect(shapeContains({ type: 'rectangle', sw: P(0, 0), ne: P(1, 1) }, P(2, 2))).toBe(false);
    expect(shapeContains({ type: 'polygon', points: square, holes: [] }, P(5, 5))).toBe(true);
    const [w, s, e, n] = shapeBounds({ type: 'circle', center: c, radius: 1000 });
    expect(haversineMeters(c, P(c.lng, n))).toBeCloseTo(1000, 0);
    expect(w).toBeLessThan(c.lng);
    expect(e).toBeGreaterThan(c.lng);
    expect(s).toBeLessThan(c.lat);
  });
});

describe('GCJ-02', () => {
  it('matches the published value for Beijing (116.404, 39.915)', () => {
    const g = wgs84ToGcj02(P(116.404, 39.915));
    expect(g.lng).toBeCloseTo(116.41024449916938, 9);
    expect(g.lat).toBeCloseTo(39.91640428150164, 9);
  });
  it('the inverse of the published value comes back (gcj02 -> wgs84)', () => {
    const w = gcj02ToWgs84(P(116.41024449916938, 39.91640428150164));
    expect(w.lng).toBeCloseTo(116.404, 7);
    expect(w.lat).toBeCloseTo(39.915, 7);
  });
  it('the offset in Shenzhen is a few hundred metres and round-trips', () => {
    const w = P(114.0579, 22.5431);
    const g = wgs84ToGcj02(w);
    const d = haversineMeters(w, g);
    expect(d).toBeGreaterThan(200);
    expect(d).toBeLessThan(800);
    const back = gcj02ToWgs84(g);
    expect(haversineMeters(w, back)).toBeLessThan(0.01);
  });
  it('outside China nothing changes', () => {
    expect(outOfChina(P(2.35, 48.85))).toBe(true);
    expect(wgs84ToGcj02(P(2.35, 48.85))).toEqual(P(2.35, 48.85));
    expect(gcj02ToWgs84(P(-74, 40.7))).toEqual(P(-74, 40.7));
  });
  it('convertCrs by name', () => {
    expect(convertCrs(P(116.404, 39.915), 'WGS84', 'WGS84')).toEqual(P(116.404, 39.915));
    expect(convertCrs(P(116.404, 39.915), 'WGS84', 'GCJ02').lng).toBeCloseTo(116.41024449916938, 9);
  });
});
