import type { AlarmListResponse } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { bellReducer, EMPTY_BELL, navActiveOf, rowIndex, type BellState } from './bellState';
import { testAlarm } from '../test-alarm';

const alarm = testAlarm;

function snapshot(): AlarmListResponse {
  return {
    count: { total: 4, criticle: 2, middle: 1, normal: 1 },
    lines: {
      criticle: [alarm(4, 'criticle'), alarm(1, 'criticle')],
      middle: [alarm(2, 'middle')],
      normal: [alarm(3, 'normal')],
    },
  };
}

const loaded = (): BellState => bellReducer(EMPTY_BELL, { type: 'snapshot', data: snapshot() });

describe('bell state', () => {
  it('takes counts and lines from the snapshot', () => {
    const state = loaded();
    expect(state.counts).toEqual({ total: 4, criticle: 2, middle: 1, normal: 1 });
    expect(state.lines.criticle.map((r) => r.id)).toEqual([4, 1]);
    expect(state.lines.normal.map((r) => r.id)).toEqual([3]);
  });

  it('puts a pushed alarm unread at the top of its severity and counts it there and in the total', () => {
    const pushed = alarm(9, 'middle', { hasRead: 1, status: '1' });
    const state = bellReducer(loaded(), { type: 'pushed', alarm: pushed });
    expect(state.counts).toEqual({ total: 5, criticle: 2, middle: 2, normal: 1 });
    expect(state.lines.middle.map((r) => r.id)).toEqual([9, 2]);
    expect(state.lines.middle[0]).toMatchObject({ hasRead: 0, status: '0' });
    expect(state.lines.criticle.map((r) => r.id)).toEqual([4, 1]);
  });

  it('does not count twice an alarm the snapshot already holds (push crossing a reconnect)', () => {
    const state = bellReducer(loaded(), { type: 'pushed', alarm: alarm(4, 'criticle') });
    expect(state.counts.total).toBe(4);
    expect(state.lines.criticle).toHaveLength(2);
  });

  it('marks one read: its severity count and the total drop by one, the row stays marked read', () => {
    const state = bellReducer(loaded(), { type: 'read', id: 1 });
    expect(state.counts).toEqual({ total: 3, criticle: 1, middle: 1, normal: 1 });
    expect(state.lines.criticle.map((r) => [r.id, r.hasRead, r.status])).toEqual([
      [4, 0, '0'],
      [1, 1, '1'],
    ]);
  });

  it('reading a row twice or an unknown id changes nothing', () => {
    const once = bellReducer(loaded(), { type: 'read', id: 3 });
    expect(bellReducer(once, { type: 'read', id: 3 })).toBe(once);
    expect(bellReducer(once, { type: 'read', id: 999 })).toBe(once);
    expect(once.counts).toEqual({ total: 3, criticle: 2, middle: 1, normal: 0 });
  });

  it('mark-all-read resets every count and empties the table', () => {
    const state = bellReducer(bellReducer(loaded(), { type: 'pushed', alarm: alarm(7, 'normal') }), {
      type: 'readAll',
    });
    expect(state.counts).toEqual({ total: 0, criticle: 0, middle: 0, normal: 0 });
    expect(state.lines).toEqual({ criticle: [], middle: [], normal: [] });
  });

  it('a new snapshot replaces what the pushes built', () => {
    const pushed = bellReducer(loaded(), { type: 'pushed', alarm: alarm(8, 'criticle') });
    const again = bellReducer(pushed, { type: 'snapshot', data: snapshot() });
    expect(again.counts.total).toBe(4);
    expect(again.lines.criticle.map((r) => r.id)).toEqual([4, 1]);
  });

  it('numbers rows with two digits and maps severities to alarmNavActive 0/1/2', () => {
    expect([rowIndex(0), rowIndex(9), rowIndex(99)]).toEqual(['01', '10', '100']);
    expect([navActiveOf('criticle'), navActiveOf('middle'), navActiveOf('normal')]).toEqual([0, 1, 2]);
  });
});
