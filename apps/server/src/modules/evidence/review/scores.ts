import type { MediaScore, MediaScoreAnswer, Rubric, RubricRef, VideoScoreQuery, VideoScoreRow } from '@bwc/protocol';
import { sql } from 'kysely';
import { isPostgres, type Db } from '../../../db/connection';
import { AppError, Errors } from '../../../http/errors';
import type { UnitScope } from '../../../http/scope';
import { ResultCode } from '@bwc/protocol';
import type { Kysely, Selectable } from 'kysely';
import type { EvidenceScoreTable } from './review.tables';
import { presentRubric, rubricRefs } from './rubrics';
import './review.tables';

/** Scores of evidence items against a rubric (contract: packages/protocol/src/schemas/review.ts). */

export const noRubric = () => new AppError(ResultCode.INVALID, 'errors.review.noRubric');

/** The rubric new scores use: the newest active one. */
export async function activeRubric(db: Db): Promise<Rubric> {
  const row = await db
    .selectFrom('evidence_rubrics')
    .selectAll()
    .where('active', '=', 1)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row) throw noRubric();
  return presentRubric(row);
}

/** Every criterion once, each 0..max; the total. Throws a field error naming the problem. */
export function checkScores(
  rubric: Rubric,
  items: { key: string; score: number }[],
  lang: string,
): { items: { key: string; score: number }[]; total: number } {
  const keys = rubric.criteria.map((c) => c.key);
  const given = items.map((i) => i.key);
  if (given.length !== keys.length || new Set(given).size !== given.length || !keys.every((k) => given.includes(k)))
    throw Errors.field('items', 'validation.review.criteria', { keys: keys.join(', ') });
  const ordered = rubric.criteria.map((c) => {
    const score = items.find((i) => i.key === c.key)!.score;
    if (!(score >= 0 && score <= c.max))
      throw Errors.field('items', 'validation.review.scoreRange', {
        label: lang === 'en-US' ? c.label_en : c.label_zh,
        max: c.max,
      });
    return { key: c.key, score };
  });
  return { items: ordered, total: round1(ordered.reduce((s, i) => s + i.score, 0)) };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
export const percentOf = (total: number, max: number) => (max > 0 ? round1((Number(total) / max) * 100) : 0);

type ScoreRow = Selectable<EvidenceScoreTable>;

/** A rubric version that was removed from the table (never done by the console). */
const unknownRubric = (id: number): RubricRef => ({ id, name_zh: '', name_en: '', version: 0, criteria: [] });

export function presentScore(r: ScoreRow, refs: Map<number, RubricRef>): MediaScore {
  return {
    id: r.id,
    user_id: r.user_id,
    user_name: r.user_name,
    at: r.at,
    items: JSON.parse(r.items) as MediaScore['items'],
    comment: r.comment,
    total: Number(r.total),
    max_total: r.max_total,
    rubric: refs.get(r.rubric_id) ?? unknownRubric(r.rubric_id),
  };
}

export const currentScores = (db: Db, mediaId: number) =>
  db
    .selectFrom('evidence_scores')
    .selectAll()
    .where('media_id', '=', mediaId)
    .where('current', '=', 1)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .execute();

/** The item's score: the average of the current scores' percentages, null when none. */
export function averageOf(rows: readonly ScoreRow[]): number | null {
  if (!rows.length) return null;
  return round1(rows.reduce((s, r) => s + percentOf(r.total, r.max_total), 0) / rows.length);
}

/**
 * Inside the score's transaction: the rubric the score was checked against is still as it was (an
 * edit in place of an unscored rubric may have run meanwhile). PostgreSQL: the shared row lock
 * makes a concurrent rubric edit wait, and then see this score (so it makes a new version).
 */
export async function holdRubric(trx: Db, rubric: Rubric): Promise<void> {
  const read = trx.selectFrom('evidence_rubrics').select('criteria').where('id', '=', rubric.id);
  const row = await (isPostgres(trx as Kysely<unknown>) ? read.forShare() : read).executeTakeFirst();
  if (!row || JSON.stringify(JSON.parse(row.criteria)) !== JSON.stringify(rubric.criteria))
    throw new AppError(ResultCode.INVALID, 'errors.review.rubricChanged');
}

/** Save the caller's score inside the item's transaction: the previous one becomes history. */
export async function saveScore(
  trx: Db,
  row: Omit<ScoreRow, 'id' | 'current'>,
): Promise<{ average: number | null; replaced: number | null }> {
  // PostgreSQL: the item row lock makes a concurrent save of the same item wait (one current score
  // per scorer); SQLite runs one write transaction at a time
  if (isPostgres(trx as Kysely<unknown>))
    await trx.selectFrom('evidence_items').select('id').where('id', '=', row.media_id).forUpdate().execute();
  const previous = await trx
    .selectFrom('evidence_scores')
    .select('id')
    .where('media_id', '=', row.media_id)
    .where('user_id', '=', row.user_id)
    .where('current', '=', 1)
    .executeTakeFirst();
  if (previous) await trx.updateTable('evidence_scores').set({ current: 0 }).where('id', '=', previous.id).execute();
  await trx
    .insertInto('evidence_scores')
    .values({ ...row, current: 1 })
    .execute();
  const average = averageOf(await currentScores(trx, row.media_id));
  await trx.updateTable('evidence_items').set({ score: average }).where('id', '=', row.media_id).execute();
  return { average, replaced: previous?.id ?? null };
}

export async function scoreAnswer(db: Db, mediaId: number, userId: number): Promise<MediaScoreAnswer> {
  const rows = await currentScores(db, mediaId);
  const refs = await rubricRefs(
    db,
    rows.map((r) => r.rubric_id),
  );
  const scores = rows.map((r) => presentScore(r, refs));
  return {
    media_id: mediaId,
    rubric: await activeRubric(db),
    scores,
    mine: scores.find((s) => s.user_id === userId) ?? null,
    average: averageOf(rows),
  };
}

/** One page of the to-score list: ids of live items of the scope, newest recording first. */
export async function scoreListIds(
  db: Db,
  scope: UnitScope,
  userId: number,
  f: VideoScoreQuery & { unitIds?: number[] },
): Promise<{ total: number; ids: number[] }> {
  let q = db.selectFrom('evidence_items as e').where('e.purged_at', 'is', null).where('e.deleted_at', 'is', null);
  if (!scope.all) q = q.where('e.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  if (f.unitIds) q = q.where('e.unit_id', 'in', f.unitIds.length ? f.unitIds : [-1]);
  if (f.media_type !== undefined) q = q.where('e.media_type', '=', f.media_type);
  if (f.scored === 1) q = q.where('e.score', 'is not', null);
  if (f.scored === 0) q = q.where('e.score', 'is', null);
  if (f.user_id !== undefined) q = q.where('e.user_id', '=', f.user_id);
  if (f.score_min !== undefined) q = q.where('e.score', '>=', f.score_min);
  if (f.score_max !== undefined) q = q.where('e.score', '<=', f.score_max);
  if (f.recorded_start) q = q.where('e.recorded_at', '>=', f.recorded_start);
  if (f.recorded_end) q = q.where('e.recorded_at', '<=', f.recorded_end);
  if (f.keyword) {
    const like = `%${f.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or(
        (['e.title', 'e.file_name', 'e.hostbody', 'e.incident_no'] as const).map(
          (c) => sql<boolean>`${sql.ref(c)} like ${like} escape '\\'`,
        ),
      ),
    );
  }
  if (f.mine !== undefined) {
    const mine = f.mine;
    q = q.where((eb) => {
      const sub = eb
        .selectFrom('evidence_scores as s')
        .select('s.id')
        .whereRef('s.media_id', '=', 'e.id')
        .where('s.user_id', '=', userId)
        .where('s.current', '=', 1);
      return mine === 1 ? eb.exists(sub) : eb.not(eb.exists(sub));
    });
  }
  const counted = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const ids = await q
    .select('e.id')
    .orderBy('e.recorded_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  return { total: Number(counted?.n ?? 0), ids: ids.map((r) => r.id) };
}

type Stats = Pick<VideoScoreRow, 'scorers' | 'my_score' | 'last_score'>;

/** Scorer counts, the caller's percentage and the newest current score of some items. */
export async function scoreStats(db: Db, ids: number[], userId: number): Promise<Map<number, Stats>> {
  const rows = ids.length
    ? await db
        .selectFrom('evidence_scores')
        .selectAll()
        .where('media_id', 'in', ids)
        .where('current', '=', 1)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    : [];
  const refs = await rubricRefs(
    db,
    rows.map((r) => r.rubric_id),
  );
  const stats = new Map<number, Stats>();
  for (const id of ids) stats.set(id, { scorers: 0, my_score: null, last_score: null });
  for (const r of rows) {
    const s = stats.get(r.media_id)!;
    s.scorers++;
    if (r.user_id === userId) s.my_score = percentOf(r.total, r.max_total);
    if (!s.last_score) {
      const p = presentScore(r, refs);
      s.last_score = {
        user_name: p.user_name,
        at: p.at,
        total: p.total,
        max_total: p.max_total,
        rubric: p.rubric,
        items: p.items,
      };
    }
  }
  return stats;
}
