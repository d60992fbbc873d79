import type { CheckItem, RubricRef, ScoreCriterion } from '@bwc/protocol';

/** Query keys of the review screens. */
export const reviewKeys = {
  all: ['review'] as const,
  score: (id: number) => ['review', 'score', id] as const,
  batch: (id: number) => ['review', 'batch', id] as const,
  records: ['review', 'records'] as const,
  rubrics: ['review', 'rubrics'] as const,
  scoreList: ['review', 'scoreList'] as const,
};

/** Catalogue keys of the check results. */
export const RESULT_LABELS: Record<CheckItem['result'], string> = {
  pending: 'result.pending',
  pass: 'result.pass',
  fail: 'result.fail',
  doubtful: 'result.doubtful',
};
export const RESULT_COLORS: Record<CheckItem['result'], string> = {
  pending: 'default',
  pass: 'green',
  fail: 'red',
  doubtful: 'orange',
};

/** A criterion's label in the console's language (the server sends both). */
export const criterionLabel = (c: ScoreCriterion, lang: string) => (lang === 'en-US' ? c.label_en : c.label_zh);

/** Catalogue keys of the media types. */
export const TYPE_LABELS: Record<number, string> = { 1: 'type.1', 2: 'type.2', 3: 'type.3' };

/** The parameters of `rubric.nameVersion` (a rubric's name in the console's language and its version). */
export const rubricVersionParams = (r: Pick<RubricRef, 'name_zh' | 'name_en' | 'version'>, lang: string) => ({
  name: lang === 'en-US' ? r.name_en : r.name_zh,
  version: r.version,
});
