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

/**
 * A number schema limited to `min`..`max` inclusive. A value outside is refused, never clamped,
 * with a message naming both bounds: the key `validation.between` with params {min, max}, which
 * the server and the console read with `issueParams` and pass to the translation. The bounds also
 * reach the OpenAPI document as minimum / maximum.
 */
export function between<T extends z.ZodNumber | z.ZodCoercedNumber>(schema: T, min: number, max: number): T {
  return schema
    .refine((n) => n >= min && n <= max, { error: 'validation.between', params: { min, max } })
    .meta({ minimum: min, maximum: max }) as T;
}

/** The bounds a `between` schema was given, for help texts beside its input (so they are written once). */
export function boundsOf(schema: z.ZodType): { min: number; max: number } {
  const meta = schema.meta() as { minimum?: unknown; maximum?: unknown } | undefined;
  if (typeof meta?.minimum !== 'number' || typeof meta.maximum !== 'number')
    throw new Error('boundsOf: the schema was not made with between()');
  return { min: meta.minimum, max: meta.maximum };
}

/** Translation params a schema issue carries (custom issues such as `between`'s), else none. */
export function issueParams(issue: { code?: string; params?: unknown }): Record<string, string | number> {
  if (issue.code !== 'custom' || !issue.params || typeof issue.params !== 'object') return {};
  return Object.fromEntries(
    Object.entries(issue.params).filter((e): e is [string, string | number] =>
      ['string', 'number'].includes(typeof e[1]),
    ),
  );
}

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

export type IdCardResult =
  { ok: true; age: number; birthDate: string } | { ok: false; message: 'validation.idCard.invalid' };

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
