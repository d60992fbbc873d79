import type { GeoJSONStoreFeatures } from 'terra-draw';
import { describe, expect, it, vi } from 'vitest';
import { edgesDoNotCross } from './drawValidation';

function polygon(ring: number[][]): GeoJSONStoreFeatures {
  return {
    id: 'f1',
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [ring] },
    properties: { mode: 'polygon' },
  } as GeoJSONStoreFeatures;
}

// a square near Shenzhen, and the same four corners in the order of a bow tie
const square = [
  [114.05, 22.54],
  [114.06, 22.54],
  [114.06, 22.55],
  [114.05, 22.55],
  [114.05, 22.54],
];
const bowTie = [
  [114.05, 22.54],
  [114.06, 22.55],
  [114.06, 22.54],
  [114.05, 22.55],
  [114.05, 22.54],
];

describe('edgesDoNotCross', () => {
  it('refuses a point or a closing that makes two edges cross, and says so', () => {
    for (const updateType of ['commit', 'finish']) {
      const refused = vi.fn();
      expect(edgesDoNotCross(polygon(bowTie), updateType, refused).valid).toBe(false);
      expect(refused).toHaveBeenCalledTimes(1);
    }
  });

  it('accepts a polygon whose edges do not cross', () => {
    const refused = vi.fn();
    expect(edgesDoNotCross(polygon(square), 'commit', refused)).toEqual({ valid: true });
    expect(edgesDoNotCross(polygon(square), 'finish', refused)).toEqual({ valid: true });
    expect(refused).not.toHaveBeenCalled();
  });

  it('always draws the line following the pointer', () => {
    const refused = vi.fn();
    expect(edgesDoNotCross(polygon(bowTie), 'provisional', refused)).toEqual({ valid: true });
    expect(refused).not.toHaveBeenCalled();
  });

  it('accepts the degenerate rings of the first points (repeated corners)', () => {
    const refused = vi.fn();
    const p = [114.05, 22.54];
    const q = [114.06, 22.54];
    expect(edgesDoNotCross(polygon([p, p, p, p]), 'commit', refused).valid).toBe(true);
    expect(edgesDoNotCross(polygon([p, q, q, p]), 'commit', refused).valid).toBe(true);
    expect(refused).not.toHaveBeenCalled();
  });
});
