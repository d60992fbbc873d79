import { AnnounceStatus } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import type { AnnouncementRow } from '../../db/types';
import { contains, offsetOf } from '../system/search';

export interface AnnounceFilter {
  keyword?: string | undefined;
  status?: number | undefined;
  page: number;
  limit: number;
}

function filtered(db: Db, filter: Omit<AnnounceFilter, 'page' | 'limit'>) {
  let q = db.selectFrom('announcements');
  if (filter.keyword) q = q.where(contains('title', filter.keyword));
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  return q;
}

/** A page of announcements, newest first, and the total matching the filter. */
export async function listAnnouncements(
  db: Db,
  filter: AnnounceFilter,
): Promise<{ total: number; rows: AnnouncementRow[] }> {
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

/** Published announcements, latest publication first. */
export async function listPublished(
  db: Db,
  page: number,
  limit: number,
): Promise<{ total: number; rows: AnnouncementRow[] }> {
  return {
    total: Number(
      (
        await db
          .selectFrom('announcements')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', AnnounceStatus.PUBLISHED)
          .executeTakeFirstOrThrow()
      ).n,
    ),
    rows: await db
      .selectFrom('announcements')
      .selectAll()
      .where('status', '=', AnnounceStatus.PUBLISHED)
      .orderBy('published', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offsetOf(page, limit))
      .execute(),
  };
}

export async function findAnnouncement(db: Db, id: number): Promise<AnnouncementRow | undefined> {
  return db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAnnouncement(
  db: Db,
  values: { title: string; content: string; author_id: number; author: string; ts: string },
): Promise<AnnouncementRow> {
  return db
    .insertInto('announcements')
    .values({
      title: values.title,
      content: values.content,
      status: AnnounceStatus.DRAFT,
      author_id: values.author_id,
      author: values.author,
      created: values.ts,
      updated: values.ts,
      published: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateAnnouncement(
  db: Db,
  id: number,
  values: { title: string; content: string; ts: string },
): Promise<AnnouncementRow | undefined> {
  return db
    .updateTable('announcements')
    .set({ title: values.title, content: values.content, updated: values.ts })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Which of these ids exist. */
export async function existingAnnouncementIds(db: Db, ids: number[]): Promise<number[]> {
  const rows = await db.selectFrom('announcements').select('id').where('id', 'in', ids).execute();
  return rows.map((r) => r.id);
}

export async function deleteAnnouncements(db: Db, ids: number[]): Promise<void> {
  await db.deleteFrom('announcements').where('id', 'in', ids).execute();
}

/** Publish: status published; the first publication time is kept when published again. */
export async function publishAnnouncements(db: Db, ids: number[], ts: string): Promise<void> {
  await db
    .updateTable('announcements')
    .set((eb) => ({
      status: AnnounceStatus.PUBLISHED,
      updated: ts,
      published: eb.fn.coalesce('published', eb.val(ts)),
    }))
    .where('id', 'in', ids)
    .execute();
}
