import { ResultCode } from '@bwc/protocol';
import { sql, type Insertable, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import type { Database, OperationLogRow, OperationLogTable } from '../../db/types';

export interface OperationLogFilter {
  /** units whose entries are listed; null: all, including entries without a unit (failed logins) */
  unitIds: number[] | null;
  username?: string;
  userId?: number;
  action?: string;
  start?: string;
  end?: string;
  result?: 'success' | 'failure';
}

const like = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filtered(db: Db, f: OperationLogFilter): SelectQueryBuilder<Database, 'operation_log', object> {
  let q = db.selectFrom('operation_log');
  if (f.unitIds) q = q.where('unit_id', 'in', f.unitIds.length ? f.unitIds : [-1]);
  if (f.username) q = q.where(sql<boolean>`lower(username) like ${like(f.username)} escape '\\'`);
  if (f.userId) q = q.where('user_id', '=', f.userId);
  if (f.action) q = q.where(sql<boolean>`lower(action) like ${like(f.action)} escape '\\'`);
  if (f.start) q = q.where('created', '>=', f.start);
  if (f.end) q = q.where('created', '<=', f.end);
  if (f.result === 'success') q = q.where('result_code', '=', ResultCode.OK);
  if (f.result === 'failure') q = q.where('result_code', '!=', ResultCode.OK);
  return q;
}

export async function countOperationLog(db: Db, f: OperationLogFilter): Promise<number> {
  const row = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest first. */
export async function listOperationLog(
  db: Db,
  f: OperationLogFilter,
  limit: number,
  offset = 0,
): Promise<OperationLogRow[]> {
  return filtered(db, f)
    .selectAll()
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** One audited operation. */
export async function insertOperation(db: Db, row: Omit<Insertable<OperationLogTable>, 'id'>): Promise<void> {
  await db.insertInto('operation_log').values(row).execute();
}
