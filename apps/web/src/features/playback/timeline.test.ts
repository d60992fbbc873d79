import { describe, expect, it } from 'vitest';
import { offsetOf, placeMoment, placeSpan, ticksOf } from './timeline';

const from = '2026-03-10T08:00:00.000Z';
const to = '2026-03-10T12:00:00.000Z';

describe('replay timeline geometry', () => {
  it('places a recording by its start and length within the range', () => {
    // 09:00 to 10:00 of 08:00 to 12:00: a quarter in, a quarter wide
    expect(placeSpan('2026-03-10T09:00:00.000Z', '2026-03-10T10:00:00.000Z', from, to)).toEqual({
      left: 25,
      width: 25,
    });
    // begun before the range: clipped at its left edge
    expect(placeSpan('2026-03-10T07:00:00.000Z', '2026-03-10T08:30:00.000Z', from, to)).toEqual({
      left: 0,
      width: 12.5,
    });
    // a moment-long item still shows
    expect(placeSpan('2026-03-10T11:00:00.000Z', '2026-03-10T11:00:00.000Z', from, to, 0.5)).toEqual({
      left: 75,
      width: 0.5,
    });
    expect(placeSpan('2026-03-10T13:00:00.000Z', '2026-03-10T14:00:00.000Z', from, to)).toBeNull();
  });

  it('places a moment and refuses one outside the range', () => {
    expect(placeMoment('2026-03-10T10:00:00.000Z', from, to)).toBe(50);
    expect(placeMoment('2026-03-10T07:59:59.000Z', from, to)).toBeNull();
  });

  it('turns a click on a bar into seconds from the recording start', () => {
    const rec = { recorded_at: '2026-03-10T09:00:00.000Z', end: '2026-03-10T09:10:00.000Z' };
    expect(offsetOf(rec, 0, from, to)).toBe(0);
    expect(offsetOf(rec, 0.5, from, to)).toBe(300);
    // the bar shows 08:00-08:20 of a recording begun at 07:40: its left edge is 20 min in
    const early = { recorded_at: '2026-03-10T07:40:00.000Z', end: '2026-03-10T08:20:00.000Z' };
    expect(offsetOf(early, 0, from, to)).toBe(1200);
    expect(offsetOf(early, 1, from, to)).toBe(2400);
  });

  it('ticks whole hours across the range', () => {
    const ticks = ticksOf(from, to);
    expect(ticks.map((tick) => tick.at)).toEqual([0, 25, 50, 75, 100]);
  });
});
