import { GROUP_EXTERNAL_PREFIX, GROUP_TEMP_TTL_H, UserType, type AttachInfo, type TrunkGroup } from '@bwc/protocol';
import type { DomainEvents } from '../../../bus';
import type { Db } from '../../../db/connection';
import type { GroupChange } from '../../../modules/groups/groups.events';
import { temporaryGroupName } from '../../../modules/groups/groups.service';
import { requireTerminals, requireUsers, resolveUsers } from '../directory';
import { ConsoleErrors } from '../errors';
import {
  addMembers,
  attach,
  attachedUids,
  attachmentsOf,
  deleteGroup,
  detach,
  findGroup,
  groupsOfMember,
  groupsOfUnits,
  insertGroup,
  membersOfGroups,
  removeMembers,
  type GroupRow,
} from '../groups.repository';
import { visibleGroup } from '../groups.policy';
import { defineHandler, type ConsoleHandler } from '../handler';
import type { Login } from '../login';
import type { ConsoleService } from '../service';

/**
 * Groups: the stored talk groups (the same as rest/gis/gischannel*), their members (terminals),
 * and who is attached to which group (console_group_attach: entering a group attaches the
 * caller, one group at a time). Every change is stored, then notified to the group's members,
 * the users attached to it and the consoles that see its unit. Floor control and audio come with
 * the talk issue.
 */

async function presentGroups(db: Db, service: ConsoleService, groups: GroupRow[]): Promise<TrunkGroup[]> {
  const members = await membersOfGroups(
    db,
    groups.map((g) => g.id),
  );
  const attached = new Map(
    (
      await attachmentsOf(
        db,
        members.map((m) => m.id),
      )
    ).map((a) => [a.uid, a.tgid]),
  );
  return groups.map((g) => {
    const own = members.filter((m) => m.group_id === g.id);
    return {
      tgid: g.id,
      ext_tgid: g.ext_tgid,
      tg_name: g.name,
      preconfig: g.preconfig,
      unit_id: g.unit_id,
      expires: g.expires,
      uids: own.map((m) => m.id),
      members: own.map((m) => ({
        uid: m.id,
        ext_id: m.jq_hostcode,
        display_name: m.hostname || m.hostbody,
        state: service.stateOf(m.id),
        attachg: attached.get(m.id) ?? 0,
      })),
    };
  });
}

/** Everyone a change of the group concerns: members, attached users, consoles of its unit. */
async function audience(db: Db, group: GroupRow, members: readonly number[], extra: readonly number[] = []) {
  return { uids: [...new Set([...members, ...(await attachedUids(db, group.id)), ...extra])], seeing: [group.unit_id] };
}

function refuseExternal(group: GroupRow): void {
  if (group.ext_tgid.startsWith(GROUP_EXTERNAL_PREFIX))
    throw ConsoleErrors.refused('console.groupExternal', { ext: group.ext_tgid });
}

/** Attachments as notices and answers carry them. */
async function attachInfo(db: Db, users: { uid: number; ext_id: string }[]): Promise<AttachInfo[]> {
  const rows = new Map(
    (
      await attachmentsOf(
        db,
        users.map((u) => u.uid),
      )
    ).map((r) => [r.uid, r]),
  );
  return users.map((u) => {
    const r = rows.get(u.uid);
    return { uid: u.uid, ext_id: u.ext_id, tgid: r?.tgid ?? 0, speak: r?.speak ? 1 : 0, hear: r?.hear ? 1 : 0 };
  });
}

/** Store attachments of `users` to `group` and notify enter (and leave of the groups they left). */
async function enter(
  service: ConsoleService,
  login: Login,
  group: GroupRow,
  members: number[],
  users: { uid: number; ext_id: string }[],
  mute: number,
  force: 0 | 1,
): Promise<void> {
  const db = service.deps.db;
  const uids = users.map((u) => u.uid);
  const previous = await attach(db, uids, group.id, mute ? 0 : 1, 1);
  const ext = (ids: number[]) => ids.map((id) => users.find((u) => u.uid === id)!.ext_id);
  for (const old of new Set([...previous.values()].filter((g) => g && g !== group.id))) {
    const left = uids.filter((u) => previous.get(u) === old);
    const oldGroup = await findGroup(db, old);
    service.notify({ uids: left, seeing: oldGroup ? [oldGroup.unit_id] : [] }, 'notice_leave_group', {
      tgid: old,
      uids: left,
      ext_ids: ext(left),
      force,
      operator: login.uid,
    });
  }
  service.notify(await audience(db, group, members, uids), 'notice_enter_group', {
    tgid: group.id,
    uids,
    ext_ids: ext(uids),
    force,
    operator: login.uid,
  });
  service.notify({ seeing: [group.unit_id] }, 'notice_group_attach_info', { attach: await attachInfo(db, users) });
}

