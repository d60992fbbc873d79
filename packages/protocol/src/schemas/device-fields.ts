import { z } from 'zod';

/**
 * The fields other areas' schemas share with the device records (schemas/devices.ts): the IMEI and
 * a fix's latitude and longitude (WGS-84). A module of their own, so that live video, maps, fences
 * and the console service's messages refer to them without bringing in the device administration
 * schemas (the console's first load carries only what it uses).
 */

/** Luhn check digit of a 15-digit IMEI. */
export function imeiIsValid(imei: string): boolean {
  if (!/^\d{15}$/.test(imei)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let d = imei.charCodeAt(i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Complete 14 digits with their Luhn check digit. */
export function imeiWithCheckDigit(first14: string): string {
  for (let d = 0; d <= 9; d++) if (imeiIsValid(first14 + d)) return first14 + d;
  throw new Error('unreachable');
}

/** IMEI: 15 digits whose last one is the Luhn check digit. */
export const Imei = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .refine(imeiIsValid, { error: 'validation.device.imei' });

export const Latitude = z
  .number({ error: 'validation.number' })
  .min(-90, { error: 'validation.latitude' })
  .max(90, { error: 'validation.latitude' });
export const Longitude = z
  .number({ error: 'validation.number' })
  .min(-180, { error: 'validation.longitude' })
  .max(180, { error: 'validation.longitude' });
