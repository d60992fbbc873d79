import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection';
import { contains, offsetOf } from '../system/search';
import type { PushMessageRow, PushSendRecipientTable, PushSendRow, PushSendTable } from './messages.tables';
import './messages.tables';
import '../../realtime/console/console.tables';

/** SQL of message push: messages, their sends and the terminals of each send. */

/** null: every unit (administrators) */
type Units = readonly number[] | null;

export type MessageListRow = PushMessageRow & { unitname: string };

function messagesOf(db: Db, units: Units, keyword: string | undefined) {
  let q = db.selectFrom('push_messages as m').innerJoin('units as u', 'u.id', 'm.unit_id');
  if (units) q = q.where('m.unit_id', 'in', units.length ? [...units] : [-1]);
  if (keyword) q = q.where((eb) => eb.or([contains('m.title', keyword), contains('m.content', keyword)]));
  return q;
}

/** A page of messages of `units`, newest first, and the total. */
export async function listMessages(
  db: Db,
  units: Units,
  filter: { keyword?: string | undefined; page: number; limit: number },
): Promise<{ total: number; rows: MessageListRow[] }> {
  const { n } = await messagesOf(db, units, filter.keyword)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await messagesOf(db, units, filter.keyword)
    .selectAll('m')
    .select('u.name as unitname')
    .orderBy('m.id', 'desc')
    .limit(filter.limit)
    .offset(offsetOf(filter.page, filter.limit))
    .execute();
  return { total: Number(n), rows };
}

export async function findMessage(db: Db, id: number): Promise<MessageListRow | undefined> {
  return db
    .selectFrom('push_messages as m')
    .innerJoin('units as u', 'u.id', 'm.unit_id')
    .selectAll('m')
    .select('u.name as unitname')
    .where('m.id', '=', id)
    .executeTakeFirst();
}

/** Messages by id (those that exist). */
export async function messagesByIds(db: Db, ids: readonly number[]): Promise<PushMessageRow[]> {
  if (!ids.length) return [];
  return db.selectFrom('push_messages').selectAll().where('id', 'in', [...ids]).execute();
}

/** How often each message was sent and when last. */
export async function sendStats(
  db: Db,
  messageIds: readonly number[],
): Promise<Map<number, { count: number; last: string }>> {
  if (!messageIds.length) return new Map();
  const rows = await db
    .selectFrom('push_sends')
    .select((eb) => ['message_id', eb.fn.countAll<number>().as('n'), eb.fn.max('created').as('last')])
    .where('message_id', 'in', [...messageIds])
    .groupBy('message_id')
    .execute();
  return new Map(rows.map((r) => [r.message_id, { count: Number(r.n), last: String(r.last) }]));
}

