import type { UserStateEntry } from '@bwc/protocol';
import type { DomainEvents } from '../../../bus';
import {
  presentProfiles,
  requireTerminals,
  requireUsers,
  resolveUsers,
  selfEntry,
  terminalsInScope,
  type DirectoryEntry,
} from '../directory';
import { defineHandler, type ConsoleHandler } from '../handler';
import type { ConsoleService } from '../service';
import { addAdminUsers, adminUsersOf, mergeParams } from '../users.repository';

/**
 * Users family: profiles (req_user_profile), online state (req_user_state, notice_user_state with
 * 7 online / 0 offline as logins come and go), parameters (req_params_set) and the users a console
 * administers (req_add_admin_users).
 */

function stateEntry(service: ConsoleService, e: DirectoryEntry): UserStateEntry {
  return { uid: e.uid, ext_id: e.ext_id, user_type: e.user_type, state: service.stateOf(e.uid), unit_id: e.unit_id };
}

/** A login came or went: consoles that see the user's unit get notice_user_state. */
export function announcePresence(service: ConsoleService, e: DomainEvents['console.presence']): void {
  service.notify({ seeing: [e.unit_id] }, 'notice_user_state', {
    uid: e.uid,
    ext_id: e.ext_id,
    user_type: e.user_type,
    state: e.state,
    unit_id: e.unit_id,
    time: e.time,
  });
}

export const userHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'req_user_profile',
    handler: async ({ body, login, db, service }) => {
      let entries: DirectoryEntry[];
      let unknown: (number | string)[] = [];
      if (!body.targets.length && !body.exttargets.length) entries = [await selfEntry(db, login)];
      else ({ entries, unknown } = await resolveUsers(db, login, body.targets, body.exttargets));
      if (body.user_type !== undefined) entries = entries.filter((e) => e.user_type === body.user_type);
      return { user_info: await presentProfiles(db, entries, (uid) => service.stateOf(uid)), unknown };
    },
  }),

  defineHandler({
    code: 'req_user_state',
    handler: async ({ body, login, db, service, after }) => {
      const entries =
        body.uids.length || body.extuids.length
          ? (await resolveUsers(db, login, body.uids, body.extuids)).entries
          : await terminalsInScope(db, login);
      const states = entries.map((e) => stateEntry(service, e));
      // the SDK calls back at once for this code: the states also come as notices
      after(() => {
        const time = Date.now();
        for (const s of states) service.notify({ uids: [login.uid] }, 'notice_user_state', { ...s, time });
      });
      return { user_state: states };
    },
  }),

  defineHandler({
    code: 'req_params_set',
    handler: async ({ body, login, db, service }) => {
      const targets = await requireUsers(db, login, body.targets, body.exttargets);
      const uids = targets.map((e) => e.uid);
      if (!uids.length) return { targets: [], paraminfo: body.paraminfo };
      await mergeParams(db, uids, body.paraminfo, login.uid);
      service.notify({ uids, exceptLogin: login.id }, 'notice_params_set', {
        targets: uids,
        paraminfo: body.paraminfo,
      });
      const profiles = await presentProfiles(db, targets, (uid) => service.stateOf(uid));
      for (const p of profiles)
        service.notify({ seeing: [p.unit_id], exceptLogin: login.id }, 'notice_user_profile', { user_info: [p] });
      return { targets: uids, paraminfo: body.paraminfo };
    },
  }),

  defineHandler({
    code: 'req_add_admin_users',
    handler: async ({ body, login, db }) => {
      const terminals = await requireTerminals(db, login, body.uids, body.extuids);
      await addAdminUsers(
        db,
        login.uid,
        terminals.map((t) => t.uid),
      );
      return { admin_uids: await adminUsersOf(db, login.uid) };
    },
  }),
];
