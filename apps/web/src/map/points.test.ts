import { describe, expect, it } from 'vitest';
import { diffPoints, markerState, mergeBurst, nameWithCode, pointFeature } from './points';
import { DevicePointStore } from './pointStore';
import { point } from './test-points';

describe('marker state and label', () => {
  it('killed wins over SOS, SOS over online/offline', () => {
    expect(markerState({ lineon: 0, remote_kill: 1 }, true)).toBe('killed');
    expect(markerState({ lineon: 1, remote_kill: 0 }, true)).toBe('sos');
    expect(markerState({ lineon: 1, remote_kill: 0 })).toBe('online');
    expect(markerState({ lineon: 0, remote_kill: 0 })).toBe('offline');
  });
  it('shows the code in brackets only when there is one', () => {
    expect(nameWithCode({ hostname: '李伟', hostcode: '100001' })).toBe('李伟(100001)');
    expect(nameWithCode({ hostname: '李伟', hostcode: '' })).toBe('李伟');
  });
  it('a device without a fix has no feature', () => {
    expect(pointFeature(point(1, { lat: null, lng: null }), 'WGS84')).toBeNull();
    expect(pointFeature(point(1), 'WGS84')?.geometry.coordinates).toEqual([114.051, 22.501]);
  });
});

describe('burst merging', () => {
  it('keeps one point per device, the later fix winning whatever the arrival order', () => {
    const early = point(1, { lat: 22.6, gps_time: '2026-01-01T00:00:05.000Z' });
    const late = point(1, { lat: 22.7, gps_time: '2026-01-01T00:00:09.000Z' });
    const merged = mergeBurst([[late, point(2)], [early]]);
    expect(merged.size).toBe(2);
    expect(merged.get(1)?.lat).toBe(22.7);
  });
  it('without times the later arrival wins', () => {
    const merged = mergeBurst([[point(1, { gps_time: null, lat: 1 })], [point(1, { gps_time: null, lat: 2 })]]);
    expect(merged.get(1)?.lat).toBe(2);
  });
});

describe('diffing', () => {
  const current = new Map([1, 2, 3].map((id) => [id, point(id)]));
  it('sends only new and changed devices', () => {
    const next = new Map([
      [1, point(1)],
      [2, point(2, { lat: 30 })],
      [4, point(4)],
    ]);
    const diff = diffPoints(current, next, false);
    expect(diff.upsert.map((p) => p.id)).toEqual([2, 4]);
    expect(diff.remove).toEqual([]);
  });
  it('a full refresh removes devices missing from it', () => {
    const diff = diffPoints(current, new Map([[1, point(1)]]), true);
    expect(diff.upsert).toEqual([]);
    expect(diff.remove).toEqual([2, 3]);
  });
  it('state and flag changes count, a new time alone does not', () => {
    const next = new Map([
      [1, point(1, { remote_kill: 1, lineon: 0, typecate: [1, 0, 0, 0] })],
      [2, point(2, { gps_time: '2026-02-01T00:00:00.000Z' })],
      [3, point(3, { typecate: [1, 1, 0, 1] })],
    ]);
    expect(diffPoints(current, next, false).upsert.map((p) => p.id)).toEqual([1, 3]);
  });
});

describe('DevicePointStore', () => {
  it('merges what arrives before a frame into one difference for the map', () => {
    const frames: (() => void)[] = [];
    const store = new DevicePointStore((flush) => frames.push(flush));
    const diffs: number[][] = [];
    store.onDiff((diff) => diffs.push(diff.upsert.map((p) => p.id)));
    store.push([point(1), point(2)], true);
    store.push([point(1, { lat: 25, gps_time: '2026-01-01T00:01:00.000Z' })]);
    expect(frames).toHaveLength(1);
    frames[0]!();
    expect(diffs).toEqual([[1, 2]]);
    expect(store.get(1)?.lat).toBe(25);
    const version = store.version();
    // the same answer again changes nothing and tells nobody
    store.push([point(2)]);
    frames[1]!();
    expect(diffs).toHaveLength(1);
    expect(store.version()).toBe(version);
  });
});
