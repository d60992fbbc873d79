import { EVIDENCE_RECOVERY_DAYS } from '@bwc/protocol';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { fixAt, formatDuration, formatSize, mediaQuery, purgeableAt } from './mediaQuery';

describe('mediaQuery', () => {
  it('turns the search bar filters into the mediaList payload of the view', () => {
    const start = '2026-11-01 00:00:00';
    expect(
      mediaQuery(
        {
          unit_id: '4',
          device: 'device:12',
          user_id: '3',
          keyword: '  robbery ',
          recorded_start: start,
          media_type: '2',
          flg: '1',
          category: 'traffic',
          linked: '0',
          scored: '1',
          unknown: 'x',
          uploaded_end: 'not a date',
        },
        'law',
      ),
    ).toEqual({
      view: 'law',
      unit_id: 4,
      device_id: 12,
      user_id: 3,
      keyword: 'robbery',
      recorded_start: dayjs(start).toISOString(),
      media_type: 2,
      flg: 1,
      category: 'traffic',
      linked: 0,
      scored: 1,
    });
  });

  it('leaves out empty values and a unit picked as a device', () => {
    expect(mediaQuery({ keyword: ' ', unit_id: 'device:3', device: '5' }, 'deleted')).toEqual({ view: 'deleted' });
  });
});

describe('formatting', () => {
  it('sizes and durations', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatDuration(65)).toBe('01:05');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(null)).toBe('');
  });

  it('the purgeable date is the recovery window after the deletion', () => {
    const at = purgeableAt('2026-11-20T00:00:00.000Z');
    expect(at?.toISOString()).toBe(new Date(Date.parse('2026-11-20T00:00:00.000Z') + EVIDENCE_RECOVERY_DAYS * 86_400_000).toISOString());
    expect(purgeableAt(null)).toBeNull();
  });
});

describe('fixAt', () => {
  const points = [
    { t: '2026-11-20T08:00:00.000Z', lat: 1, lng: 1 },
    { t: '2026-11-20T08:00:10.000Z', lat: 2, lng: 2 },
    { t: '2026-11-20T08:00:20.000Z', lat: 3, lng: 3 },
  ];
  it('follows the playback position', () => {
    expect(fixAt(points, '2026-11-20T08:00:00.000Z', 0)?.lat).toBe(1);
    expect(fixAt(points, '2026-11-20T08:00:00.000Z', 12.5)?.lat).toBe(2);
    expect(fixAt(points, '2026-11-20T08:00:00.000Z', 99)?.lat).toBe(3);
    // before the first fix: the first one
    expect(fixAt(points, '2026-11-20T07:59:00.000Z', 0)?.lat).toBe(1);
    expect(fixAt([], '2026-11-20T08:00:00.000Z', 3)).toBeNull();
  });
});
