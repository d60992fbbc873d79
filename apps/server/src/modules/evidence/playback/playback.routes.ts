import {
  PLAYBACK_RESULTS_MAX,
  ResultCode,
  type MediaItem,
  type PlaybackMark,
  type PlaybackRecording,
  type PlaybackSearchAnswer,
  type PlaybackSearchRequest,
} from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from '../../../http/auth';
import { AppError, Errors } from '../../../http/errors';
import { defineRoute } from '../../../http/route';
import { unitScope } from '../../../http/scope';
import { appendCustody } from '../custody';
import * as libraryRepo from '../library/library.repository';
import { actorOf, REFUSAL, type BulkAnswer, type LibraryService } from '../library/library.service';
import * as repo from './playback.repository';

const notFound = (what: 'media' | 'device') =>
  new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: `errors.what.${what}` });

function single(answer: BulkAnswer): void {
  const refused = answer.refused[0];
  if (!refused) return;
  if (refused.reason === REFUSAL.notFound) throw notFound('media');
  throw Errors.invalid(refused.reason);
}

/**
 * History replay (issue 15 section 2): a device's recordings on a timeline and their play,
 * mark, revision and download, for /monitor/playback (videoreplay) and the dispatch mode
 * (gis/mediafile, gis/playback). Everything goes through the library service, so signed
 * addresses, revisions and custody are the library's own.
 */
