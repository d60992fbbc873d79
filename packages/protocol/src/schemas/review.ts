import { z } from 'zod';
import { PageQuery } from '../envelope';
import { MediaItem, MediaType } from './evidence';
import { DateTimeInput, numberInput, optionalId, optionalInput } from './inputs';

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
 * 0020.
 *
 * Rubrics (rubric_get, rubric_add, rubric_edit, rubric_active; /data/peerreview/review 10261: view
 * to list, add to create, edit to change or activate): 1..20 criteria with unique keys and a
 * positive most points. New scores use the one active rubric. Editing a rubric that no score used
 * changes it in place; editing one that has scores creates its next version (same `root_id`,
 * `version` + 1, active if the old one was) and leaves the old row as it was, so every score keeps
 * the rubric (name, version, criteria) it was made with. Only the newest version of a rubric can be
 * edited or activated.
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

/** The rubric a score was made with: its name and version. */
export const RubricRef = z.object({
  id: z.number().int(),
  name_zh: z.string(),
  name_en: z.string(),
  version: z.number().int(),
  criteria: z.array(ScoreCriterion),
});
export type RubricRef = z.infer<typeof RubricRef>;

/** POST rest/media/rubric_get: every rubric version, newest rubric first, versions newest first. */
export const RubricVersion = Rubric.extend({
  /** id of the rubric's first version (the same for all its versions) */
  root_id: z.number().int(),
  version: z.number().int(),
  /** 1: new scores use it */
  active: z.number().int(),
  /** 1: the newest version of its rubric (only it can be edited or activated) */
  latest: z.number().int(),
  /** scores made with this version (current and history) */
  scores: z.number().int(),
  updated: z.string(),
});
export type RubricVersion = z.infer<typeof RubricVersion>;

export const RUBRIC_CRITERIA_MAX = 20;
export const RUBRIC_POINTS_MAX = 1000;

const text = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.tooLong' });

/**
 * A rubric as written by its editor: a name (English optional: the Chinese one when empty) and
 * 1..20 criteria, each a key (letters, digits, `_`; unique within the rubric:
 * `validation.review.duplicateKey` on the repeated one), labels and most points (1..1000).
 */
export const RubricInput = z.object({
  name_zh: text(100),
  name_en: z.string().trim().max(100, { error: 'validation.tooLong' }).default(''),
  criteria: z
    .array(
      z.object({
        key: text(40).regex(/^[A-Za-z][A-Za-z0-9_]*$/, { error: 'validation.review.criterionKey' }),
        label_zh: text(40),
        label_en: z.string().trim().max(40, { error: 'validation.tooLong' }).default(''),
        max: numberInput(
          z
            .number({ error: 'validation.required' })
            .int({ error: 'validation.integer' })
            .min(1, { error: 'validation.range' })
            .max(RUBRIC_POINTS_MAX, { error: 'validation.range' }),
        ),
      }),
      { error: 'validation.required' },
    )
    .min(1, { error: 'validation.review.criteriaCount' })
    .max(RUBRIC_CRITERIA_MAX, { error: 'validation.review.criteriaCount' })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((c, i) => {
        if (seen.has(c.key))
          ctx.addIssue({ code: 'custom', message: 'validation.review.duplicateKey', path: [i, 'key'] });
        seen.add(c.key);
      });
    }),
});
export type RubricInput = z.infer<typeof RubricInput>;

/** POST rest/media/rubric_add: a new rubric (version 1, not active). Answers the RubricVersion. */
export const RubricAddRequest = RubricInput;
/** POST rest/media/rubric_edit `{id, ...}`: in place, or the next version when it has scores. */
export const RubricEditRequest = RubricInput.extend({
  id: numberInput(z.number({ error: 'validation.required' }).int().positive({ error: 'validation.range' })),
});
export type RubricEditRequest = z.infer<typeof RubricEditRequest>;
/** POST rest/media/rubric_active `{id}`: new scores use this rubric (the others are deactivated). */
export const RubricIdRequest = z.object({
  id: numberInput(z.number({ error: 'validation.required' }).int().positive({ error: 'validation.range' })),
});

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
  /** the rubric version the score was made with */
  rubric: RubricRef,
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

const percent = optionalInput(
  numberInput(
    z
      .number({ error: 'validation.number' })
      .min(0, { error: 'validation.range' })
      .max(100, { error: 'validation.range' }),
  ),
);

/**
 * POST rest/media/videoscore: the supervisors' list of items to score or scored (law and outside
 * items of the caller's units, not deleted). `scored` 0: nobody scored it yet, 1: scored by
 * anyone; `mine` 0: not scored by the caller, 1: scored by him; `user_id` the officer;
 * `score_min`/`score_max` bound the item's average percentage (only scored items match them).
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
  user_id: optionalId,
  score_min: percent,
  score_max: percent,
});
export type VideoScoreQuery = z.infer<typeof VideoScoreQuery>;

export const VideoScoreRow = MediaItem.extend({
  /** how many supervisors scored it */
  scorers: z.number().int(),
  /** the caller's percentage, null when he has not scored it */
  my_score: z.number().nullable(),
  /** the newest current score (scorer, time, rubric version), null when nobody scored it */
  last_score: z
    .object({
      user_name: z.string(),
      at: z.string(),
      total: z.number(),
      max_total: z.number().int(),
      rubric: RubricRef,
      items: z.array(z.object({ key: z.string(), score: z.number() })),
    })
    .nullable(),
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
