import { CmdStatus, type VideoItem } from '@bwc/protocol';
import { ConsoleError, ConsoleErrors } from '../errors';
import { terminalsInScope } from '../directory';
import { defineHandler, type ConsoleHandler } from '../handler';
import { sees } from '../login';
import { findVideo, listVideos, markTransform, upsertVideo, type ListedVideo } from '../video.repository';

/**
 * Video family: terminals register the videos they recorded (req_report_video); consoles list
 * those of their unit scope (req_get_video_list, spec part 1 section 5: start below 0 is 0, length
 * 0 or below is 100) and ask the owning terminal to transfer one to an address
 * (req_transform_video -> notice_transform_video; empty videoId answers cmd_status 2, empty
 * videoUrl 3). req_get_push_video_users lists the terminals pushing live video: live video is not
 * built yet, so nobody is, and the list is truly empty.
 */
const iso = (ms: number) => new Date(ms).toISOString();

function present(row: ListedVideo): VideoItem {
  return {
    videoid: row.videoid,
    uid: row.device_id,
    ext_id: row.jq_hostcode,
    display_name: row.hostname || row.hostbody,
    name: row.name,
    url: row.url,
    starttime: row.starttime,
    endtime: row.endtime,
    size: Number(row.size),
    transform_url: row.transform_url,
  };
}

export const videoHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'req_report_video',
    handler: async ({ body, login, db }) => {
      if (body.endtime < body.starttime) throw ConsoleErrors.field('endtime', 'validation.timeRange');
      const stored = await upsertVideo(db, {
        videoid: body.videoid,
        device_id: login.device!.id,
        name: body.name,
        url: body.url,
        starttime: iso(body.starttime),
        endtime: iso(body.endtime),
        size: body.size,
      });
      if (!stored) throw ConsoleErrors.conflict('console.videoTaken', { videoid: body.videoid });
      return { videoid: body.videoid };
    },
  }),

  defineHandler({
    code: 'req_get_video_list',
    handler: async ({ body, login, db }) => {
      if (body.starttime !== undefined && body.endtime !== undefined && body.endtime < body.starttime)
        throw ConsoleErrors.field('endtime', 'validation.timeRange');
      const deviceIds = login.scope === null ? null : (await terminalsInScope(db, login)).map((t) => t.uid);
      const { total, rows } = await listVideos(db, {
        deviceIds,
        from: body.starttime === undefined ? undefined : iso(body.starttime),
        to: body.endtime === undefined ? undefined : iso(body.endtime),
        like: body.usercamnamelike.trim(),
        start: body.start,
        length: body.length,
      });
      return { total, start: body.start, length: body.length, videos: rows.map(present) };
    },
  }),

  defineHandler({
    code: 'req_transform_video',
    handler: async ({ body, login, db, service, after }) => {
      const videoid = body.videoid.trim();
      const videourl = body.videourl.trim();
      if (!videoid) throw new ConsoleError(CmdStatus.VIDEO_ID_EMPTY, 'console.videoIdEmpty');
      if (!videourl) throw new ConsoleError(CmdStatus.VIDEO_URL_EMPTY, 'console.videoUrlEmpty');
      const video = await findVideo(db, videoid);
      // a video of a terminal outside the scope is answered like one that does not exist
      if (!video || !sees(login, video.unit_id)) throw ConsoleErrors.notFound('console.videoNotFound', { videoid });
      await markTransform(db, videoid, videourl, login.uid);
      after(() => service.notify({ uids: [video.device_id] }, 'notice_transform_video', { videoid, videourl }));
      return { videoid, videourl };
    },
  }),

  defineHandler({
    code: 'req_get_push_video_users',
    handler: async () => ({ users: [] }),
  }),
];
