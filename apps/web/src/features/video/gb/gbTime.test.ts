import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { gbLocalTime, gbMs, gbTime } from './gbTime';

describe('GB times', () => {
  it('reads and writes GB times in +08:00, whatever the browser zone', () => {
    expect(gbMs('2026-11-27 10:20:30')).toBe(Date.parse('2026-11-27T10:20:30+08:00'));
    expect(gbMs('2026-11-27T10:20:30')).toBe(Date.parse('2026-11-27T02:20:30Z'));
    expect(gbMs('2026-11-27T10:20:30.250')).toBe(Date.parse('2026-11-27T02:20:30Z'));
    for (const text of ['2026-11-27 10:20', '2026-11-27 10:20:30 ', '', '2026-02-31 10:00:00', '2026-11-27 24:00:00'])
      expect(gbMs(text)).toBeNaN();
    expect(gbTime(dayjs('2026-01-01T19:04:05Z'))).toBe('2026-01-02 03:04:05');
    expect(gbTime(Date.parse('2026-01-02T03:04:05+08:00'))).toBe('2026-01-02 03:04:05');
  });

  it('shows GB times in the local time, other text as it came', () => {
    const local = dayjs(Date.UTC(2026, 10, 27, 1, 10, 0)).format('YYYY-MM-DD HH:mm:ss');
    expect(gbLocalTime('2026-11-27 09:10:00')).toBe(local);
    expect(gbLocalTime('2026-11-27T09:10:00.250')).toBe(local);
    // across midnight and a month end at +08:00
    expect(gbLocalTime('2026-12-01 03:00:00')).toBe(dayjs(Date.UTC(2026, 10, 30, 19)).format('YYYY-MM-DD HH:mm:ss'));
    for (const text of ['2026-02-31 10:00:00', '2026-11-27 24:00:00', 'yesterday', ''])
      expect(gbLocalTime(text)).toBe(text);
  });
});
