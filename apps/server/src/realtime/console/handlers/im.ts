import { IM_SESSIONS_UNREAD_IDS, ImTargetType, ImType, type ImSession } from '@bwc/protocol';
import { requireUsers, resolveUsers } from '../directory';
import { ConsoleError, ConsoleErrors } from '../errors';
import { finishUpload } from '../files';
import { attachedUids } from '../groups.repository';
import { visibleGroup } from '../groups.policy';
import { presentMessage } from '../im-delivery';
import {
  conversation,
  conversationsOf,
  findFile,
  insertMessage,
  markRead,
  messagesByIds,
  unreadOf,
} from '../im.repository';
import { defineHandler, type ConsoleHandler, type HandlerContext } from '../handler';
import { isConsoleUid } from '../login';

/**
 * Instant messages: text, image, voice note and file to a user or a group (req_send_im), stored
 * with one recipient row per user; delivered at once to recipients logged on and at the next
 * logon to the others (im-delivery.ts); conversations paged with req_im_list. Files are uploaded
 * first (files.ts) and completed with req_send_file_done.
 */

/** Who a message goes to: a visible user, or a visible group's members and attached users. */
async function addressees(
  ctx: HandlerContext<'req_send_im'> | HandlerContext<'req_im_list'>,
): Promise<{ target: number; exttarget: string; recipients: number[] }> {
  const { body, login, db } = ctx;
  if (body.target_type === ImTargetType.GROUP) {
    const tgid = body.target ?? Number(body.exttarget);
    if (!Number.isInteger(tgid) || tgid <= 0)
      throw ConsoleErrors.notFound('console.groupNotFound', { tgid: String(body.exttarget) });
    const { group, members } = await visibleGroup(db, login, tgid);
    const recipients = [...new Set([...members, ...(await attachedUids(db, group.id))])].filter((u) => u !== login.uid);
    return { target: group.id, exttarget: group.ext_tgid || String(group.id), recipients };
  }
  const [user] = await requireUsers(
    db,
    login,
    body.target !== undefined ? [body.target] : [],
    body.target === undefined && body.exttarget !== undefined ? [body.exttarget] : [],
  );
  return { target: user!.uid, exttarget: user!.ext_id, recipients: user!.uid === login.uid ? [] : [user!.uid] };
}

/**
 * req_im_sessions: the caller's conversations with users and groups it still sees (a user out of
 * its scope now, a group deleted or left, drop out, as req_im_list would refuse them), with names,
 * last message and unread messages.
 */
async function sessionsOf(ctx: HandlerContext<'req_im_sessions'>): Promise<ImSession[]> {
  const { body, login, db } = ctx;
  const found = await conversationsOf(db, login.uid, body.count);
  const userIds = found.filter((c) => c.target_type === ImTargetType.USER).map((c) => c.other);
  const users = new Map((await resolveUsers(db, login, userIds, [])).entries.map((e) => [e.uid, e]));
  const groups = new Map<number, { name: string; ext: string }>();
  for (const c of found.filter((f) => f.target_type === ImTargetType.GROUP)) {
    try {
      const { group } = await visibleGroup(db, login, c.other);
      groups.set(group.id, { name: group.name, ext: group.ext_tgid || String(group.id) });
    } catch (err) {
      if (!(err instanceof ConsoleError)) throw err;
    }
  }
  const [last, unread] = await Promise.all([
    messagesByIds(
      db,
      found.map((c) => c.last_id),
    ),
    unreadOf(db, login.uid, IM_SESSIONS_UNREAD_IDS * 10),
  ]);
  const lastById = new Map(last.map((m) => [m.id, m]));
  const key = (targetType: number, other: number) => `${targetType}/${other}`;
  const counts = new Map(unread.counts.map((u) => [key(u.target_type, u.other), u.n]));
  const ids = new Map<string, number[]>();
  for (const u of unread.ids) {
    const list = ids.get(key(u.target_type, u.other)) ?? [];
    if (list.length < IM_SESSIONS_UNREAD_IDS) list.push(u.id);
    ids.set(key(u.target_type, u.other), list);
  }
  const sessions: ImSession[] = [];
  for (const c of found) {
    const row = lastById.get(c.last_id);
    const group = c.target_type === ImTargetType.GROUP;
    const user = group ? undefined : users.get(c.other);
    const named = group ? groups.get(c.other) : user && { name: user.display_name, ext: user.ext_id };
    if (!row || !named) continue;
    sessions.push({
      target: c.other,
      exttarget: named.ext,
      target_type: group ? ImTargetType.GROUP : ImTargetType.USER,
      name: named.name,
      unread: counts.get(key(c.target_type, c.other)) ?? 0,
      unread_ids: ids.get(key(c.target_type, c.other)) ?? [],
      last: presentMessage(row),
    });
  }
  return sessions;
}

export const imHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'req_send_im',
    handler: async (ctx) => {
      const { body, login, db, deps } = ctx;
      const to = await addressees(ctx);
      let file = { fid: '', filename: '', size: 0 };
      if (body.im_type !== ImType.TEXT) {
        const stored = await findFile(db, body.fid!);
        if (!stored || stored.owner_uid !== login.uid)
          throw ConsoleErrors.notFound('console.fileNotFound', { fid: body.fid! });
        if (!stored.completed)
          throw ConsoleErrors.conflict('console.fileIncomplete', { received: stored.received, size: stored.size });
        if (stored.im_type !== body.im_type) throw ConsoleErrors.field('im_type', 'validation.choice');
        file = { fid: stored.fid, filename: stored.filename, size: stored.size };
      }
      const row = await insertMessage(
        db,
        {
          from_uid: login.uid,
          from_ext_id: login.ext_id,
          from_name: login.display_name,
          target: to.target,
          exttarget: to.exttarget,
          target_type: body.target_type,
          im_type: body.im_type,
          content: body.content,
          ...file,
          client_time: body.time ?? '',
          created: new Date().toISOString(),
        },
        to.recipients,
      );
      deps.bus.emit('console.im', { message: row, recipients: to.recipients });
      return { im: presentMessage(row) };
    },
  }),

  defineHandler({
    code: 'req_send_file_done',
    handler: async ({ body, login, db }) => finishUpload(db, login.uid, body.fid),
  }),

  defineHandler({
    code: 'req_im_list',
    handler: async (ctx) => {
      const { body, login, db } = ctx;
      const to = await addressees(ctx);
      const { total, rows } = await conversation(db, login.uid, to.target, body.target_type, body.start, body.count);
      const read = await markRead(
        db,
        login.uid,
        rows.map((r) => r.id),
      );
      // the consoles that sent them see them read at once (message push records)
      for (const r of read)
        if (isConsoleUid(r.from_uid) && r.from_uid !== login.uid)
          ctx.service.notify({ uids: [r.from_uid] }, 'notice_im_state', {
            msg_id: r.im_id,
            uid: login.uid,
            state: 'read',
            time: r.read,
          });
      return { total, start: body.start, count: rows.length, im: rows.map((r) => presentMessage(r)) };
    },
  }),

  defineHandler({
    code: 'req_im_sessions',
    handler: async (ctx) => ({ sessions: await sessionsOf(ctx) }),
  }),
];
