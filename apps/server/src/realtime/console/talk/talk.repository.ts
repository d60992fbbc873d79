import type { TalkRecord } from '@bwc/protocol';
import type { Db } from '../../../db/connection';
import type { TalkRecordTable } from './talk.tables';
import './talk.tables';

/** SQL of group talk: the recorded bursts, the listeners of a group. */

export async function insertRecord(db: Db, row: TalkRecordTable): Promise<void> {
  await db
    .insertInto('talk_records')
    .values(row)
    .onConflict((oc) => oc.column('refid').doNothing())
    .execute();
}

export async function findRecord(db: Db, refid: string): Promise<TalkRecordTable | undefined> {
  return db.selectFrom('talk_records').selectAll().where('refid', '=', refid).executeTakeFirst();
}

/** Records of one group, or of groups of the given units (null: every unit), or of the given groups; newest first. */
export async function listRecords(
  db: Db,
  where: { tgid?: number; units?: readonly number[] | null; tgids?: readonly number[] },
  start: number,
  count: number,
): Promise<{ total: number; rows: TalkRecordTable[] }> {
  let q = db.selectFrom('talk_records');
  if (where.tgid !== undefined) q = q.where('tgid', '=', where.tgid);
  if (where.units) q = q.where('unit_id', 'in', where.units.length ? [...where.units] : [-1]);
  if (where.tgids) q = q.where('tgid', 'in', where.tgids.length ? [...where.tgids] : [-1]);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await q.selectAll().orderBy('start_ms', 'desc').orderBy('refid').offset(start).limit(count).execute();
  return { total: Number(total?.n ?? 0), rows };
}

export function presentRecord(r: TalkRecordTable): TalkRecord {
  return {
    refid: r.refid,
    tgid: r.tgid,
    tg_name: r.tg_name,
    uid: r.uid,
    ext_id: r.ext_id,
    name: r.name,
    emergency: r.emergency ? 1 : 0,
    start: Number(r.start_ms),
    stop: Number(r.stop_ms),
    frames: r.frames,
    bytes: r.bytes,
  };
}

/** uids attached to a group with hear (its listeners). */
export async function listenerUids(db: Db, tgid: number): Promise<number[]> {
  const rows = await db
    .selectFrom('console_group_attach')
    .select('uid')
    .where('tgid', '=', tgid)
    .where('hear', '=', 1)
    .execute();
  return rows.map((r) => r.uid);
}

/** The caller's attachment (group and speak), if any. */
export async function attachmentOf(db: Db, uid: number) {
  return db
    .selectFrom('console_group_attach')
    .select(['tgid', 'speak', 'hear'])
    .where('uid', '=', uid)
    .executeTakeFirst();
}
