import { z } from 'zod';
import { FlagInput } from '../envelope';

/**
 * How the fields of forms and query strings arrive (strings, empty controls) turned into the values
 * the schemas check; shared by the schemas of every area, so that none imports another area's
 * schemas (and their module) for them.
 */

/**
 * A number that may arrive as a string (query strings, form posts); unlike `z.coerce.number()` a
 * missing or empty value stays missing, so that the msg says "required" rather than "a number".
 */
export function numberInput<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? undefined : typeof v === 'string' ? Number(v) : v),
    schema,
  );
}
/**
 * An optional filter of a query string: an empty value (an unset search field) counts as missing.
 */
export function optionalInput<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional()).optional();
}
/** A 0/1 query flag with a default; an empty value (an unset control) takes the default. */
export function flagInput(fallback: 0 | 1) {
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), FlagInput.default(fallback));
}
export const optionalId = optionalInput(
  numberInput(
    z
      .number({ error: 'validation.number' })
      .int({ error: 'validation.integer' })
      .positive({ error: 'validation.range' }),
  ),
);

/**
 * A point in time: ISO 8601 (the console sends `Date.toISOString()`), also `YYYY-MM-DD HH:mm:ss`
 * (read as UTC). Normalised to ISO UTC, which is how the log stores times.
 */
export const DateTimeInput = z
  .string()
  .trim()
  .refine(
    (s) =>
      /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s) &&
      !Number.isNaN(Date.parse(normaliseDateTime(s))),
    {
      error: 'validation.datetime',
    },
  )
  .transform((s) => new Date(Date.parse(normaliseDateTime(s))).toISOString());

function normaliseDateTime(s: string): string {
  const iso = s.replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return `${iso}T00:00:00Z`;
  return /(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`;
}
