import { describe, expect, it } from 'vitest';
import { fromDisplay, normaliseCrs, toDisplay } from './coords';
import { point } from './test-points';
import { devicesInRing } from './selection';

// a square around 114.05..114.06, 22.50..22.51 (closed ring, as terra-draw gives it)
const square = [
  [114.05, 22.5],
  [114.06, 22.5],
  [114.06, 22.51],
  [114.05, 22.51],
  [114.05, 22.5],
];

describe('selection geometry', () => {
  const inside = point(1, { lng: 114.055, lat: 22.505 });
  const outside = point(2, { lng: 114.07, lat: 22.505 });
  const noFix = point(3, { lng: null, lat: null });

  it('lists the devices inside the drawn ring (WGS-84 base map)', () => {
    expect(devicesInRing(square, 'WGS84', [inside, outside, noFix]).map((p) => p.id)).toEqual([1]);
  });

  it('a ring drawn on a GCJ-02 map is converted back before comparing', () => {
    // the device sits just inside the west edge in WGS-84; GCJ-02 shifts Shenzhen east by about
    // 500 m, so reading the GCJ-02 ring as if it were WGS-84 would miss it
    const nearEdge = point(4, { lng: 114.0505, lat: 22.505 });
    const gcjSquare = square.map(([lng, lat]) => toDisplay(lng!, lat!, 'GCJ02'));
    expect(devicesInRing(gcjSquare, 'GCJ02', [nearEdge]).map((p) => p.id)).toEqual([4]);
    expect(devicesInRing(gcjSquare, 'WGS84', [nearEdge])).toEqual([]);
  });

  it('fewer than three points select nothing', () => {
    expect(devicesInRing(square.slice(0, 2), 'WGS84', [inside])).toEqual([]);
  });
});

describe('GCJ-02 conversion for display', () => {
  it('WGS-84 maps show stored positions unchanged', () => {
    expect(toDisplay(114.05, 22.5, 'WGS84')).toEqual([114.05, 22.5]);
  });
  it('GCJ-02 maps shift positions in China by a few hundred metres and back', () => {
    const [lng, lat] = toDisplay(114.05, 22.5, 'GCJ02');
    expect(Math.abs(lng - 114.05)).toBeGreaterThan(0.003);
    expect(Math.abs(lat - 22.5)).toBeGreaterThan(0.001);
    const [x, y] = fromDisplay(lng, lat, 'GCJ02');
    expect(x).toBeCloseTo(114.05, 5);
    expect(y).toBeCloseTo(22.5, 5);
  });
  it('reads the crs names the server and map config use', () => {
    expect(normaliseCrs('GCJ02')).toBe('GCJ02');
    expect(normaliseCrs('gcj-02')).toBe('GCJ02');
    expect(normaliseCrs('WGS84')).toBe('WGS84');
    expect(normaliseCrs(undefined)).toBe('WGS84');
  });
});
