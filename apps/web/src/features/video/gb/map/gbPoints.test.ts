import type { GbPoint, GbSitePush } from '@bwc/protocol';
import { describe, expect, it, vi } from 'vitest';
import { gbFeature, GbPointStore, sortedPoints } from './gbPoints';

const point = (devgbid: string, over: Partial<GbPoint> = {}): GbPoint => ({
  devgbid,
  name: `cam ${devgbid.slice(-2)}`,
  unit_id: 3,
  lineon: 1,
  lng: 114.05,
  lat: 22.54,
  position_time: '2026-11-27 10:00:00',
  channels: [{ devgbid: `${devgbid.slice(0, 18)}99`, name: 'CH1', lineon: 1 }],
  ...over,
});
const UNITS = [{ id: 3, pid: 0, name: 'Branch' }];
const site = (p: GbPoint, over: Partial<GbSitePush> = {}): GbSitePush => {
  const { channels: _c, ...rest } = p;
  return { ...rest, ...over };
};

describe('GbPointStore', () => {
  it('replaces its devices with an answer and moves them with later pushed fixes, keeping the channels', () => {
    const store = new GbPointStore();
    const heard = vi.fn();
    store.subscribe(heard);
    const a = point('34020000001320000001');
    store.replace({ units: UNITS, points: [a] });
    expect(store.snapshot()).toBe(1);
    expect(store.push([site(a, { lng: 114.06, position_time: '2026-11-27 10:00:05' })])).toBe(false);
    expect(store.get(a.devgbid)).toMatchObject({ lng: 114.06, channels: a.channels });
    // an older fix (sent out of order) does not move it back
    store.push([site(a, { lng: 114.0, position_time: '2026-11-27 10:00:01' })]);
    expect(store.get(a.devgbid)!.lng).toBe(114.06);
    expect(heard).toHaveBeenCalledTimes(3);
  });

  it('takes a device going offline with its channels, and answers true for a device it did not hold', () => {
    const store = new GbPointStore();
    const a = point('34020000001320000001');
    store.replace({ units: UNITS, points: [a] });
    store.push([site(a, { lineon: 0 })]);
    expect(store.get(a.devgbid)).toMatchObject({ lineon: 0, channels: [{ lineon: 0 }] });
    const b = point('34020000001320000002');
    expect(store.push([site(b)])).toBe(true);
    expect(store.get(b.devgbid)).toMatchObject({ lng: 114.05, channels: [] });
    // moved by an administrator to a unit the tree has not: read again; to one it has: not
    expect(store.push([site(a, { unit_id: 9 })])).toBe(true);
    store.replace({ units: [...UNITS, { id: 4, pid: 3, name: 'Station' }], points: [a] });
    expect(store.units()).toHaveLength(2);
    expect(store.push([site(a, { unit_id: 4 })])).toBe(false);
    expect(store.get(a.devgbid)!.unit_id).toBe(4);
    // nothing pushed: no change
    const before = store.snapshot();
    expect(store.push([])).toBe(false);
    expect(store.snapshot()).toBe(before);
  });

  it('draws a device at its display position with its state and name; lists online first', () => {
    const store = new GbPointStore();
    const on = point('34020000001320000001', { name: 'B gate' });
    const off = point('34020000001320000002', { name: 'A yard', lineon: 0 });
    const f = gbFeature(store, off, 'WGS84');
    expect(f).toEqual({
      type: 'Feature',
      id: 1,
      geometry: { type: 'Point', coordinates: [114.05, 22.54] },
      properties: { devgbid: off.devgbid, state: 'offline', label: 'A yard' },
    });
    // same device, same feature id; another, another
    expect(gbFeature(store, off, 'WGS84').id).toBe(1);
    expect(gbFeature(store, on, 'WGS84').id).toBe(2);
    // a GCJ-02 base map shifts the WGS-84 fix (some hundred metres in Shenzhen)
    const [x, y] = gbFeature(store, on, 'GCJ02').geometry.coordinates;
    expect(x - 114.05).toBeGreaterThan(0.003);
    expect(x - 114.05).toBeLessThan(0.01);
    expect(y - 22.54).toBeLessThan(0);
    expect(sortedPoints([off, on]).map((p) => p.name)).toEqual(['B gate', 'A yard']);
  });
});