async function leave(
  service: ConsoleService,
  login: Login,
  group: GroupRow,
  members: number[],
  users: { uid: number; ext_id: string }[],
  force: 0 | 1,
): Promise<number[]> {
  const db = service.deps.db;
  const left = await detach(
    db,
    users.map((u) => u.uid),
    group.id,
  );
  if (left.length) {
    service.notify(await audience(db, group, members, left), 'notice_leave_group', {
      tgid: group.id,
      uids: left,
      ext_ids: left.map((id) => users.find((u) => u.uid === id)!.ext_id),
      force,
      operator: login.uid,
    });
    service.notify({ seeing: [group.unit_id] }, 'notice_group_attach_info', {
      attach: await attachInfo(
        db,
        users.filter((u) => left.includes(u.uid)),
      ),
    });
  }
  return left;
}

/** A terminal came or went: the other members of its groups and the users attached to them get notice_grp_mem_status. */
export async function announceMemberStatus(
  service: ConsoleService,
  e: DomainEvents['console.presence'],
): Promise<void> {
  if (e.user_type !== UserType.TERMINAL) return;
  const db = service.deps.db;
  for (const group of await groupsOfMember(db, e.uid)) {
    const members = (await membersOfGroups(db, [group.id])).map((m) => m.id).filter((id) => id !== e.uid);
    service.notify(await audience(db, group, members), 'notice_grp_mem_status', {
      tgid: group.id,
      uid: e.uid,
      ext_id: e.ext_id,
      state: e.state,
    });
  }
}

