import type { LngLat } from './geometry';

/**
 * WGS-84 <-> GCJ-02 ("Mars coordinates" of Chinese base maps), the well-known public transform
 * (Krasovsky ellipsoid constants). Outside mainland China's box the coordinates are unchanged.
 * Positions are stored as WGS-84; GCJ-02 is only for display on GCJ-02 base maps, and shapes drawn
 * on such a map are converted back with gcj02ToWgs84 before saving.
 */
const A = 6378245.0;
const EE = 0.006693421622965943;

/** The rough box in which the GCJ-02 offset applies. */
export function outOfChina(p: LngLat): boolean {
  return p.lng < 72.004 || p.lng > 137.8347 || p.lat < 0.8293 || p.lat > 55.8271;
}

function transformLat(x: number, y: number): number {
  let r = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3;
  r += ((20 * Math.sin(y * Math.PI) + 40 * Math.sin((y / 3) * Math.PI)) * 2) / 3;
  r += ((160 * Math.sin((y / 12) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30)) * 2) / 3;
  return r;
}

function transformLng(x: number, y: number): number {
  let r = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3;
  r += ((20 * Math.sin(x * Math.PI) + 40 * Math.sin((x / 3) * Math.PI)) * 2) / 3;
  r += ((150 * Math.sin((x / 12) * Math.PI) + 300 * Math.sin((x / 30) * Math.PI)) * 2) / 3;
  return r;
}

function offset(p: LngLat): LngLat {
  const dLat0 = transformLat(p.lng - 105, p.lat - 35);
  const dLng0 = transformLng(p.lng - 105, p.lat - 35);
  const radLat = (p.lat / 180) * Math.PI;
  const magic = 1 - EE * Math.sin(radLat) ** 2;
  const sqrtMagic = Math.sqrt(magic);
  return {
    lat: (dLat0 * 180) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI),
    lng: (dLng0 * 180) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI),
  };
}

export function wgs84ToGcj02(p: LngLat): LngLat {
  if (outOfChina(p)) return { lng: p.lng, lat: p.lat };
  const d = offset(p);
  return { lng: p.lng + d.lng, lat: p.lat + d.lat };
}

/** Inverse by fixed-point iteration (error well under 1e-7 degrees, a centimetre). */
export function gcj02ToWgs84(p: LngLat): LngLat {
  if (outOfChina(p)) return { lng: p.lng, lat: p.lat };
  let w: LngLat = { lng: p.lng, lat: p.lat };
  for (let i = 0; i < 30; i++) {
    const g = wgs84ToGcj02(w);
    const dLng = p.lng - g.lng;
    const dLat = p.lat - g.lat;
    w = { lng: w.lng + dLng, lat: w.lat + dLat };
    if (Math.abs(dLng) < 1e-10 && Math.abs(dLat) < 1e-10) break;
  }
  return w;
}

/** Convert between the two systems by name ('WGS84' | 'GCJ02'); same system -> a copy. */
export function convertCrs(p: LngLat, from: 'WGS84' | 'GCJ02', to: 'WGS84' | 'GCJ02'): LngLat {
  if (from === to) return { lng: p.lng, lat: p.lat };
  return from === 'WGS84' ? wgs84ToGcj02(p) : gcj02ToWgs84(p);
}
