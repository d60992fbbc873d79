import { HOME_ANNOUNCE_COUNT, type HomeData } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { presentAnnouncement } from '../announce/announce.presenter';
import { listPublished } from '../announce/announce.repository';
import { presentDownload } from '../download/download.presenter';
import { indexDownloads } from '../download/download.repository';

/** The latest published announcements and the download entries flagged is_index. */
export async function homeData(db: Db): Promise<HomeData> {
  const announcements = await listPublished(db, 1, HOME_ANNOUNCE_COUNT);
  return {
    announcements: announcements.rows.map(presentAnnouncement),
    downloads: (await indexDownloads(db)).map(presentDownload),
  };
}
