import dayjs, { type Dayjs } from 'dayjs';

/**
 * GB times (GB/T 28181-2016 A.2.1 local time): 'YYYY-MM-DD HH:mm:ss' without a zone, as the devices
 * and the server's GB endpoints write them; the devices and the platform keep +08:00. The console
 * sends them so and shows them in the browser's local time like every other time.
 */
export const GB_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** The zone of GB times. */
export const GB_ZONE_OFFSET_MS = 8 * 3_600_000;

const p2 = (n: number) => String(n).padStart(2, '0');

/** A moment as a GB time (+08:00 wall clock). */
export function gbTime(d: Dayjs | number): string {
  const t = new Date((typeof d === 'number' ? d : d.valueOf()) + GB_ZONE_OFFSET_MS);
  return (
    `${t.getUTCFullYear()}-${p2(t.getUTCMonth() + 1)}-${p2(t.getUTCDate())} ` +
    `${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}`
  );
}

/**
 * A GB time ('YYYY-MM-DD HH:mm:ss', or with 'T', an optional fraction) as epoch ms; NaN when it is
 * not one (another shape, or a date such as 2026-02-31 or 24:00:00 that does not exist).
 */
export function gbMs(time: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?$/.exec(time);
  if (!m) return NaN;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const wall = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (wall.getUTCMonth() !== mo - 1 || wall.getUTCDate() !== d || wall.getUTCHours() !== h) return NaN;
  if (wall.getUTCMinutes() !== mi || wall.getUTCSeconds() !== s) return NaN;
  return wall.getTime() - GB_ZONE_OFFSET_MS;
}

/** A GB time in the browser's local time ('YYYY-MM-DD HH:mm:ss'); the text as it came when it is not one. */
export function gbLocalTime(time: string): string {
  const ms = gbMs(time.trim());
  return Number.isFinite(ms) ? dayjs(ms).format(GB_TIME_FORMAT) : time;
}
