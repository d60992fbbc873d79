import {
  AnnounceStatus,
  MenuId,
  type AnnounceAddRequest,
  type AnnounceListQuery,
  type AnnounceUpdateRequest,
  type Announcement,
  type Page,
  type PageQuery,
} from '@bwc/protocol';
import { now, type Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import { Errors } from '../../http/errors';
import { roleCan } from '../auth/permission.repository';
import { presentAnnouncement, presentAnnouncementPage } from './announce.presenter';
import {
  deleteAnnouncements,
  existingAnnouncementIds,
  findAnnouncement,
  insertAnnouncement,
  listAnnouncements,
  listPublished,
  publishAnnouncements,
  updateAnnouncement,
} from './announce.repository';

export async function list(db: Db, query: AnnounceListQuery): Promise<Page<Announcement>> {
  return presentAnnouncementPage(await listAnnouncements(db, query), query.page, query.limit);
}

export async function published(db: Db, query: PageQuery): Promise<Page<Announcement>> {
  return presentAnnouncementPage(await listPublished(db, query.page, query.limit), query.page, query.limit);
}

/** A published announcement is readable by every logged-in user; a draft needs view on the announcement menu. */
export async function readableById(db: Db, user: AuthUser, id: number): Promise<Announcement> {
  const row = await findAnnouncement(db, id);
  if (!row) throw Errors.notFound('announcement');
  if (row.status !== AnnounceStatus.PUBLISHED && !(await roleCan(db, user.role_id, MenuId.ANNOUNCEMENTS, 'view'))) {
    throw Errors.forbidden(MenuId.ANNOUNCEMENTS, 'view');
  }
  return presentAnnouncement(row);
}

export async function byId(db: Db, id: number): Promise<Announcement> {
  const row = await findAnnouncement(db, id);
  if (!row) throw Errors.notFound('announcement');
  return presentAnnouncement(row);
}

/** New announcements start as drafts; the author is the caller. */
export async function add(db: Db, user: AuthUser, input: AnnounceAddRequest): Promise<Announcement> {
  const row = await insertAnnouncement(db, {
    title: input.title,
    content: input.content,
    author_id: user.id,
    author: user.hostname || user.username,
    ts: now(),
  });
  return presentAnnouncement(row);
}

export async function update(db: Db, input: AnnounceUpdateRequest): Promise<Announcement> {
  const row = await updateAnnouncement(db, input.id, { title: input.title, content: input.content, ts: now() });
  if (!row) throw Errors.notFound('announcement');
  return presentAnnouncement(row);
}

/** All or nothing: one unknown id changes nothing. */
async function onAll(db: Db, ids: number[], action: (trx: Db, ids: number[]) => Promise<void>): Promise<void> {
  const unique = [...new Set(ids)];
  await db.transaction().execute(async (trx) => {
    if ((await existingAnnouncementIds(trx, unique)).length !== unique.length) throw Errors.notFound('announcement');
    await action(trx, unique);
  });
}

export async function remove(db: Db, ids: number[]): Promise<void> {
  await onAll(db, ids, deleteAnnouncements);
}

export async function publish(db: Db, ids: number[]): Promise<void> {
  const ts = now();
  await onAll(db, ids, (trx, unique) => publishAnnouncements(trx, unique, ts));
}
