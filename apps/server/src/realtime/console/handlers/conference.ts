import { MenuId, UserType, type ConsoleCode } from '@bwc/protocol';
import { conferenceOf } from '../conference/conference.service';
import { resolveUsers } from '../directory';
import { ConsoleErrors } from '../errors';
import { visibleGroup } from '../groups.policy';
import { defineHandler, type ConsoleHandler, type HandlerContext } from '../handler';
import { can } from '../login';

/** Who may end a conference besides its demander: a console with edit on the talk screens. */
const STOP_MENUS = [MenuId.EMERGENCY, MenuId.CLUSTER];

/**
 * The shared device of a share request: `vsid` is its uid or, when no user the caller sees has
 * that uid, its ext id. One the caller may not see is answered as not found.
 */
async function sharedDevice(ctx: HandlerContext<ConsoleCode>, vsid: string) {
  const uids = /^\d{1,9}$/.test(vsid) ? [Number(vsid)] : [];
  const { entries } = await resolveUsers(ctx.db, ctx.login, uids, [vsid]);
  const device = entries[0];
  if (!device) throw ConsoleErrors.userNotFound([vsid]);
  return device;
}

/** Video conferences (issue 14 section 5; conference/conference.service.ts). */
export const conferenceHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'req_start_video_conf',
    handler: async ({ body, login, db, service }) => {
      const { group, members } = await visibleGroup(db, login, body.tgid);
      return conferenceOf(service).start(login, group, members);
    },
  }),
  defineHandler({
    code: 'req_stop_video_conf',
    handler: async ({ body, login, db, service }) => {
      const { group } = await visibleGroup(db, login, body.tgid);
      const conference = conferenceOf(service);
      const state = conference.of(group.id);
      // the one who started it ends it; so does a dispatcher who may change the talk screens
      if (
        state &&
        state.demander !== login.uid &&
        !(login.user_type === UserType.CONSOLE && can(login, STOP_MENUS, 'edit'))
      )
        throw ConsoleErrors.refused('console.conference.stopNotAllowed');
      return conference.stop(login, group.id);
    },
  }),
  defineHandler({
    code: 'req_share_video_in_video_conf',
    handler: async (ctx) => {
      const { group } = await visibleGroup(ctx.db, ctx.login, ctx.body.tgid);
      const device = await sharedDevice(ctx, ctx.body.vsid);
      return conferenceOf(ctx.service).share(ctx.login, group.id, device);
    },
  }),
  defineHandler({
    code: 'req_stop_share_video_in_video_conf',
    handler: async (ctx) => {
      const { group } = await visibleGroup(ctx.db, ctx.login, ctx.body.tgid);
      const device = await sharedDevice(ctx, ctx.body.vsid);
      return conferenceOf(ctx.service).stopShare(ctx.login, group.id, device);
    },
  }),
];
