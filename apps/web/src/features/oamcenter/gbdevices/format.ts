/** 'lng, lat' with 6 decimals (about 0.1 m), null when the position is unknown. */
export function formatPosition(lng: number | null, lat: number | null): string | null {
  if (lng === null || lat === null || !Number.isFinite(lng) || !Number.isFinite(lat)) return null;
  return `${lng.toFixed(6)}, ${lat.toFixed(6)}`;
}

/** Manufacturer / model / firmware of DeviceInfo, the parts the device sent ('' none). */
export function formatDeviceInfo(d: { manufacturer: string; model: string; firmware: string }): string {
  return [d.manufacturer, d.model, d.firmware].filter((part) => part.trim() !== '').join(' / ');
}