export const groupHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'req_grp_profile',
    handler: async ({ body, login, db, service }) => {
      let groups: GroupRow[];
      if (body.tgid !== undefined) groups = [(await visibleGroup(db, login, body.tgid)).group];
      else if (login.user_type === UserType.TERMINAL) groups = await groupsOfMember(db, login.uid);
      else groups = await groupsOfUnits(db, login.scope === null ? null : [...login.scope]);
      return { groups: await presentGroups(db, service, groups) };
    },
  }),

  defineHandler({
    code: 'req_group_attach_info',
    handler: async ({ body, login, db }) => {
      let users: { uid: number; ext_id: string }[];
      if (body.tgid !== undefined) {
        const { group, members } = await visibleGroup(db, login, body.tgid);
        const rows = await membersOfGroups(db, [group.id]);
        users = rows.map((m) => ({ uid: m.id, ext_id: m.jq_hostcode }));
        const others = (await attachedUids(db, group.id)).filter((u) => !members.includes(u));
        // consoles attached to the group that the caller may not see are left out
        if (others.length) users.push(...(await resolveUsers(db, login, others, [])).entries);
      } else if (body.uids.length || body.extuids.length)
        users = await requireUsers(db, login, body.uids, body.extuids);
      else users = [{ uid: login.uid, ext_id: login.ext_id }];
      return { attach: await attachInfo(db, users) };
    },
  }),

  defineHandler({
    code: 'req_create_grp',
    handler: async ({ body, login, db, service, t }) => {
      const terminals = await requireTerminals(db, login, body.uids, body.extuids);
      const tgid = await insertGroup(
        db,
        {
          name: body.name.trim() || temporaryGroupName(t('export.group.tempPrefix')),
          unit_id: login.unit_id,
          created_by: login.user?.id ?? null,
          expires: new Date(Date.now() + GROUP_TEMP_TTL_H * 3_600_000).toISOString(),
        },
        terminals.map((m) => m.uid),
      );
      const [group] = await presentGroups(db, service, [(await findGroup(db, tgid))!]);
      service.notify({ uids: group!.uids, seeing: [group!.unit_id] }, 'notice_create_grp', { group: group! });
      return { group: group! };
    },
  }),

  defineHandler({
    code: 'req_delete_grp',
    handler: async ({ body, login, db, service }) => {
      const { group, members } = await visibleGroup(db, login, body.tgid);
      refuseExternal(group);
      const to = await audience(db, group, members);
      await deleteGroup(db, group.id);
      service.notify(to, 'notice_delete_grp', { tgid: group.id, uids: members });
      return { tgid: group.id };
    },
  }),

  defineHandler({
    code: 'req_enter_group',
    handler: async ({ body, login, db, service }) => {
      const { group, members } = await visibleGroup(db, login, body.tgid);
      await enter(service, login, group, members, [{ uid: login.uid, ext_id: login.ext_id }], body.mute, 0);
      return { tgid: group.id, uids: [login.uid] };
    },
  }),

  defineHandler({
    code: 'req_leave_group',
    handler: async ({ body, login, db, service }) => {
      const { group, members } = await visibleGroup(db, login, body.tgid);
      const left = await leave(service, login, group, members, [{ uid: login.uid, ext_id: login.ext_id }], 0);
      return { tgid: group.id, uids: left };
    },
  }),

  defineHandler({
    code: 'req_force_enter_group',
    handler: async ({ body, login, db, service }) => {
      const { group, members } = await visibleGroup(db, login, body.tgid);
      const users = await requireTerminals(db, login, body.uids, body.extuids);
      const outside = users.filter((u) => !members.includes(u.uid)).map((u) => u.uid);
      if (outside.length) throw ConsoleErrors.invalid('console.notMember', { tgid: group.id, ids: outside.join(', ') });
      await enter(service, login, group, members, users, 0, 1);
      return { tgid: group.id, uids: users.map((u) => u.uid) };
    },
  }),

  defineHandler({
    code: 'req_force_leave_group',
    handler: async ({ body, login, db, service }) => {
      const { group, members } = await visibleGroup(db, login, body.tgid);
      const users = await requireTerminals(db, login, body.uids, body.extuids);
      const left = await leave(service, login, group, members, users, 1);
      return { tgid: group.id, uids: left };
    },
  }),

  defineHandler({
    code: 'req_add_grp_mem',
    handler: async ({ body, login, db, service }) => {
      const { group, members } = await visibleGroup(db, login, body.tgid);
      refuseExternal(group);
      const users = await requireTerminals(db, login, body.uids, body.extuids);
      const added = await addMembers(
        db,
        group.id,
        users.map((u) => u.uid),
      );
      if (added.length)
        service.notify(await audience(db, group, [...members, ...added]), 'notice_add_grp_mem', {
          tgid: group.id,
          tg_name: group.name,
          uids: added,
          ext_ids: added.map((id) => users.find((u) => u.uid === id)!.ext_id),
          operator: login.uid,
        });
      return { tgid: group.id, uids: added };
    },
  }),

  defineHandler({
    code: 'req_rem_grp_mem',
    handler: async ({ body, login, db, service }) => {
      const { group, members } = await visibleGroup(db, login, body.tgid);
      refuseExternal(group);
      const users = await requireTerminals(db, login, body.uids, body.extuids);
      const to = await audience(db, group, members);
      const removed = await removeMembers(
        db,
        group.id,
        users.map((u) => u.uid),
      );
      if (removed.length)
        service.notify(to, 'notice_rem_grp_mem', {
          tgid: group.id,
          tg_name: group.name,
          uids: removed,
          ext_ids: removed.map((id) => users.find((u) => u.uid === id)!.ext_id),
          operator: login.uid,
        });
      return { tgid: group.id, uids: removed };
    },
  }),
];

/**
 * A group changed through the HTTP routes or the sweeper (`group.changed`): the consoles that see
 * its unit (before and after a move) and its members and attached users are told, as if a console
 * had done it with req_create_grp / req_delete_grp.
 */
export async function announceGroupChange(service: ConsoleService, e: GroupChange): Promise<void> {
  const db = service.deps.db;
  if (e.kind === 'deleted') {
    service.notify({ uids: e.members, seeing: [e.unit_id] }, 'notice_delete_grp', { tgid: e.tgid, uids: e.members });
    return;
  }
  const row = await findGroup(db, e.tgid);
  if (!row) return;
  const [group] = await presentGroups(db, service, [row]);
  const units =
    e.kind === 'updated' && e.previous_unit_id !== e.unit_id ? [e.unit_id, e.previous_unit_id] : [e.unit_id];
  const to = { uids: [...group!.uids, ...(await attachedUids(db, row.id))], seeing: units };
  service.notify(to, e.kind === 'created' ? 'notice_create_grp' : 'notice_update_grp', { group: group! });
}
