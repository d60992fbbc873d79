import { describe, expect, it } from 'vitest';
import { MAP_SOS_WINDOW_MS } from '@bwc/protocol';
import { DevicePointStore } from '../../map/pointStore';
import { point } from '../../map/test-points';
import { applySnapshotSos, devicePatch, isActiveSos, sitePatch } from './useLivePoints';

const NOW = Date.parse('2026-01-01T12:00:00.000Z');
const sos = { type: '1', device_id: 5, sure: 0 as const, alarm_time: '2026-01-01T11:59:00.000Z' };

describe('pushes as store patches', () => {
  it('site_data carries the fix and the online state of one device', () => {
    expect(
      sitePatch({
        device_id: 3,
        hostbody: 'SIM3',
        hostname: 'x',
        unit_id: 1,
        lng: 114.1,
        lat: 22.5,
        speed: 3,
        course: 45,
        battery: 60,
        time: '2026-01-01T00:00:00.000Z',
        lineon: 1,
      }),
    ).toEqual({
      id: 3,
      lat: 22.5,
      lng: 114.1,
      speed: 3,
      course: 45,
      battery: 60,
      gps_time: '2026-01-01T00:00:00.000Z',
      lineon: 1,
    });
  });
  it('device_data carries the online state only', () => {
    expect(
      devicePatch({
        device_id: 3,
        hostbody: 'SIM3',
        hostname: 'x',
        unit_id: 1,
        lineon: 0,
        time: '2026-01-01T00:00:00Z',
      }),
    ).toEqual({ id: 3, lineon: 0 });
  });
});

describe('active SOS', () => {
  it('an unacknowledged SOS alarm of a device within the window', () => {
    expect(isActiveSos(sos, NOW)).toBe(true);
  });
  it('not other types, acknowledged ones, ones without a device or older than the window', () => {
    expect(isActiveSos({ ...sos, type: '0' }, NOW)).toBe(false);
    expect(isActiveSos({ ...sos, sure: 1 }, NOW)).toBe(false);
    expect(isActiveSos({ ...sos, device_id: null }, NOW)).toBe(false);
    expect(isActiveSos({ ...sos, alarm_time: new Date(NOW - MAP_SOS_WINDOW_MS - 1000).toISOString() }, NOW)).toBe(
      false,
    );
  });
});

describe('SOS state of a points answer', () => {
  function storeWith(ids: number[]) {
    const store = new DevicePointStore((flush) => flush());
    store.push(ids.map((id) => point(id)), true);
    return store;
  }

  it('a full answer replaces the SOS set with the points marked sos', () => {
    const store = storeWith([1, 2, 3]);
    store.setSos(3, true);
    applySnapshotSos(store, [point(1, { sos: 1 }), point(2), point(3)], true, 1_000, new Map());
    expect([1, 2, 3].map((id) => store.isSos(id))).toEqual([true, false, false]);
  });

  it('a partial answer sets only the devices it names', () => {
    const store = storeWith([1, 2, 3]);
    store.setSos(3, true);
    applySnapshotSos(store, [point(1, { sos: 1 }), point(2)], false, 1_000, new Map());
    expect([1, 2, 3].map((id) => store.isSos(id))).toEqual([true, false, true]);
  });

  it('an SOS pushed after the request survives its answer; an older push is forgotten', () => {
    const store = storeWith([1, 2]);
    const pushed = new Map([
      [1, 1_500],
      [2, 500],
    ]);
    store.setSos(1, true);
    store.setSos(2, true);
    applySnapshotSos(store, [point(1), point(2)], true, 1_000, pushed);
    expect([store.isSos(1), store.isSos(2)]).toEqual([true, false]);
    expect([...pushed.keys()]).toEqual([1]);
  });
});
