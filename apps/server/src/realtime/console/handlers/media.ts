import { MEDIA_NOTICES, type LivePlay, type MediaCode } from '@bwc/protocol';
import { now } from '../../../db/connection';
import { AppError } from '../../../http/errors';
import { findDevice } from '../../../modules/devices/devices.repository';
import { requireUsers } from '../directory';
import { ConsoleErrors } from '../errors';
import { defineHandler, type ConsoleHandler, type HandlerContext } from '../handler';
import { isConsoleUid, userIdOfConsoleUid } from '../login';
import { insertMediaRequest } from '../media.repository';

/**
 * The video codes besides live video of a terminal: their media comes with later issues (calls are
 * handlers/call.ts, push-to-talk handlers/talk.ts, conferences handlers/conference.ts). Until then
 * each request is checked (rule, then schema, by the dispatcher), its party resolved (the target
 * user it names: one the caller may not see is answered as not found), stored as state
 * (console_media_requests), its target told (the code's notice of MEDIA_NOTICES, with
 * `available: 0`, never the caller) and answered NOT_AVAILABLE naming its code. Never dropped.
 */
async function mediaRequest(code: MediaCode, ctx: HandlerContext<MediaCode>): Promise<never> {
  const { login, db, service } = ctx;
  const body = ctx.body as Record<string, unknown> & { target?: number; exttarget?: string };
  let targetUid: number | null = null;
  let parties: number[] = [];
  if (body.target !== undefined || body.exttarget !== undefined) {
    const [user] = await requireUsers(
      db,
      login,
      body.target !== undefined ? [body.target] : [],
      body.target === undefined && body.exttarget !== undefined ? [body.exttarget] : [],
    );
    targetUid = user!.uid;
    parties = [user!.uid];
  }
  await insertMediaRequest(db, {
    code,
    from_uid: login.uid,
    target_uid: targetUid,
    tgid: null,
    payload: JSON.stringify(body),
    outcome: 'not_available',
    created: now(),
  });
  const notice = MEDIA_NOTICES[code];
  const others = [...new Set(parties)].filter((uid) => uid !== login.uid);
  if (notice && others.length > 0)
    service.notify({ uids: others }, notice, {
      ...body,
      request: code,
      from: login.uid,
      extfrom: login.ext_id,
      available: 0,
    });
  throw ConsoleErrors.notAvailable(code);
}

/**
 * req_play_video / req_stop_play_video of a console about a terminal: real live video (issue 13,
 * modules/media/live.service.ts). The terminal is told (notice, `available: 1`; the publish URL
 * comes with its `startlive` command) and, the code being fire-and-forget in the SDK, the asking
 * console gets its play paths in its own notice. Anything else (a terminal asking, a console as
 * target) stays NOT_AVAILABLE until talk and conferences come.
 */
async function liveRequest(code: 'req_play_video' | 'req_stop_play_video', ctx: HandlerContext<typeof code>) {
  const { login, db, service, deps } = ctx;
  const body = ctx.body as Record<string, unknown> & { target?: number; exttarget?: string };
  const live = deps.live;
  if (!live || !isConsoleUid(login.uid) || (body.target === undefined && body.exttarget === undefined))
    return mediaRequest(code, ctx as HandlerContext<MediaCode>);
  const [entry] = await requireUsers(
    db,
    login,
    body.target !== undefined ? [body.target] : [],
    body.target === undefined && body.exttarget !== undefined ? [body.exttarget] : [],
  );
  if (!entry!.terminal) return mediaRequest(code, ctx as HandlerContext<MediaCode>);
  const device = await findDevice(db, entry!.uid);
  if (!device) throw ConsoleErrors.userNotFound([entry!.uid]);
  const userId = userIdOfConsoleUid(login.uid);
  let play: LivePlay | undefined;
  try {
    if (code === 'req_play_video') play = await live.request(userId, device);
    else await live.release(userId, device.id);
  } catch (err) {
    if (err instanceof AppError) throw ConsoleErrors.conflict(err.key, err.params);
    throw err;
  }
  await insertMediaRequest(db, {
    code,
    from_uid: login.uid,
    target_uid: entry!.uid,
    tgid: null,
    payload: JSON.stringify(body),
    outcome: 'done',
    created: now(),
  });
  const notice = MEDIA_NOTICES[code];
  const told = { ...body, request: code, from: login.uid, extfrom: login.ext_id, available: 1 as const };
  ctx.after(() => {
    service.notify({ uids: [entry!.uid] }, notice, told);
    if (play) service.notify({ uids: [login.uid] }, notice, { ...told, play });
  });
  return { available: 1 as const, ...(play ? { play } : {}) };
}

export const mediaHandlers: ConsoleHandler[] = (Object.keys(MEDIA_NOTICES) as MediaCode[]).map((code) =>
  code === 'req_play_video' || code === 'req_stop_play_video'
    ? defineHandler({ code, handler: (ctx) => liveRequest(code, ctx) })
    : defineHandler({ code, handler: (ctx) => mediaRequest(code, ctx as HandlerContext<MediaCode>) }),
);
