import type { Rubric, RubricInput, RubricRef, RubricVersion, ScoreCriterion } from '@bwc/protocol';
import type { Kysely, Selectable } from 'kysely';
import { isPostgres, now, type Db } from '../../../db/connection';
import { Errors } from '../../../http/errors';
import type { EvidenceRubricTable } from './review.tables';
import './review.tables';

/** Scoring rubrics and their versions (contract: packages/protocol/src/schemas/review.ts). */

type RubricRow = Selectable<EvidenceRubricTable>;

export const rubricNotFound = () => Errors.invalid('errors.review.rubricNotFound');

export function presentRubric(row: RubricRow): Rubric & { version: number } {
  const criteria = JSON.parse(row.criteria) as ScoreCriterion[];
  return {
    id: row.id,
    name_zh: row.name_zh,
    name_en: row.name_en,
    criteria,
    max_total: criteria.reduce((s, c) => s + c.max, 0),
    version: row.version,
  };
}

export const refOf = (row: RubricRow): RubricRef => {
  const { id, name_zh, name_en, version, criteria } = presentRubric(row);
  return { id, name_zh, name_en, version, criteria };
};

/** Rubric versions by id (for scores made with them). */
export async function rubricRefs(db: Db, ids: number[]): Promise<Map<number, RubricRef>> {
  const unique = [...new Set(ids)];
  const rows = unique.length
    ? await db.selectFrom('evidence_rubrics').selectAll().where('id', 'in', unique).execute()
    : [];
  return new Map(rows.map((r) => [r.id, refOf(r)]));
}

/** Every version, newest rubric first and within it newest version first, with its score count. */
export async function listRubrics(db: Db): Promise<RubricVersion[]> {
  const rows = await db
    .selectFrom('evidence_rubrics')
    .selectAll()
    .orderBy('root_id', 'desc')
    .orderBy('version', 'desc')
    .execute();
  const counts = await db
    .selectFrom('evidence_scores')
    .select(['rubric_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('rubric_id')
    .execute();
  const scored = new Map(counts.map((c) => [c.rubric_id, Number(c.n)]));
  const newest = new Map<number, number>();
  for (const r of rows) newest.set(r.root_id, Math.max(newest.get(r.root_id) ?? 0, r.version));
  return rows.map((r) => ({
    ...presentRubric(r),
    root_id: r.root_id,
    active: r.active,
    latest: newest.get(r.root_id) === r.version ? 1 : 0,
    scores: scored.get(r.id) ?? 0,
    updated: r.updated,
  }));
}

export async function rubricVersion(db: Db, id: number): Promise<RubricVersion> {
  const found = (await listRubrics(db)).find((r) => r.id === id);
  if (!found) throw rubricNotFound();
  return found;
}

const stored = (input: RubricInput) => ({
  name_zh: input.name_zh,
  name_en: input.name_en || input.name_zh,
  criteria: JSON.stringify(
    input.criteria.map((c) => ({ key: c.key, label_zh: c.label_zh, label_en: c.label_en || c.label_zh, max: c.max })),
  ),
  updated: now(),
});

/** A new rubric: version 1 of itself, not active. */
export async function addRubric(db: Db, input: RubricInput): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('evidence_rubrics')
      .values({ ...stored(input), active: 0, root_id: 0, version: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('evidence_rubrics').set({ root_id: id }).where('id', '=', id).execute();
    return id;
  });
}

/** The newest version of the rubric of `id`, locked; refuses an older version. */
async function latestRow(trx: Db, id: number): Promise<RubricRow> {
  const read = trx.selectFrom('evidence_rubrics').selectAll().where('id', '=', id);
  // PostgreSQL: concurrent edits of one rubric wait; SQLite runs one write transaction at a time
  const row = await (isPostgres(trx as Kysely<unknown>) ? read.forUpdate() : read).executeTakeFirst();
  if (!row) throw rubricNotFound();
  const newer = await trx
    .selectFrom('evidence_rubrics')
    .select('id')
    .where('root_id', '=', row.root_id)
    .where('version', '>', row.version)
    .executeTakeFirst();
  if (newer) throw Errors.invalid('errors.review.rubricSuperseded');
  return row;
}

/**
 * Change a rubric: in place while no score used it, else a new version (active if the old one
 * was; the old row keeps its criteria for the scores made with it). Answers the id now current.
 */
export async function editRubric(db: Db, id: number, input: RubricInput): Promise<{ id: number; versioned: boolean }> {
  return db.transaction().execute(async (trx) => {
    const row = await latestRow(trx, id);
    const used = await trx
      .selectFrom('evidence_scores')
      .select('id')
      .where('rubric_id', '=', row.id)
      .executeTakeFirst();
    if (!used) {
      await trx.updateTable('evidence_rubrics').set(stored(input)).where('id', '=', row.id).execute();
      return { id: row.id, versioned: false };
    }
    const { id: next } = await trx
      .insertInto('evidence_rubrics')
      .values({ ...stored(input), active: row.active, root_id: row.root_id, version: row.version + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (row.active) await trx.updateTable('evidence_rubrics').set({ active: 0 }).where('id', '=', row.id).execute();
    return { id: next, versioned: true };
  });
}

/** New scores use this rubric; every other one is deactivated. */
export async function activateRubric(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await latestRow(trx, id);
    await trx
      .updateTable('evidence_rubrics')
      .set({ active: 0 })
      .where('id', '!=', row.id)
      .where('active', '=', 1)
      .execute();
    await trx.updateTable('evidence_rubrics').set({ active: 1 }).where('id', '=', row.id).execute();
  });
}
