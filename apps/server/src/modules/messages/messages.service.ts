import {
  ImTargetType,
  ImType,
  ResultCode,
  type MessageAddRequest,
  type MessageSaveEditRequest,
  type MessgListRequest,
  type MessListRequest,
  type Page,
  type PushMessage,
  type PushRecipient,
  type PushSend,
  type SendListRequest,
  type SendRequest,
} from '@bwc/protocol';
import type { ServerDeps } from '../../deps';
import { now, type Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { assertInScope, unitScope, type UnitScope } from '../../http/scope';
import { insertMessageIn } from '../../realtime/console/im.repository';
import { consoleIdentity } from '../../realtime/console/login';
import type { ConsoleImRow } from '../../realtime/console/console.tables';
import { presentPushMessage, presentRecipient, presentSend } from './messages.presenter';
import * as repo from './messages.repository';

/**
 * Message push (/dispatch/msgManage): messages of the caller's units, sent now to terminals of
 * his units as instant messages of the console service (its delivery: notice_im at once to a
 * terminal logged on, at its next logon otherwise), with the state of each terminal.
 */

const messageNotFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.message.notFound');
const sendNotFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.message.sendNotFound');

const unitsOf = (scope: UnitScope): readonly number[] | null => (scope.all ? null : scope.ids);
const nameOf = (user: AuthUser): string => user.hostname || user.username;

async function present(db: Db, rows: repo.MessageListRow[]): Promise<PushMessage[]> {
  const stats = await repo.sendStats(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentPushMessage(r, stats.get(r.id)));
}

/** A message of the caller's units, or 404 / 403. */
async function loadMessage(db: Db, scope: UnitScope, id: number): Promise<repo.MessageListRow> {
  const row = await repo.findMessage(db, id);
  if (!row) throw messageNotFound();
  assertInScope(scope, row.unit_id);
  return row;
}

export async function listMessages(db: Db, user: AuthUser, q: MessListRequest): Promise<Page<PushMessage>> {
  const { total, rows } = await repo.listMessages(db, unitsOf(await unitScope(db, user)), q);
  return { total, page: q.page, limit: q.limit, list: await present(db, rows) };
}

export async function getMessage(db: Db, user: AuthUser, id: number): Promise<PushMessage> {
  const row = await loadMessage(db, await unitScope(db, user), id);
  return (await present(db, [row]))[0]!;
}

/** A new message belongs to its author's unit. */
export async function addMessage(db: Db, user: AuthUser, body: MessageAddRequest): Promise<PushMessage> {
  const id = await repo.insertMessage(db, {
    ...body,
    unit_id: user.unit_id,
    author_id: user.id,
    author: nameOf(user),
    ts: now(),
  });
  return getMessage(db, user, id);
}

export async function saveMessage(db: Db, user: AuthUser, body: MessageSaveEditRequest): Promise<PushMessage> {
  const scope = await unitScope(db, user);
  await db.transaction().execute(async (trx) => {
    await loadMessage(trx, scope, body.id);
    await repo.updateMessage(trx, body.id, { title: body.title, content: body.content, ts: now() });
  });
  return getMessage(db, user, body.id);
}

/** Every id must name a message of the caller's units, else nothing is deleted. */
export async function deleteMessages(db: Db, user: AuthUser, ids: number[]): Promise<void> {
  const scope = await unitScope(db, user);
  const unique = [...new Set(ids)];
  await db.transaction().execute(async (trx) => {
    const rows = await repo.messagesByIds(trx, unique);
    const missing = unique.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw Errors.field('ids', 'errors.message.unknownIds', { ids: missing.join(', ') });
    assertInScope(scope, ...rows.map((r) => r.unit_id));
    await repo.deleteMessages(trx, unique);
  });
}

/** The text a terminal receives: the title on the first line, then the content. */
export const messageText = (title: string, content: string): string => `${title}\n${content}`;

/**
 * The terminals of a send: every device id must exist, have a cluster number (only then does it
 * log on to the console service) and belong to the caller's units; the refusal names the others.
 */
async function terminalsOf(db: Db, scope: UnitScope, ids: number[]): Promise<repo.SendDevice[]> {
  const unique = [...new Set(ids)];
  const rows = await repo.devicesByIds(db, unique);
  const missing = unique.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length) throw Errors.field('device', 'errors.message.unknownDevices', { ids: missing.join(', ') });
  assertInScope(scope, ...rows.map((r) => r.unit_id));
  const noCode = rows.filter((r) => r.jq_hostcode === '');
  if (noCode.length)
    throw Errors.field('device', 'errors.message.noTrunkCode', {
      names: noCode.map((d) => `${d.hostname} (${d.hostbody})`).join(', '),
    });
  return unique.map((id) => rows.find((r) => r.id === id)!);
}

