import { z } from 'zod';
import { PageQuery } from '../envelope';
import { MediaItem, MediaType } from './evidence';
import { DateTimeInput } from './oplog';
import { numberInput, optionalId, optionalInput } from './org';

/**
 * Review of evidence (issue 15 sections 2 and 5; spec part 2 section 7.3 rest/media/videoscore,
 * media_score_get, media_score_update; /data/check/random 10231 and /data/check/record 10232). The
 * spec shows only paths; the payloads are designed here.
 *
 * Scores: a supervisor scores a recording against a rubric (criteria with a key and most points).
 * Each scorer has one current score per item; saving again replaces it and the previous one stays
 * as history (not current). The item's `score` (MediaItem.score, the library's `scored` filter) is
 * the average over current scores of each score's percentage, `total / max_total * 100`, rounded to
 * one decimal: so scores stay comparable if the rubric's points change later. Reading scores needs
 * 'view' on a library menu, saving and the to-score list 'edit' on one (supervisors); every save
 * appends 'scored' to the item's chain of custody in the same transaction. A deleted item cannot be
 * scored. The built-in rubric 执法规范 (five criteria, 20 points each) is seeded by migration
 * 0020; an admin screen to edit rubrics is not built yet.
 *
 * Random checks: a supervisor (add on 10231) draws N (1..100) recordings at random from the items
 * of his units matching the filters (unit, recorded time range, media type; deleted items are
 * never drawn) into a check batch, then records a result per item (pass 合格, fail 不合格,
 * doubtful 存疑) and a note (edit on 10231); each result appends 'verified' with `{check_batch,
 * result}` to the item's chain. A draw appends nothing. The draw is reproducible: the batch stores
 * its seed, its filters and the largest item id that existed; the candidates are those ids in
 * ascending order, and a seeded generator (mulberry32) picks N of them by a partial Fisher-Yates
 * shuffle, so the same seed over the same candidates gives the same sample. /data/check/record
 * (view on 10232) lists batches of the caller's units with their counts.
 */

/** One criterion of a rubric: key, labels in both languages, most points. */
export const ScoreCriterion = z.object({
  key: z.string(),
  label_zh: z.string(),
  label_en: z.string(),
  max: z.number().int(),
});
export type ScoreCriterion = z.infer<typeof ScoreCriterion>;

export const Rubric = z.object({
  id: z.number().int(),
  name_zh: z.string(),
  name_en: z.string(),
  criteria: z.array(ScoreCriterion),
  /** sum of the criteria's most points */
  max_total: z.number().int(),
});
export type Rubric = z.infer<typeof Rubric>;

export const SCORE_COMMENT_MAX = 500;

/** One scorer's score of an item. */
export const MediaScore = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  user_name: z.string(),
  at: z.string(),
  items: z.array(z.object({ key: z.string(), score: z.number() })),
  comment: z.string(),
  total: z.number(),
  max_total: z.number().int(),
});
export type MediaScore = z.infer<typeof MediaScore>;

/** POST rest/media/media_score_get `{id}`: the rubric, the current scores, the caller's own. */
export const MediaScoreAnswer = z.object({
  media_id: z.number().int(),
  rubric: Rubric,
  /** current scores of every scorer, newest first */
  scores: z.array(MediaScore),
  /** the caller's current score, null when he has not scored it */
  mine: MediaScore.nullable(),
  /** the item's score: average percentage, null when never scored */
  average: z.number().nullable(),
});
export type MediaScoreAnswer = z.infer<typeof MediaScoreAnswer>;

const mediaId = numberInput(z.number({ error: 'validation.required' }).int().positive({ error: 'validation.range' }));

/**
 * POST rest/media/media_score_update `{id, items: [{key, score}], comment}`: every criterion of the
 * rubric once, each 0..its max (checked by the server against the rubric:
 * `validation.review.scoreRange`, `validation.review.criteria`). Answers MediaScoreAnswer.
 */
export const MediaScoreUpdate = z.object({
  id: mediaId,
  items: z
    .array(
      z.object({
        key: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(40),
        score: numberInput(z.number({ error: 'validation.number' }).min(0, { error: 'validation.range' })),
      }),
      { error: 'validation.required' },
    )
    .min(1, { error: 'validation.required' })
    .max(50),
  comment: z.string().trim().max(SCORE_COMMENT_MAX, { error: 'validation.tooLong' }).default(''),
});
export type MediaScoreUpdate = z.infer<typeof MediaScoreUpdate>;

const optionalDate = optionalInput(DateTimeInput);
const flag = optionalInput(numberInput(z.union([z.literal(0), z.literal(1)])));

/**
 * POST rest/media/videoscore: the supervisors' list of items to score or scored (law and outside
 * items of the caller's units, not deleted). `scored` 0: nobody scored it yet, 1: scored by
 * anyone; `mine` 0: not scored by the caller, 1: scored by him.
 */
