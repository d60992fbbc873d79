import { randomInt } from 'node:crypto';
import {
  ResultCode,
  type CheckBatch,
  type CheckDrawRequest,
  type CheckFilters,
  type CheckItem,
  type CheckRecordQuery,
} from '@bwc/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../../db/connection';
import { AppError } from '../../../http/errors';
import { inScope, type UnitScope } from '../../../http/scope';
import type { EvidenceCheckBatchTable, EvidenceCheckItemTable } from './review.tables';
import './review.tables';

/** Random check batches (contract: packages/protocol/src/schemas/review.ts). */

export const batchNotFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.review.batchNotFound');

export const newSeed = () => randomInt(0, 2 ** 32);

/**
 * The ids a batch draws from: live items of the scope matching the filters, up to `maxId`,
 * ascending. (All ids are read: a draw over a million items holds a few MB for a moment.)
 */
export async function candidateIds(
  db: Db,
  scope: UnitScope,
  unitIds: number[] | undefined,
  f: Pick<CheckDrawRequest, 'recorded_start' | 'recorded_end' | 'media_type'>,
  maxId: number,
): Promise<number[]> {
  let q = db
    .selectFrom('evidence_items as e')
    .select('e.id')
    .where('e.purged_at', 'is', null)
    .where('e.deleted_at', 'is', null)
    .where('e.id', '<=', maxId);
  if (!scope.all) q = q.where('e.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  if (unitIds) q = q.where('e.unit_id', 'in', unitIds.length ? unitIds : [-1]);
  if (f.media_type !== undefined) q = q.where('e.media_type', '=', f.media_type);
  if (f.recorded_start) q = q.where('e.recorded_at', '>=', f.recorded_start);
  if (f.recorded_end) q = q.where('e.recorded_at', '<=', f.recorded_end);
  return (await q.orderBy('e.id').execute()).map((r) => r.id);
}

export async function maxMediaId(db: Db): Promise<number> {
  const r = await db
    .selectFrom('evidence_items')
    .select((eb) => eb.fn.max('id').as('m'))
    .executeTakeFirst();
  return Number(r?.m ?? 0);
}

type BatchRow = Selectable<EvidenceCheckBatchTable> & { unit_name: string | null };
type ItemRow = Selectable<EvidenceCheckItemTable>;

const batchQuery = (db: Db) =>
  db
    .selectFrom('evidence_check_batches as b')
    .leftJoin('units as un', 'un.id', 'b.unit_id')
    .selectAll('b')
    .select('un.name as unit_name');

/** A batch of the caller's units, else "not found". */
export async function loadBatch(db: Db, scope: UnitScope, id: number): Promise<BatchRow> {
  const row = await batchQuery(db).where('b.id', '=', id).executeTakeFirst();
  if (!row || !inScope(scope, row.unit_id)) throw batchNotFound();
  return row;
}

export const batchItems = (db: Db, batchId: number) =>
  db.selectFrom('evidence_check_items').selectAll().where('batch_id', '=', batchId).orderBy('pos').execute();

async function countsOf(db: Db, ids: number[]) {
  const rows = ids.length
    ? await db
        .selectFrom('evidence_check_items')
        .select(['batch_id', 'result'])
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('batch_id', 'in', ids)
        .groupBy(['batch_id', 'result'])
        .execute()
    : [];
  const counts = new Map<number, Record<'pass' | 'fail' | 'doubtful' | 'pending', number>>();
  for (const id of ids) counts.set(id, { pass: 0, fail: 0, doubtful: 0, pending: 0 });
  for (const r of rows) {
    const c = counts.get(r.batch_id)!;
    if (r.result in c) c[r.result as keyof typeof c] = Number(r.n);
  }
  return counts;
}

export async function presentBatches(db: Db, rows: BatchRow[]): Promise<CheckBatch[]> {
  const counts = await countsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    unit_id: r.unit_id,
    unit_name: r.unit_name ?? '',
    created_by_name: r.created_by_name,
    created_at: r.created_at,
    note: r.note,
    seed: Number(r.seed),
    max_media_id: r.max_media_id,
    filters: JSON.parse(r.filters) as CheckFilters,
    requested: r.requested,
    drawn: r.drawn,
    ...counts.get(r.id)!,
  }));
}

export const presentItem = (r: ItemRow, media: CheckItem['media']): CheckItem => ({
  batch_id: r.batch_id,
  media_id: r.media_id,
  pos: r.pos,
  result: r.result as CheckItem['result'],
  note: r.note,
  checked_by_name: r.checked_by_name,
  checked_at: r.checked_at,
  media,
});

/** One page of batches of the scope, newest first. */
export async function listBatches(
  db: Db,
  scope: UnitScope,
  f: CheckRecordQuery & { unitIds?: number[] },
): Promise<{ total: number; rows: BatchRow[] }> {
  let q = db.selectFrom('evidence_check_batches as b');
  if (!scope.all) q = q.where('b.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  if (f.unitIds) q = q.where('b.unit_id', 'in', f.unitIds.length ? f.unitIds : [-1]);
  if (f.start) q = q.where('b.created_at', '>=', f.start);
  if (f.end) q = q.where('b.created_at', '<=', f.end);
  if (f.done !== undefined) {
    const done = f.done;
    q = q.where((eb) => {
      const pending = eb
        .selectFrom('evidence_check_items as i')
        .select('i.media_id')
        .whereRef('i.batch_id', '=', 'b.id')
        .where('i.result', '=', 'pending');
      return done === 1 ? eb.not(eb.exists(pending)) : eb.exists(pending);
    });
  }
  const counted = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const ids = (
    await q
      .select('b.id')
      .orderBy('b.created_at', 'desc')
      .orderBy('b.id', 'desc')
      .limit(f.limit)
      .offset((f.page - 1) * f.limit)
      .execute()
  ).map((r) => r.id);
  const rows = ids.length ? await batchQuery(db).where('b.id', 'in', ids).execute() : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { total: Number(counted?.n ?? 0), rows: ids.map((id) => byId.get(id)!) };
}