/**
 * Send a message now: the send (with the text as sent), one instant message per terminal from the
 * sender's console account and one send row per terminal, in one transaction; then each message is
 * published on the bus (`console.im`), whose delivery pushes it to the terminal's connection on
 * whichever node holds it, or keeps it for the terminal's next logon.
 */
export async function sendMessage(deps: ServerDeps, user: AuthUser, body: SendRequest): Promise<PushSend> {
  const db = deps.db;
  const scope = await unitScope(db, user);
  const message = await loadMessage(db, scope, body.messid);
  const terminals = await terminalsOf(db, scope, body.device);
  const sender = consoleIdentity(user);
  const ts = now();
  const content = messageText(message.title, message.content);
  const { send, carried } = await db.transaction().execute(async (trx) => {
    const send = await repo.insertSend(trx, {
      message_id: message.id,
      title: message.title,
      content: message.content,
      unit_id: user.unit_id,
      sender_id: user.id,
      sender: nameOf(user),
      created: ts,
    });
    const carried: { im: ConsoleImRow; uid: number }[] = [];
    for (const terminal of terminals) {
      const im = await insertMessageIn(
        trx,
        {
          from_uid: sender.uid,
          from_ext_id: sender.ext_id,
          from_name: nameOf(user),
          target: terminal.id,
          exttarget: terminal.jq_hostcode,
          target_type: ImTargetType.USER,
          im_type: ImType.TEXT,
          content,
          fid: '',
          filename: '',
          size: 0,
          client_time: '',
          created: ts,
        },
        [terminal.id],
      );
      carried.push({ im, uid: terminal.id });
    }
    await repo.insertRecipients(
      trx,
      terminals.map((t, i) => ({
        send_id: send.id,
        uid: t.id,
        im_id: carried[i]!.im.id,
        unit_id: t.unit_id,
        hostname: t.hostname,
        hostbody: t.hostbody,
        jq_hostcode: t.jq_hostcode,
      })),
    );
    return { send, carried };
  });
  for (const { im, uid } of carried) deps.bus.emit('console.im', { message: im, recipients: [uid] });
  return presentSend({ ...send, unitname: user.unit_name }, { total: terminals.length, delivered: 0, read: 0 });
}

export async function listSends(db: Db, user: AuthUser, q: SendListRequest): Promise<Page<PushSend>> {
  const { total, rows } = await repo.listSends(db, unitsOf(await unitScope(db, user)), q);
  const counts = await repo.deliveryCounts(
    db,
    rows.map((r) => r.id),
  );
  return { total, page: q.page, limit: q.limit, list: rows.map((r) => presentSend(r, counts.get(r.id))) };
}

/** Whether a console-service account is logged on now (the console service answers it). */
export interface ConsolePresence {
  online(uid: number): boolean;
}

/** The terminals of a send made in the caller's units, those of his units, with their states. */
export async function listRecipients(
  db: Db,
  presence: ConsolePresence,
  user: AuthUser,
  q: MessgListRequest,
): Promise<Page<PushRecipient>> {
  const scope = await unitScope(db, user);
  const send = await repo.findSend(db, q.sendid);
  if (!send) throw sendNotFound();
  assertInScope(scope, send.unit_id);
  const { total, rows } = await repo.listRecipients(db, send.id, unitsOf(scope), q.page, q.limit);
  return {
    total,
    page: q.page,
    limit: q.limit,
    list: rows.map((r) => presentRecipient(r, presence.online(r.uid))),
  };
}
