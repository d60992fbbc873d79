/** 'lng, lat' with 6 decimals (about 0.1 m), null when the position is unknown. */
export function formatPosition(lng: number | null, lat: number | null): string | null {
  if (lng === null || lat === null || !Number.isFinite(lng) || !Number.isFinite(lat)) return null;
  return `${lng.toFixed(6)}, ${lat.toFixed(6)}`;
}

/** Manufacturer / model / firmware of DeviceInfo, the parts the device sent ('' none). */
export function formatDeviceInfo(d: { manufacturer: string; model: string; firmware: string }): string {
  return [d.manufacturer, d.model, d.firmware].filter((part) => part.trim() !== '').join(' / ');
}

/** The zone of GB times (A.2.1 local time: the devices and the platform keep +08:00). */
const GB_OFFSET_MS = 8 * 3_600_000;

/**
 * A device's GB time ('YYYY-MM-DD HH:mm:ss' or with 'T', optional fraction; +08:00 wall clock) in
 * the browser's local time as the console shows times; the text as it came when it is not one.
 */
export function gbLocalTime(time: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?$/.exec(time.trim());
  if (!m) return time;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const wall = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Date.UTC rolls 2026-02-31 or 25:00 over: such a text is not a time
  if (wall.getUTCDate() !== d || wall.getUTCHours() !== h || wall.getUTCMinutes() !== mi || wall.getUTCSeconds() !== s)
    return time;
  const at = new Date(wall.getTime() - GB_OFFSET_MS);
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())} ` +
    `${p(at.getHours())}:${p(at.getMinutes())}:${p(at.getSeconds())}`
  );
}
