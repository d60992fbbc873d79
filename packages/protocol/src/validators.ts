import { z } from 'zod';
import {
  ID_CARD_LENGTH,
  PASSWORD_LOGIN_MIN,
  PASSWORD_SET_CLASSES,
  PASSWORD_SET_MAX,
  PASSWORD_SET_MIN,
  TITLE_FORBIDDEN_CHARS,
  TITLE_MAX,
  TITLE_MIN,
} from './limits';

/**
 * Messages in schemas are i18n keys of the shared `validation` catalogue, translated by the
 * server (envelope msg) and the console (form errors) alike.
 */

export function passwordClasses(pw: string): number {
  return [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(pw)).length;
}

/** A password a user sets: 8 to 12 characters with at least three of upper, lower, digit, special. */
export const NewPassword = z
  .string({ error: 'validation.required' })
  .min(1, { error: 'validation.password.required' })
  .min(PASSWORD_SET_MIN, { error: 'validation.password.length' })
  .max(PASSWORD_SET_MAX, { error: 'validation.password.length' })
  .refine((pw) => passwordClasses(pw) >= PASSWORD_SET_CLASSES, { error: 'validation.password.classes' });

/** A password typed at login: at least 6 characters (checked in the console before hashing). */
export const LoginPassword = z
  .string({ error: 'validation.required' })
  .min(1, { error: 'validation.password.required' })
  .min(PASSWORD_LOGIN_MIN, { error: 'validation.password.loginMin' });

export function hasForbiddenTitleChar(text: string): boolean {
  return TITLE_FORBIDDEN_CHARS.some((c) => text.includes(c));
}

export const SystemTitle = z
  .string({ error: 'validation.required' })
  .trim()
  .min(TITLE_MIN, { error: 'validation.title.length' })
  .max(TITLE_MAX, { error: 'validation.title.length' })
  .refine((t) => !hasForbiddenTitleChar(t), { error: 'validation.title.forbidden' });

export type IdCardResult = { ok: true; age: number; birthDate: string } | { ok: false; message: 'validation.idCard.invalid' };

/**
 * National ID helper (spec part 1 section 5): an 18-character ID; characters 7 to 14 are the
 * birth date YYYYMMDD from which the age is derived at `today`.
 */
export function ageFromIdCard(id: string, today: Date = new Date()): IdCardResult {
  const invalid = { ok: false, message: 'validation.idCard.invalid' } as const;
  if (typeof id !== 'string' || id.length !== ID_CARD_LENGTH || !/^\d{17}[\dXx]$/.test(id)) return invalid;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const birth = new Date(Date.UTC(y, m - 1, d));
  if (birth.getUTCFullYear() !== y || birth.getUTCMonth() !== m - 1 || birth.getUTCDate() !== d) return invalid;
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age--;
  if (age < 0) return invalid;
  return { ok: true, age, birthDate: `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}` };
}
