import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection';
import type { DownloadRow, DownloadTable } from '../../db/types';
import { contains, offsetOf } from '../system/search';

export interface DownloadFilter {
  keyword?: string | undefined;
  is_index?: number | undefined;
  page: number;
  limit: number;
}

function filtered(db: Db, filter: Omit<DownloadFilter, 'page' | 'limit'>) {
  let q = db.selectFrom('downloads');
  if (filter.keyword) q = q.where(contains('name', filter.keyword));
  if (filter.is_index !== undefined) q = q.where('is_index', '=', filter.is_index);
  return q;
}

export async function listDownloads(db: Db, filter: DownloadFilter): Promise<{ total: number; rows: DownloadRow[] }> {
  const { n } = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await filtered(db, filter)
    .selectAll()
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(offsetOf(filter.page, filter.limit))
    .execute();
  return { total: Number(n), rows };
}

/** Every entry (download center), home-page entries first, newest first. */
export async function allDownloads(db: Db): Promise<DownloadRow[]> {
  return db.selectFrom('downloads').selectAll().orderBy('is_index', 'desc').orderBy('id', 'desc').execute();
}

export async function indexDownloads(db: Db): Promise<DownloadRow[]> {
  return db.selectFrom('downloads').selectAll().where('is_index', '=', 1).orderBy('id', 'desc').execute();
}

export async function findDownload(db: Db, id: number): Promise<DownloadRow | undefined> {
  return db.selectFrom('downloads').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findDownloads(db: Db, ids: number[]): Promise<DownloadRow[]> {
  return db.selectFrom('downloads').selectAll().where('id', 'in', ids).execute();
}

export async function insertDownload(db: Db, values: Insertable<DownloadTable>): Promise<DownloadRow> {
  return db.insertInto('downloads').values(values).returningAll().executeTakeFirstOrThrow();
}

export type DownloadChanges = Partial<
  Pick<
    DownloadRow,
    'name' | 'description' | 'version' | 'is_index' | 'file_name' | 'stored_name' | 'file_size' | 'sha256'
  >
> & { updated: string };

export async function updateDownload(db: Db, id: number, changes: DownloadChanges): Promise<DownloadRow | undefined> {
  return db.updateTable('downloads').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteDownloads(db: Db, ids: number[]): Promise<void> {
  await db.deleteFrom('downloads').where('id', 'in', ids).execute();
}
