import { z } from 'zod';
import { PageQuery } from '../envelope';
import { between } from '../validators';

/**
 * Evidence retention and the sensitive-word list (issue 15 sections 2 and 4).
 *
 * Retention: per media category (keys of the media_category dictionary), how many days an item is
 * kept, counted from its recorded_at. An item's `category` is a comma-separated list of keys; the
 * longest rule among them wins; items with no rule keep the file-storage default
 * (settings filestorage.keep_days). Items linked to an open case or open violation record are never
 * deleted by retention.
 * Due items are soft-deleted (delete_reason 'retention', custody 'retention') by a daily job and
 * purged once the recovery window (EVIDENCE_RECOVERY_DAYS) has passed. Menu 10272 (deleted media):
 * view reads the policy and the preview, edit changes the policy and runs the job now.
 *
 * Sensitive words (menu 10462): an item is sensitive when its title, description or incident
 * number contains a word (case-insensitive), or when it was marked sensitive by hand.
 */

/** delete_reason of items deleted by retention (the console translates it). */
export const RETENTION_REASON = 'retention';
/** Days of the preview when the request names none. */
export const RETENTION_PREVIEW_DAYS = 7;
/** Most rules of one policy. */
export const RETENTION_RULES_MAX = 200;

const days = between(z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }), 1, 36500);

export const RetentionRule = z.object({
  /** a media_category dictionary key */
  category: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .regex(/^[A-Za-z0-9_-]{1,32}$/, { error: 'validation.dict.key' }),
  days,
});
export type RetentionRule = z.infer<typeof RetentionRule>;

/** The policy: the rules and the default of file storage (read-only here). */
export const RetentionPolicy = z.object({
  rules: z.array(z.object({ category: z.string(), days: z.number().int(), updated: z.string() })),
  default_days: z.number().int(),
  /** when the job last ran ('' never) */
  last_run: z.string(),
});
export type RetentionPolicy = z.infer<typeof RetentionPolicy>;

/** Replaces every rule; a category once only, each known to the media_category dictionary. */
export const RetentionUpdateRequest = z.object({
  rules: z.array(RetentionRule).max(RETENTION_RULES_MAX, { error: 'validation.retention.tooMany' }),
});
export type RetentionUpdateRequest = z.infer<typeof RetentionUpdateRequest>;

/** Items due within the next `days` days (those already past due included), soonest first. */
export const RetentionPreviewRequest = PageQuery.extend({
  days: between(z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }), 0, 3650).default(
    RETENTION_PREVIEW_DAYS,
  ),
});
export type RetentionPreviewRequest = z.infer<typeof RetentionPreviewRequest>;

export const RetentionDueItem = z.object({
  id: z.number().int(),
  title: z.string(),
  file_name: z.string(),
  category: z.string(),
  unit_id: z.number().int(),
  unit_name: z.string(),
  recorded_at: z.string(),
  /** recorded_at + days */
  due_at: z.string(),
  /** the category whose rule applies, '' for the default */
  rule: z.string(),
  days: z.number().int(),
});
export type RetentionDueItem = z.infer<typeof RetentionDueItem>;

/** What one run did. */
export const RetentionRunAnswer = z.object({
  /** soft-deleted as due */
  deleted: z.number().int(),
  /** purged after the recovery window */
  purged: z.number().int(),
  /** due but linked to an open case or violation */
  exempt: z.number().int(),
});
export type RetentionRunAnswer = z.infer<typeof RetentionRunAnswer>;

// ---- sensitive words ------------------------------------------------------------------------

export const SensitiveWord = z.object({
  id: z.number().int(),
  word: z.string(),
  updated: z.string(),
});
export type SensitiveWord = z.infer<typeof SensitiveWord>;

const word = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(64, { error: 'validation.tooLong' });
const id = z.coerce.number({ error: 'validation.required' }).int({ error: 'validation.integer' }).positive({
  error: 'validation.range',
});

export const SensitiveWordListRequest = PageQuery.extend({ keyword: z.string().trim().max(64).optional() });
export type SensitiveWordListRequest = z.infer<typeof SensitiveWordListRequest>;
export const SensitiveWordAddRequest = z.object({ word });
export type SensitiveWordAddRequest = z.infer<typeof SensitiveWordAddRequest>;
export const SensitiveWordEditRequest = z.object({ id, word });
export type SensitiveWordEditRequest = z.infer<typeof SensitiveWordEditRequest>;
export const SensitiveWordDeleteRequest = z.object({
  ids: z.array(id).min(1, { error: 'validation.required' }).max(500, { error: 'validation.retention.tooManyWords' }),
});
export type SensitiveWordDeleteRequest = z.infer<typeof SensitiveWordDeleteRequest>;
