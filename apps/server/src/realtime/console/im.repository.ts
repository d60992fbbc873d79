import { sql, type Insertable } from 'kysely';
import { now, type Db } from '../../db/connection';
import type { ConsoleFileRow, ConsoleImRow, ConsoleImTable } from './console.tables';
import './console.tables';

/** SQL of instant messages, their recipients and uploaded files. */

/**
 * Store a message and its recipients with `trx`, a transaction of the caller (message push stores
 * its send records in the same one); answers the stored row.
 */
export async function insertMessageIn(
  trx: Db,
  values: Omit<Insertable<ConsoleImTable>, 'id'>,
  recipients: readonly number[],
): Promise<ConsoleImRow> {
  const row = await trx.insertInto('console_im').values(values).returningAll().executeTakeFirstOrThrow();
  if (recipients.length)
    await trx
      .insertInto('console_im_recipients')
      .values(recipients.map((uid) => ({ im_id: row.id, uid, delivered: '', read: '' })))
      .execute();
  return row;
}

/** Store a message and its recipients in one transaction; answers the stored row. */
export async function insertMessage(
  db: Db,
  values: Omit<Insertable<ConsoleImTable>, 'id'>,
  recipients: readonly number[],
): Promise<ConsoleImRow> {
  return db.transaction().execute((trx) => insertMessageIn(trx, values, recipients));
}

/**
 * Claim the delivery of a message to a recipient: true for exactly one caller (the live push and
 * the delivery at logon may race; the message goes out once).
 */
export async function claimDelivery(db: Db, imId: number, uid: number): Promise<boolean> {
  const result = await db
    .updateTable('console_im_recipients')
    .set({ delivered: now() })
    .where('im_id', '=', imId)
    .where('uid', '=', uid)
    .where('delivered', '=', '')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Undo a claim whose message could not be sent (the connection closed meanwhile). */
export async function releaseDelivery(db: Db, imId: number, uid: number): Promise<void> {
  await db
    .updateTable('console_im_recipients')
    .set({ delivered: '' })
    .where('im_id', '=', imId)
    .where('uid', '=', uid)
    .execute();
}

/** Messages not yet delivered to `uid`, oldest first. */
export async function undelivered(db: Db, uid: number, limit: number): Promise<ConsoleImRow[]> {
  return db
    .selectFrom('console_im_recipients as r')
    .innerJoin('console_im as m', 'm.id', 'r.im_id')
    .selectAll('m')
    .where('r.uid', '=', uid)
    .where('r.delivered', '=', '')
    .orderBy('m.id')
    .limit(limit)
    .execute();
}

/** The conversation between two users (target_type 0) or of a group (1): a page, newest first, and the total. */
export async function conversation(
  db: Db,
  me: number,
  other: number,
  targetType: number,
  start: number,
  count: number,
): Promise<{ total: number; rows: ConsoleImRow[] }> {
  const base = db.selectFrom('console_im').where('target_type', '=', targetType);
  const scoped =
    targetType === 1
      ? base.where('target', '=', other)
      : base.where((eb) =>
          eb.or([
            eb.and([eb('from_uid', '=', me), eb('target', '=', other)]),
            eb.and([eb('from_uid', '=', other), eb('target', '=', me)]),
          ]),
        );
  const total = await scoped.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await scoped.selectAll().orderBy('id', 'desc').offset(start).limit(count).execute();
  return { total: Number(total.n), rows };
}

/** The messages `me` sent or received, each with the other side of its conversation (a user's uid, or the group's tgid). */
function messagesOf(db: Db, me: number) {
  return db
    .selectFrom('console_im as m')
    .select([
      'm.id',
      'm.target_type',
      sql<number>`case when m.target_type = 1 then m.target when m.from_uid = ${me} then m.target else m.from_uid end`.as(
        'other',
      ),
    ])
    .where((eb) =>
      eb.or([
        eb('m.from_uid', '=', me),
        eb.exists(
          eb
            .selectFrom('console_im_recipients as r')
            .select('r.im_id')
            .whereRef('r.im_id', '=', 'm.id')
            .where('r.uid', '=', me),
        ),
      ]),
    );
}

/** The conversations of `me`, the most recent first: the other side and the id of the last message. */
export async function conversationsOf(
  db: Db,
  me: number,
  limit: number,
): Promise<{ target_type: number; other: number; last_id: number }[]> {
  const rows = await db
    .selectFrom(messagesOf(db, me).as('t'))
    .select(['t.target_type', 't.other', (eb) => eb.fn.max('t.id').as('last_id')])
    .groupBy(['t.target_type', 't.other'])
    .orderBy('last_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ target_type: Number(r.target_type), other: Number(r.other), last_id: Number(r.last_id) }));
}

/** Messages to `me` not read yet: the count per conversation, and the newest `idsLimit` ids overall. */
export async function unreadOf(
  db: Db,
  me: number,
  idsLimit: number,
): Promise<{
  counts: { target_type: number; other: number; n: number }[];
  ids: { id: number; target_type: number; other: number }[];
}> {
  const unread = db
    .selectFrom('console_im_recipients as r')
    .innerJoin('console_im as m', 'm.id', 'r.im_id')
    .select([
      'm.id',
      'm.target_type',
      sql<number>`case when m.target_type = 1 then m.target else m.from_uid end`.as('other'),
    ])
    .where('r.uid', '=', me)
    .where('r.read', '=', '');
  const [counts, ids] = await Promise.all([
    db
      .selectFrom(unread.as('u'))
      .select(['u.target_type', 'u.other', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['u.target_type', 'u.other'])
      .execute(),
    unread.orderBy('m.id', 'desc').limit(idsLimit).execute(),
  ]);
  const num = <T extends Record<string, unknown>>(r: T) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])) as { [K in keyof T]: number };
  return { counts: counts.map(num), ids: ids.map(num) };
}