export const VideoScoreQuery = PageQuery.extend({
  unit_id: optionalId,
  include_sub: z.union([z.literal(0), z.literal(1)]).default(1),
  scored: flag,
  mine: flag,
  media_type: optionalInput(numberInput(MediaType)),
  keyword: z.string().trim().max(100, { error: 'validation.tooLong' }).optional(),
  recorded_start: optionalDate,
  recorded_end: optionalDate,
});
export type VideoScoreQuery = z.infer<typeof VideoScoreQuery>;

export const VideoScoreRow = MediaItem.extend({
  /** how many supervisors scored it */
  scorers: z.number().int(),
  /** the caller's percentage, null when he has not scored it */
  my_score: z.number().nullable(),
});
export type VideoScoreRow = z.infer<typeof VideoScoreRow>;

/** Results of a checked item; 'pending' until recorded. */
export const CHECK_RESULTS = ['pass', 'fail', 'doubtful'] as const;
export const CheckResult = z.enum(CHECK_RESULTS, { error: 'validation.required' });
export type CheckResult = z.infer<typeof CheckResult>;
export const CHECK_SAMPLE_MAX = 100;
export const CHECK_NOTE_MAX = 500;

/** POST rest/media/checkrandom/draw: draw `count` items at random into a new batch. */
export const CheckDrawRequest = z.object({
  unit_id: optionalId,
  include_sub: z.union([z.literal(0), z.literal(1)]).default(1),
  recorded_start: optionalDate,
  recorded_end: optionalDate,
  media_type: optionalInput(numberInput(MediaType)),
  count: numberInput(
    z
      .number({ error: 'validation.required' })
      .int({ error: 'validation.integer' })
      .min(1, { error: 'validation.range' })
      .max(CHECK_SAMPLE_MAX, { error: 'validation.range' }),
  ),
  note: z.string().trim().max(CHECK_NOTE_MAX, { error: 'validation.tooLong' }).default(''),
});
export type CheckDrawRequest = z.infer<typeof CheckDrawRequest>;

/** The filters a batch was drawn with (stored with it). */
export const CheckFilters = z.object({
  unit_id: z.number().int().nullable(),
  include_sub: z.number().int(),
  recorded_start: z.string().nullable(),
  recorded_end: z.string().nullable(),
  media_type: z.number().int().nullable(),
});
export type CheckFilters = z.infer<typeof CheckFilters>;

export const CheckBatch = z.object({
  id: z.number().int(),
  unit_id: z.number().int(),
  unit_name: z.string(),
  created_by_name: z.string(),
  created_at: z.string(),
  note: z.string(),
  /** the generator's seed (uint32) */
  seed: z.number().int(),
  /** largest item id when drawn: the candidates are ids up to it */
  max_media_id: z.number().int(),
  filters: CheckFilters,
  requested: z.number().int(),
  /** items drawn (fewer than requested when fewer matched) */
  drawn: z.number().int(),
  pass: z.number().int(),
  fail: z.number().int(),
  doubtful: z.number().int(),
  pending: z.number().int(),
});
export type CheckBatch = z.infer<typeof CheckBatch>;

export const CheckItem = z.object({
  batch_id: z.number().int(),
  media_id: z.number().int(),
  /** order of the draw, from 1 */
  pos: z.number().int(),
  result: z.enum(['pending', ...CHECK_RESULTS]),
  note: z.string(),
  checked_by_name: z.string(),
  checked_at: z.string().nullable(),
  /** the item as the library shows it; null when it was purged since */
  media: MediaItem.nullable(),
});
export type CheckItem = z.infer<typeof CheckItem>;

/** POST rest/media/checkrandom/get `{id}` (and the draw's answer): the batch with its items. */
export const CheckBatchDetail = z.object({ batch: CheckBatch, items: z.array(CheckItem) });
export type CheckBatchDetail = z.infer<typeof CheckBatchDetail>;

export const CheckBatchIdRequest = z.object({ id: mediaId });

/** POST rest/media/checkrandom/result `{batch_id, media_id, result, note}`. Answers the CheckItem. */
export const CheckResultRequest = z.object({
  batch_id: mediaId,
  media_id: mediaId,
  result: CheckResult,
  note: z.string().trim().max(CHECK_NOTE_MAX, { error: 'validation.tooLong' }).default(''),
});
export type CheckResultRequest = z.infer<typeof CheckResultRequest>;

/** POST rest/media/checkrecord/get: batches of the caller's units, newest first. */
export const CheckRecordQuery = PageQuery.extend({
  unit_id: optionalId,
  include_sub: z.union([z.literal(0), z.literal(1)]).default(1),
  /** drawn from / to */
  start: optionalDate,
  end: optionalDate,
  /** 1: every item has a result, 0: some are pending */
  done: flag,
});
export type CheckRecordQuery = z.infer<typeof CheckRecordQuery>;
