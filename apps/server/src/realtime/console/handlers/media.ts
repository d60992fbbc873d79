import { MEDIA_NOTICES, type MediaCode } from '@bwc/protocol';
import { now } from '../../../db/connection';
import { requireUsers } from '../directory';
import { ConsoleErrors } from '../errors';
import { attachedUids } from '../groups.repository';
import { visibleGroup } from '../groups.policy';
import { defineHandler, type ConsoleHandler, type HandlerContext } from '../handler';
import { insertMediaRequest } from '../media.repository';

/**
 * Calls, push-to-talk, live video and video conferences: their media comes with later issues.
 * Until then each request is checked (rule, then schema, by the dispatcher), its party resolved
 * (the target user it names, or the group by tgid: one the caller may not see is answered as not
 * found), stored as state (console_media_requests), its parties told (the code's notice of
 * MEDIA_NOTICES, with `available: 0`: the target user, or the group's members and attached users,
 * never the caller) and answered NOT_AVAILABLE naming its code. Never dropped.
 */
async function mediaRequest(code: MediaCode, ctx: HandlerContext<MediaCode>): Promise<never> {
  const { login, db, service } = ctx;
  const body = ctx.body as Record<string, unknown> & { target?: number; exttarget?: string; tgid?: number };
  let targetUid: number | null = null;
  let tgid: number | null = null;
  let parties: number[] = [];
  if (body.tgid !== undefined) {
    const { group, members } = await visibleGroup(db, login, body.tgid);
    tgid = group.id;
    parties = [...members, ...(await attachedUids(db, group.id))];
  } else if (body.target !== undefined || body.exttarget !== undefined) {
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
    tgid,
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

export const mediaHandlers: ConsoleHandler[] = (Object.keys(MEDIA_NOTICES) as MediaCode[]).map((code) =>
  defineHandler({ code, handler: (ctx) => mediaRequest(code, ctx as HandlerContext<MediaCode>) }),
);