export async function messagesByIds(db: Db, ids: readonly number[]): Promise<ConsoleImRow[]> {
  if (!ids.length) return [];
  return db
    .selectFrom('console_im')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** Mark messages to `uid` among `ids` read; answers those that were unread, with their senders. */
export async function markRead(
  db: Db,
  uid: number,
  ids: readonly number[],
): Promise<{ im_id: number; from_uid: number; read: string }[]> {
  if (!ids.length) return [];
  const read = now();
  const changed = await db
    .updateTable('console_im_recipients')
    .set({ read })
    .where('uid', '=', uid)
    .where('im_id', 'in', [...ids])
    .where('read', '=', '')
    .returning('im_id')
    .execute();
  if (!changed.length) return [];
  const senders = await db
    .selectFrom('console_im')
    .select(['id', 'from_uid'])
    .where(
      'id',
      'in',
      changed.map((c) => c.im_id),
    )
    .execute();
  return senders.map((m) => ({ im_id: m.id, from_uid: m.from_uid, read }));
}

export async function findFile(db: Db, fid: string): Promise<ConsoleFileRow | undefined> {
  return db.selectFrom('console_files').selectAll().where('fid', '=', fid).executeTakeFirst();
}

export async function insertFile(
  db: Db,
  row: Omit<ConsoleFileRow, 'received' | 'created' | 'completed'>,
): Promise<void> {
  await db
    .insertInto('console_files')
    .values({ ...row, received: 0, created: now(), completed: '' })
    .execute();
}

export async function setReceived(db: Db, fid: string, received: number): Promise<void> {
  await db.updateTable('console_files').set({ received }).where('fid', '=', fid).execute();
}

export async function completeFile(db: Db, fid: string): Promise<void> {
  await db
    .updateTable('console_files')
    .set({ completed: now() })
    .where('fid', '=', fid)
    .where('completed', '=', '')
    .execute();
}

/** May `uid` download file `fid`: its uploader, or a sender or recipient of a message carrying it. */
export async function mayDownload(db: Db, fid: string, uid: number): Promise<boolean> {
  const row = await db
    .selectFrom('console_im as m')
    .leftJoin('console_im_recipients as r', (join) => join.onRef('r.im_id', '=', 'm.id').on('r.uid', '=', uid))
    .select('m.id')
    .where('m.fid', '=', fid)
    .where((eb) => eb.or([eb('m.from_uid', '=', uid), eb('r.uid', '=', uid)]))
    .executeTakeFirst();
  return row !== undefined;
}
