import type { TalkRecord } from '@bwc/protocol';
import type { Db } from '../../../db/connection';
import type { TalkRecordTable } from './talk.tables';
import './talk.tables';

/** SQL of group talk and calls: the recorded bursts and call directions, the listeners of a group. */

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

/** Which records a listing reads (every condition given must hold). */
export interface RecordFilter {
  /** one group's bursts */
  tgid?: number;
  /** records of these units (null: every unit) */
  units?: readonly number[] | null;
  /** bursts of these groups, and calls `party` took part in */
  mine?: { tgids: readonly number[]; party: number };
  kind?: 'group' | 'call';
}

/** Records matching `where`, newest first. */
export async function listRecords(
  db: Db,
  where: RecordFilter,
  start: number,
  count: number,
): Promise<{ total: number; rows: TalkRecordTable[] }> {
  let q = db.selectFrom('talk_records');
  if (where.tgid !== undefined) q = q.where('kind', '=', 'group').where('tgid', '=', where.tgid);
  if (where.kind) q = q.where('kind', '=', where.kind);
  if (where.units) q = q.where('unit_id', 'in', where.units.length ? [...where.units] : [-1]);
  const mine = where.mine;
  if (mine)
    q = q.where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'group'), eb('tgid', 'in', mine.tgids.length ? [...mine.tgids] : [-1])]),
        eb.and([eb('kind', '=', 'call'), eb.or([eb('uid', '=', mine.party), eb('peer_uid', '=', mine.party)])]),
      ]),
    );
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await q.selectAll().orderBy('start_ms', 'desc').orderBy('refid').offset(start).limit(count).execute();
  return { total: Number(total?.n ?? 0), rows };
}

export function presentRecord(r: TalkRecordTable): TalkRecord {
  return {
    refid: r.refid,
    kind: r.kind,
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
    peer_uid: r.peer_uid,
    peer_ext_id: r.peer_ext_id,
    peer_name: r.peer_name,
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
