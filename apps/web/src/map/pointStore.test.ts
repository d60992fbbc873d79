import { afterEach, describe, expect, it, vi } from 'vitest';
import { DevicePointStore, REACT_NOTIFY_MS, applyPatch } from './pointStore';
import { point } from './test-points';

function manual() {
  const frames: (() => void)[] = [];
  const store = new DevicePointStore((flush) => frames.push(flush));
  const diffs: { upsert: number[]; remove: number[] }[] = [];
  store.onDiff((diff) => diffs.push({ upsert: diff.upsert.map((p) => p.id), remove: diff.remove }));
  const frame = () => frames.splice(0).forEach((f) => f());
  return { store, diffs, frame };
}

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:05.000Z';

afterEach(() => vi.useRealTimers());

describe('live patches', () => {
  it('moves only the patched device and keeps its other fields', () => {
    const { store, diffs, frame } = manual();
    store.push([point(1), point(2)], true);
    frame();
    store.patch([{ id: 2, lat: 22.9, lng: 114.2, gps_time: T1, speed: 4, course: 90, battery: 70, lineon: 1 }]);
    frame();
    expect(diffs[1]).toEqual({ upsert: [2], remove: [] });
    expect(store.get(2)).toMatchObject({ lat: 22.9, lng: 114.2, hostname: 'Officer 2', gps_time: T1 });
    expect(store.get(1)?.lat).toBe(point(1).lat);
  });

  it('an older fix does not move a device back, but its online state still applies', () => {
    const { store, frame } = manual();
    store.push([point(1, { gps_time: T1, lat: 23 })], true);
    frame();
    store.patch([{ id: 1, lat: 10, lng: 10, gps_time: T0, lineon: 0 }]);
    frame();
    expect(store.get(1)).toMatchObject({ lat: 23, lineon: 0 });
  });

  it('a poll answer older than a pushed fix keeps the pushed position', () => {
    const { store, frame } = manual();
    store.push([point(1, { gps_time: T0 })], true);
    frame();
    store.patch([{ id: 1, lat: 25, lng: 115, gps_time: T1 }]);
    frame();
    // the 20 s refresh read before that push arrived, with a state change
    store.push([point(1, { gps_time: T0, remote_kill: 1 })], true);
    frame();
    expect(store.get(1)).toMatchObject({ lat: 25, lng: 115, remote_kill: 1 });
  });

  it('device_data changes the state only; an unchanged patch tells nobody', () => {
    const { store, diffs, frame } = manual();
    store.push([point(1)], true);
    frame();
    store.patch([{ id: 1, lineon: 0 }]);
    frame();
    expect(store.get(1)?.lineon).toBe(0);
    store.patch([{ id: 1, lineon: 0 }]);
    frame();
    expect(diffs).toHaveLength(2);
  });

  it('reports devices it does not know instead of inventing them', () => {
    const { store, diffs, frame } = manual();
    const unknown: number[][] = [];
    store.onUnknown((ids) => unknown.push(ids));
    store.push([point(1)], true);
    frame();
    store.patch([
      { id: 7, lat: 1, lng: 1 },
      { id: 7, lat: 2, lng: 2 },
    ]);
    frame();
    expect(unknown).toEqual([[7]]);
    expect(store.get(7)).toBeUndefined();
    expect(diffs).toHaveLength(1);
  });

  it('a full refresh without a patched device removes it', () => {
    const { store, diffs, frame } = manual();
    store.push([point(1), point(2)], true);
    frame();
    store.patch([{ id: 2, lat: 30, lng: 115, gps_time: T1 }]);
    store.push([point(1)], true);
    frame();
    expect(diffs[1]).toEqual({ upsert: [], remove: [2] });
    expect(store.size).toBe(1);
  });

  it('applyPatch answers the same object when nothing changes', () => {
    const p = point(1);
    expect(applyPatch(p, { id: 1, lat: p.lat as number, lineon: 1 })).toBe(p);
  });
});

describe('SOS state', () => {
  it('a switch redraws only that device; a snapshot ends the others', () => {
    const { store, diffs, frame } = manual();
    store.push([point(1), point(2), point(3)], true);
    frame();
    store.setSos(2, true);
    frame();
    expect(diffs[1]).toEqual({ upsert: [2], remove: [] });
    expect(store.isSos(2)).toBe(true);
    store.replaceSos([3]);
    frame();
    expect(diffs[2]?.upsert.sort()).toEqual([2, 3]);
    expect(store.isSos(2)).toBe(false);
    expect(store.isSos(3)).toBe(true);
    // the same snapshot again changes nothing
    store.replaceSos([3]);
    frame();
    expect(diffs).toHaveLength(3);
  });
});

describe('React notifications', () => {
  it('at most one per REACT_NOTIFY_MS, the last change always told', () => {
    vi.useFakeTimers();
    let clock = 0;
    const frames: (() => void)[] = [];
    const store = new DevicePointStore(
      (flush) => frames.push(flush),
      () => clock,
    );
    const told = vi.fn();
    store.subscribe(told);
    const frame = () => frames.splice(0).forEach((f) => f());
    store.push([point(1)], true);
    frame();
    expect(told).toHaveBeenCalledTimes(1);
    for (let i = 1; i <= 5; i++) {
      clock += 100;
      store.patch([{ id: 1, lat: 22 + i, lng: 114 }]);
      frame();
    }
    expect(told).toHaveBeenCalledTimes(1);
    expect(store.get(1)?.lat).toBe(27);
    clock += REACT_NOTIFY_MS;
    vi.advanceTimersByTime(REACT_NOTIFY_MS);
    expect(told).toHaveBeenCalledTimes(2);
  });
});

describe('what React reads', () => {
  it('the roster changes with devices and names, not with positions; the online count follows', () => {
    const { store, frame } = manual();
    store.push([point(1), point(2, { lineon: 0 })], true);
    frame();
    const roster = store.rosterVersion();
    expect(store.onlineCount()).toBe(1);
    store.patch([{ id: 1, lat: 23, lng: 115, gps_time: T1 }]);
    frame();
    expect(store.rosterVersion()).toBe(roster);
    store.patch([{ id: 2, lineon: 1 }]);
    frame();
    expect(store.onlineCount()).toBe(2);
    expect(store.rosterVersion()).toBe(roster);
    store.push([point(1, { hostname: 'Renamed' })], true);
    frame();
    expect(store.rosterVersion()).toBe(roster + 1);
    expect(store.onlineCount()).toBe(1);
    expect(store.size).toBe(1);
  });
});
