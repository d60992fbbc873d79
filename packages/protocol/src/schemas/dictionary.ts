import { z } from 'zod';
import { between } from '../validators';
import { FlagInput } from '../envelope';
import { numberInput, optionalInput } from './inputs';

/**
 * Data dictionary (menu 10450): typed key/value lists the other screens use instead of hard-coded
 * lists. Types are fixed by the installation (seeded, see DICT_TYPES); entries are edited by
 * holders of menu 10450 and read by every logged-in user.
 */

/** Dictionary types every installation has. Later issues add theirs here (and a seed migration). */
export const DICT_TYPES = {
  /** alarm `type` (numeric string); 0 is the electric-fence alarm */
  ALARM_TYPE: 'alarm_type',
  /** alarm severities, keys as the wire spells them: criticle, middle, normal */
  ALARM_LEVEL: 'alarm_level',
  /** device (terminal) types */
  DEVICE_TYPE: 'device_type',
  /** media file categories */
  MEDIA_CATEGORY: 'media_category',
} as const;
export type DictTypeCode = (typeof DICT_TYPES)[keyof typeof DICT_TYPES];

export const DictType = z.object({
  /** type code, e.g. alarm_type */
  code: z.string(),
  /** name in Chinese */
  name: z.string(),
  /** name in English */
  name_en: z.string(),
  /** number of entries */
  entries: z.number().int(),
});
export type DictType = z.infer<typeof DictType>;

export const DictEntry = z.object({
  id: z.number().int(),
  /** type code */
  type: z.string(),
  /** the value stored in other records (alarm type '1', device type '2', ...), unique per type, fixed once created */
  key: z.string(),
  /** label in Chinese (canonical) */
  label: z.string(),
  /** label in English; the console falls back to label when empty */
  label_en: z.string(),
  /** ascending */
  sort: z.number().int(),
  /** 0: kept for old records, not offered in new choices */
  enabled: z.number().int(),
  /** 1: seeded entry the system relies on; may be renamed or disabled, not deleted */
  builtin: z.number().int(),
  updated: z.string(),
});
export type DictEntry = z.infer<typeof DictEntry>;

const typeCode = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .regex(/^[a-z][a-z0-9_]{0,31}$/, { error: 'validation.dict.type' });

/** GET rest/system/dict/get?type=&enabled=: entries of one type by sort, then key. */
export const DictListQuery = z.object({ type: typeCode, enabled: optionalInput(FlagInput) });
export type DictListQuery = z.infer<typeof DictListQuery>;

const entryFields = {
  label: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(64, { error: 'validation.tooLong' }),
  label_en: z.string().trim().max(64, { error: 'validation.tooLong' }).default(''),
  sort: between(
    z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }),
    0,
    99_999,
  ).default(0),
  enabled: FlagInput.default(1),
};
/** POST rest/system/dict/add */
export const DictAddRequest = z.object({
  type: typeCode,
  key: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .regex(/^[A-Za-z0-9_-]{1,32}$/, { error: 'validation.dict.key' }),
  ...entryFields,
});
export type DictAddRequest = z.infer<typeof DictAddRequest>;
/** POST rest/system/dict/update: label, label_en, sort, enabled (type and key are fixed). */
export const DictUpdateRequest = z.object({
  id: numberInput(
    z
      .number({ error: 'validation.required' })
      .int({ error: 'validation.integer' })
      .positive({ error: 'validation.range' }),
  ),
  ...entryFields,
});
export type DictUpdateRequest = z.infer<typeof DictUpdateRequest>;
/** POST rest/system/dict/del `{id}`: refused for builtin entries. */
export const DictDeleteRequest = z.object({
  id: numberInput(
    z
      .number({ error: 'validation.required' })
      .int({ error: 'validation.integer' })
      .positive({ error: 'validation.range' }),
  ),
});
export type DictDeleteRequest = z.infer<typeof DictDeleteRequest>;
