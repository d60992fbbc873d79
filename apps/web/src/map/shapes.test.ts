import { FenceShape, haversineMeters, shapeContains } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { toDisplay } from './coords';
import { ringToShape, shapeToRings } from './shapes';

const square = [
  [114.05, 22.5],
  [114.06, 22.5],
  [114.06, 22.51],
  [114.05, 22.51],
  [114.05, 22.5],
];

describe('drawn shapes to fence shapes', () => {
  it('a polygon drops the closing point and passes the shared schema', () => {
    const shape = ringToShape(square, 'polygon', 'WGS84');
    expect(shape.type === 'polygon' && shape.points).toHaveLength(4);
    expect(FenceShape.safeParse(shape).success).toBe(true);
  });
  it('a rectangle becomes its south-west and north-east corners', () => {
    expect(ringToShape(square, 'rectangle', 'WGS84')).toEqual({
      type: 'rectangle',
      sw: { lng: 114.05, lat: 22.5 },
      ne: { lng: 114.06, lat: 22.51 },
    });
  });
  it('a circle drawn on a GCJ-02 map keeps its radius and gets a WGS-84 centre', () => {
    const center = { lng: 114.055, lat: 22.505 };
    const drawn = shapeToRings({ type: 'circle', center, radius: 500 }, 'GCJ02')[0]!;
    const shape = ringToShape(drawn, 'circle', 'GCJ02');
    expect(shape.type).toBe('circle');
    if (shape.type !== 'circle') return;
    expect(haversineMeters(shape.center, center)).toBeLessThan(2);
    expect(shape.radius).toBeGreaterThan(495);
    expect(shape.radius).toBeLessThan(505);
    expect(FenceShape.safeParse(shape).success).toBe(true);
  });
  it('shapes drawn back on the map are shifted for GCJ-02 display only', () => {
    const shape = ringToShape(square, 'polygon', 'WGS84');
    expect(shapeToRings(shape, 'WGS84')[0]![0]).toEqual([114.05, 22.5]);
    expect(shapeToRings(shape, 'GCJ02')[0]![0]).toEqual(toDisplay(114.05, 22.5, 'GCJ02'));
    expect(shapeContains(shape, { lng: 114.055, lat: 22.505 })).toBe(true);
  });
});