export async function insertMessage(
  db: Db,
  values: { title: string; content: string; unit_id: number; author_id: number; author: string; ts: string },
): Promise<number> {
  const row = await db
    .insertInto('push_messages')
    .values({
      title: values.title,
      content: values.content,
      unit_id: values.unit_id,
      author_id: values.author_id,
      author: values.author,
      created: values.ts,
      updated: values.ts,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateMessage(
  db: Db,
  id: number,
  values: { title: string; content: string; ts: string },
): Promise<void> {
  await db
    .updateTable('push_messages')
    .set({ title: values.title, content: values.content, updated: values.ts })
    .where('id', '=', id)
    .execute();
}

/** Delete messages; their sends and send rows go with them (foreign keys). */
export async function deleteMessages(db: Db, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await db.deleteFrom('push_messages').where('id', 'in', [...ids]).execute();
}

/** Devices by id with what a send needs (those that exist). */
export async function devicesByIds(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('devices')
    .select(['id', 'hostname', 'hostbody', 'jq_hostcode', 'unit_id'])
    .where('id', 'in', [...ids])
    .execute();
}
export type SendDevice = Awaited<ReturnType<typeof devicesByIds>>[number];

export async function insertSend(db: Db, values: Omit<Insertable<PushSendTable>, 'id'>): Promise<PushSendRow> {
  return db.insertInto('push_sends').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertRecipients(db: Db, rows: readonly PushSendRecipientTable[]): Promise<void> {
  if (rows.length) await db.insertInto('push_send_recipients').values([...rows]).execute();
}

export type SendListRow = PushSendRow & { unitname: string };

function sendsOf(db: Db, units: Units, messageId: number | undefined) {
  let q = db.selectFrom('push_sends as s').innerJoin('units as u', 'u.id', 's.unit_id');
  if (units) q = q.where('s.unit_id', 'in', units.length ? [...units] : [-1]);
  if (messageId !== undefined) q = q.where('s.message_id', '=', messageId);
  return q;
}

/** A page of sends made in `units` (of one message), newest first, and the total. */
export async function listSends(
  db: Db,
  units: Units,
  filter: { messid?: number | undefined; page: number; limit: number },
): Promise<{ total: number; rows: SendListRow[] }> {
  const { n } = await sendsOf(db, units, filter.messid)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await sendsOf(db, units, filter.messid)
    .selectAll('s')
    .select('u.name as unitname')
    .orderBy('s.id', 'desc')
    .limit(filter.limit)
    .offset(offsetOf(filter.page, filter.limit))
    .execute();
  return { total: Number(n), rows };
}

export async function findSend(db: Db, id: number): Promise<SendListRow | undefined> {
  return db
    .selectFrom('push_sends as s')
    .innerJoin('units as u', 'u.id', 's.unit_id')
    .selectAll('s')
    .select('u.name as unitname')
    .where('s.id', '=', id)
    .executeTakeFirst();
}

/** Terminals, delivered and read per send (from the recipient rows of the messages that carried them). */
export async function deliveryCounts(
  db: Db,
  sendIds: readonly number[],
): Promise<Map<number, { total: number; delivered: number; read: number }>> {
  if (!sendIds.length) return new Map();
  const rows = await db
    .selectFrom('push_send_recipients as r')
    .leftJoin('console_im_recipients as ir', (join) => join.onRef('ir.im_id', '=', 'r.im_id').onRef('ir.uid', '=', 'r.uid'))
    .select((eb) => [
      'r.send_id',
      eb.fn.countAll<number>().as('total'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('ir.delivered', '!=', '')
            .then(1)
            .else(0)
            .end(),
        )
        .as('delivered'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('ir.read', '!=', '')
            .then(1)
            .else(0)
            .end(),
        )
        .as('read'),
    ])
    .where('r.send_id', 'in', [...sendIds])
    .groupBy('r.send_id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.send_id,
      { total: Number(r.total), delivered: Number(r.delivered ?? 0), read: Number(r.read ?? 0) },
    ]),
  );
}

function recipientsOf(db: Db, sendId: number, units: Units) {
  let q = db
    .selectFrom('push_send_recipients as r')
    .leftJoin('console_im_recipients as ir', (join) => join.onRef('ir.im_id', '=', 'r.im_id').onRef('ir.uid', '=', 'r.uid'))
    .leftJoin('units as u', 'u.id', 'r.unit_id')
    .where('r.send_id', '=', sendId);
  if (units) q = q.where('r.unit_id', 'in', units.length ? [...units] : [-1]);
  return q;
}

/** A page of the terminals of a send that `units` hold, in the order they were addressed, with their states. */
export async function listRecipients(db: Db, sendId: number, units: Units, page: number, limit: number) {
  const { n } = await recipientsOf(db, sendId, units)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await recipientsOf(db, sendId, units)
    .select([
      'r.uid',
      'r.hostname',
      'r.hostbody',
      'r.jq_hostcode',
      'u.name as unitname',
      'ir.delivered',
      'ir.read',
    ])
    .orderBy('r.im_id')
    .limit(limit)
    .offset(offsetOf(page, limit))
    .execute();
  return { total: Number(n), rows };
}
export type RecipientRow = Awaited<ReturnType<typeof listRecipients>>['rows'][number];
