import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AlarmRinger, soundDurationMs, type RingerState } from './alarmRinger';

describe('alarm sound timing', () => {
  let events: string[];
  let states: RingerState[];
  let ringer: AlarmRinger;

  beforeEach(() => {
    vi.useFakeTimers();
    events = [];
    states = [];
    ringer = new AlarmRinger({ start: () => events.push('start'), stop: () => events.push('stop') }, (state) =>
      states.push(state),
    );
  });
  afterEach(() => {
    ringer.dispose();
    vi.useRealTimers();
  });

  it('starts the sound 200 ms after the trigger, not before', () => {
    ringer.trigger(30_000);
    expect(ringer.state).toBe('pending');
    vi.advanceTimersByTime(199);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['start']);
    expect(ringer.state).toBe('ringing');
  });

  it('stops after the configured duration', () => {
    ringer.trigger(5_000);
    vi.advanceTimersByTime(200 + 4_999);
    expect(events).toEqual(['start']);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['start', 'stop']);
    expect(states).toEqual(['pending', 'ringing', 'idle']);
  });

  it('stops at once when the live view opens', () => {
    ringer.trigger(30_000);
    vi.advanceTimersByTime(1_000);
    ringer.liveOpened();
    expect(events).toEqual(['start', 'stop']);
    expect(ringer.state).toBe('idle');
    vi.advanceTimersByTime(60_000);
    expect(events).toEqual(['start', 'stop']);
  });

  it('a live view opened during the 200 ms delay means no sound at all', () => {
    ringer.trigger(30_000);
    vi.advanceTimersByTime(100);
    ringer.liveOpened();
    vi.advanceTimersByTime(60_000);
    expect(events).toEqual([]);
    expect(states).toEqual(['pending', 'idle']);
  });

  it('a second alarm while ringing keeps one sound and restarts the duration', () => {
    ringer.trigger(10_000);
    vi.advanceTimersByTime(8_000);
    ringer.trigger(10_000);
    vi.advanceTimersByTime(10_000);
    expect(events).toEqual(['start']);
    vi.advanceTimersByTime(200);
    expect(events).toEqual(['start', 'stop']);
  });

  it('duration: sos_alarm_time seconds, 30 000 ms when not configured', () => {
    expect(soundDurationMs(12)).toBe(12_000);
    expect(soundDurationMs(undefined)).toBe(30_000);
    expect(soundDurationMs(0)).toBe(30_000);
    expect(soundDurationMs(Number.NaN)).toBe(30_000);
  });
});
