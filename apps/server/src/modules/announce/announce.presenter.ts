import type { Announcement, Page } from '@bwc/protocol';
import type { AnnouncementRow } from '../../db/types';

/** The only path from an announcement row to the wire (author_id stays inside). */
export function presentAnnouncement(row: AnnouncementRow): Announcement {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    status: row.status,
    author: row.author,
    create_time: row.created,
    update_time: row.updated,
    publish_time: row.published,
  };
}

export function presentAnnouncementPage(
  result: { total: number; rows: AnnouncementRow[] },
  page: number,
  limit: number,
): Page<Announcement> {
  return { total: result.total, page, limit, list: result.rows.map(presentAnnouncement) };
}
