import { sql } from 'kysely';
import { now, type Db } from '../../db/connection';
import type { ConsoleVideoRow, ConsoleVideoTable } from './console.tables';
import './console.tables';

/** SQL of terminals' recorded videos (console_videos). */

/** What a terminal reports of a video (times ISO). */
export type VideoRecord = Pick<
  ConsoleVideoTable,
  'videoid' | 'device_id' | 'name' | 'url' | 'starttime' | 'endtime' | 'size'
>;

/** A video row with its terminal's names, as the list shows it. */
export type ListedVideo = ConsoleVideoRow & { jq_hostcode: string; hostname: string; hostbody: string };

/** A video with its terminal's unit. */
export const findVideo = (db: Db, videoid: string): Promise<(ConsoleVideoRow & { unit_id: number }) | undefined> =>
  db
    .selectFrom('console_videos as v')
    .innerJoin('devices as d', 'd.id', 'v.device_id')
    .selectAll('v')
    .select('d.unit_id')
    .where('v.videoid', '=', videoid)
    .executeTakeFirst();

/**
 * Store a terminal's video, or update it when the same terminal reports it again. Answers false
 * (nothing written) when the id already belongs to another terminal's video.
 */
export async function upsertVideo(db: Db, video: VideoRecord): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('console_videos')
      .select('device_id')
      .where('videoid', '=', video.videoid)
      .executeTakeFirst();
    if (existing && existing.device_id !== video.device_id) return false;
    if (existing) {
      const { videoid, device_id: _device, ...rest } = video;
      await trx.updateTable('console_videos').set(rest).where('videoid', '=', videoid).execute();
    } else {
      await trx
        .insertInto('console_videos')
        .values({ ...video, transform_url: '', transform_by: null, transform_time: '', created: now() })
        .execute();
    }
    return true;
  });
}

export interface VideoQuery {
  /** devices whose videos may be listed; null: all */
  deviceIds: readonly number[] | null;
  /** ISO bounds on the video's start time */
  from?: string;
  to?: string;
  /** matched against the video's name and its terminal's name, hostbody and cluster number */
  like: string;
  start: number;
  length: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of videos, newest first, with the total matching. */
export async function listVideos(db: Db, q: VideoQuery): Promise<{ total: number; rows: ListedVideo[] }> {
  if (q.deviceIds && !q.deviceIds.length) return { total: 0, rows: [] };
  let base = db.selectFrom('console_videos as v').innerJoin('devices as d', 'd.id', 'v.device_id');
  if (q.deviceIds) base = base.where('v.device_id', 'in', [...q.deviceIds]);
  if (q.from) base = base.where('v.starttime', '>=', q.from);
  if (q.to) base = base.where('v.starttime', '<=', q.to);
  if (q.like) {
    const pattern = `%${escapeLike(q.like.toLowerCase())}%`;
    base = base.where((eb) =>
      eb.or(
        ['v.name', 'd.hostname', 'd.hostbody', 'd.jq_hostcode'].map(
          (col) => sql<boolean>`lower(${sql.ref(col)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  const count = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  const rows = await base
    .selectAll('v')
    .select(['d.jq_hostcode', 'd.hostname', 'd.hostbody'])
    .orderBy('v.starttime', 'desc')
    .orderBy('v.videoid')
    .offset(q.start)
    .limit(q.length)
    .execute();
  return { total: Number(count?.n ?? 0), rows };
}

/** Record a transfer request on the video. */
export async function markTransform(db: Db, videoid: string, url: string, by: number): Promise<void> {
  await db
    .updateTable('console_videos')
    .set({ transform_url: url, transform_by: by, transform_time: now() })
    .where('videoid', '=', videoid)
    .execute();
}
