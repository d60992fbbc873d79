import { z } from 'zod';
import { CONSOLE_TARGETS_MAX } from './limits';

/**
 * Field rules shared by the console-service payloads. Trunking clients send numbers as numbers or
 * as digit strings; both are accepted. Messages are keys of the shared `validation` catalogue.
 */

/** A number given as a number or a digit string ('' and null count as missing). */
export function numeric<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => {
    if (v === '' || v === null) return undefined;
    if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
    return v;
  }, schema);
}

/** An optional field: absent, '' and null all mean "not given". */
export function maybe<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());
}

export const intIn = (min: number, max: number) =>
  numeric(
    z
      .number({ error: 'validation.number' })
      .int({ error: 'validation.integer' })
      .min(min, { error: 'validation.range' })
      .max(max, { error: 'validation.range' }),
  );

/** A console-service user id (terminal: device id; console: CONSOLE_UID_BASE + user id). */
export const Uid = numeric(
  z
    .number({ error: 'validation.required' })
    .int({ error: 'validation.integer' })
    .positive({ error: 'validation.range' })
    .max(2_147_483_647, { error: 'validation.range' }),
);
/** An external id (a terminal's cluster number, `itrunk_<username>` for a console). */
export const ExtId = z
  .string({ error: 'validation.type' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(64, { error: 'validation.tooLong' });
/** A group id. */
export const Tgid = Uid;

/** A list of uids (absent: empty). */
export const UidList = z
  .array(Uid, { error: 'validation.type' })
  .max(CONSOLE_TARGETS_MAX, { error: 'validation.tooLong' })
  .default([]);
/** A list of ext ids (absent: empty). */
export const ExtIdList = z
  .array(ExtId, { error: 'validation.type' })
  .max(CONSOLE_TARGETS_MAX, { error: 'validation.tooLong' })
  .default([]);

/** One optional target: a uid, or '' / 0 / absent for none. */
export const OptionalUid = z.preprocess(
  (v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v),
  Uid.optional(),
);
export const OptionalExtId = z.preprocess((v) => (v === '' || v === null ? undefined : v), ExtId.optional());

/** Free text up to `max` characters ('' allowed). */
export const Text = (max: number) => z.string({ error: 'validation.type' }).max(max, { error: 'validation.tooLong' });
/** Required text of 1 to `max` characters. */
export const RequiredText = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.tooLong' });
/** A string given as a string or a number. */
export const StringLike = (max: number) => z.preprocess((v) => (typeof v === 'number' ? String(v) : v), Text(max));

/** 0 or 1, given as a number, a digit string or a boolean. */
export const Flag01 = z.preprocess(
  (v) =>
    typeof v === 'boolean' ? (v ? 1 : 0) : v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v,
  z.union([z.literal(0), z.literal(1)], { error: 'validation.choice' }),
);

/**
 * A point in time as trunking clients send it: ISO 8601, `YYYY-MM-DD HH:mm:ss` (server local
 * time), or a Unix time in seconds or milliseconds. Parsed to epoch milliseconds.
 */
export const TimeInput = z.preprocess(
  (v) => {
    if (v === '' || v === null) return undefined;
    if (typeof v === 'number') return v < 1e11 ? v * 1000 : v;
    if (typeof v === 'string') {
      const s = v.trim();
      if (/^\d+$/.test(s)) return Number(s) < 1e11 ? Number(s) * 1000 : Number(s);
      const local = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
      const ms = local
        ? new Date(+local[1]!, +local[2]! - 1, +local[3]!, +local[4]!, +local[5]!, +(local[6] ?? 0)).getTime()
        : Date.parse(s);
      return Number.isFinite(ms) ? ms : v;
    }
    return v;
  },
  z
    .number({ error: 'validation.datetime' })
    .int({ error: 'validation.datetime' })
    .nonnegative({ error: 'validation.datetime' }),
);