export async function registerPlayback(app: FastifyInstance): Promise<void> {
  const library: LibraryService = app.evidenceLibrary;
  const db = app.db;

  /** The devices' recordings (and alarms) over the range; a device outside the scope is not found. */
  async function search(user: AuthUser, q: PlaybackSearchRequest): Promise<PlaybackSearchAnswer> {
    const scope = await unitScope(db, user);
    const ids = [...new Set(q.ids)];
    const devices = await repo.devicesIn(db, scope, ids);
    if (devices.length !== ids.length) throw notFound('device');
    const rows = await repo.recordingsOf(db, scope, ids, q.start, q.end, PLAYBACK_RESULTS_MAX + 1);
    const key = await library.key();
    const recordings: PlaybackRecording[] = [];
    for (const r of rows.slice(0, PLAYBACK_RESULTS_MAX)) {
      const seconds = r.duration === null ? 0 : Math.max(0, Number(r.duration));
      const end = new Date(Date.parse(r.recorded_at) + seconds * 1000).toISOString();
      // begun before the range and over before it
      if (end < q.start) continue;
      recordings.push({
        id: r.id,
        device_id: r.device_id!,
        media_type: r.media_type as 1 | 2 | 3,
        title: r.title,
        recorded_at: r.recorded_at,
        duration: r.duration === null ? null : Number(r.duration),
        end,
        flg: r.flg,
        playable: r.playable as MediaItem['playable'],
        thumb_url: r.thumb_sha256 ? library.sign(key, 'thumb', r.id, user.id).url : '',
      });
    }
    const alarms = await repo.alarmsOf(db, ids, q.start, q.end, PLAYBACK_RESULTS_MAX + 1);
    return {
      start: q.start,
      end: q.end,
      devices,
      recordings,
      alarms: alarms.slice(0, PLAYBACK_RESULTS_MAX).map((a): PlaybackMark => ({
        device_id: a.device_id!,
        type: 'alarm',
        time: a.alarm_time,
        end: null,
        media_id: null,
        alarm_type: a.type,
        label: a.message,
      })),
      truncated: rows.length > PLAYBACK_RESULTS_MAX || alarms.length > PLAYBACK_RESULTS_MAX,
    };
  }

  /** The item with a signed play address; custody 'viewed' as mediaView. */
  async function info(user: AuthUser, ip: string, id: number) {
    const row = await library.visible(await unitScope(db, user), id);
    if (!row || row.deleted_at !== null) throw notFound('media');
    await db
      .transaction()
      .execute((trx) => appendCustody(trx, row.id, 'viewed', actorOf(user, ip), {}, new Date(library.clock())));
    const key = await library.key();
    const play = library.sign(key, 'play', row.id, user.id);
    return {
      item: library.present(row, key, user.id),
      play_url: play.url,
      play_mime: row.derivative_sha256 ? (row.media_type === 2 ? 'audio/mp4' : 'video/mp4') : row.mime,
      expires: play.expires,
    };
  }

  /** A signed download address as mediaDownload (the hash is checked again at the fetch). */
  async function download(user: AuthUser, id: number) {
    const row = await library.visible(await unitScope(db, user), id);
    if (!row || row.deleted_at !== null) throw notFound('media');
    const signed = library.sign(await library.key(), 'download', row.id, user.id);
    return { url: signed.url, file_name: row.file_name, sha256: row.sha256, expires: signed.expires };
  }

  const presentOne = async (id: number, uid: number) => {
    const row = await libraryRepo.findItem(db, id);
    if (!row) throw notFound('media');
    return library.present(row, await library.key(), uid);
  };

  defineRoute(app, {
    api: 'replayDevices',
    handler: async ({ user, body }) => repo.findDevices(db, await unitScope(db, user), body.keyword, body.limit),
  });
  defineRoute(app, { api: 'replaySearch', handler: async ({ user, body }) => search(user, body) });
  defineRoute(app, { api: 'replayInfo', handler: async ({ user, body, req }) => info(user, req.ip, body.id) });
  defineRoute(app, {
    api: 'replaySave',
    msg: 'success.saved',
    handler: async ({ user, body, req }) => {
      const scope = await unitScope(db, user);
      const who = actorOf(user, req.ip);
      const row = await library.visible(scope, body.id);
      if (!row) throw notFound('media');
      const fields: { title?: string; description?: string } = {};
      if (body.title !== undefined && body.title !== row.title) fields.title = body.title;
      if (body.description !== undefined && body.description !== row.description) fields.description = body.description;
      const flagChanges = body.flg !== undefined && body.flg !== row.flg;
      if (!flagChanges && fields.title === undefined && fields.description === undefined)
        throw Errors.invalid(REFUSAL.noChange);
      if (fields.title !== undefined || fields.description !== undefined)
        single(await library.revise(scope, who, [row.id], fields, body.reason));
      if (flagChanges) single(await library.flag(scope, who, [row.id], body.flg!));
      return presentOne(row.id, user.id);
    },
  });
  defineRoute(app, {
    api: 'replayDownload',
    msg: 'success.ok',
    handler: async ({ user, body }) => download(user, body.id),
  });

  defineRoute(app, { api: 'mediafileSearch', handler: async ({ user, body }) => search(user, body) });
  defineRoute(app, {
    api: 'mediafileMarks',
    handler: async ({ user, body }) => {
      const answer = await search(user, body);
      const marks: PlaybackMark[] = [
        ...answer.recordings.map((r): PlaybackMark => ({
          device_id: r.device_id,
          type: 'recording',
          time: r.recorded_at,
          end: r.end,
          media_id: r.id,
          alarm_type: '',
          label: r.title,
        })),
        ...answer.alarms,
      ];
      marks.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.device_id - b.device_id));
      return { marks, truncated: answer.truncated };
    },
  });
  defineRoute(app, {
    api: 'mediafileDownload',
    msg: 'success.ok',
    handler: async ({ user, body }) => download(user, body.id),
  });
  defineRoute(app, { api: 'playbackInfo', handler: async ({ user, body, req }) => info(user, req.ip, body.id) });
  defineRoute(app, {
    api: 'playbackFlag',
    msg: 'success.saved',
    handler: async ({ user, body, req }) => {
      single(await library.flag(await unitScope(db, user), actorOf(user, req.ip), [body.id], body.flg));
      return presentOne(body.id, user.id);
    },
  });
}
