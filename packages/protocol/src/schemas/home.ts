import { z } from 'zod';
import { Announcement } from './announce';
import { DownloadEntry } from './download';

/** How many of the latest published announcements the home page (/menu) lists. */
export const HOME_ANNOUNCE_COUNT = 10;

/** GET /rest/index/index/home: latest published announcements and the downloads flagged is_index. */
export const HomeData = z.object({ announcements: z.array(Announcement), downloads: z.array(DownloadEntry) });
export type HomeData = z.infer<typeof HomeData>;
