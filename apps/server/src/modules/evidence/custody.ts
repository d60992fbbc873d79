import { createHash } from 'node:crypto';
import type { CustodyAction, CustodyEntry } from '@bwc/protocol';
import type { Kysely, Selectable } from 'kysely';
import { isPostgres, type Db } from '../../db/connection';
import type { Database } from '../../db/types';
import type { EvidenceCustodyTable } from './evidence.tables';
import './evidence.tables';

/**
 * The chain of custody (issue 15 section 5): an append-only record per item. Entry n's hash is
 * SHA-256 over entry n-1's hash and entry n's canonical fields, so a changed entry breaks its own
 * hash, a removed or reordered one breaks the next entry's `prev_hash` or the seq run, and a
 * removed last entry no longer matches the head (custody_seq, custody_hash) kept on the item row.
 * Entries are only ever inserted; nothing in the code updates or deletes them.
 */

/** What acted: a console user, a device, a workstation or the system. */
export interface CustodyActor {
  user_id: number | null;
  /** display name: user name, `device <hostbody>`, `workstation <name>`, `system` */
  actor: string;
  unit_id: number | null;
  ip: string;
}

export const SYSTEM_ACTOR: CustodyActor = { user_id: null, actor: 'system', unit_id: null, ip: '' };

/** prev_hash of an item's first entry */
export const GENESIS = '0'.repeat(64);

export type CustodyRow = Selectable<EvidenceCustodyTable>;
type Fields = Pick<
  EvidenceCustodyTable,
  'media_id' | 'seq' | 'action' | 'user_id' | 'actor' | 'unit_id' | 'at' | 'ip' | 'detail'
>;

/** The hash of one entry given the previous entry's hash. */
export function entryHash(prevHash: string, e: Fields): string {
  const canonical = JSON.stringify([e.media_id, e.seq, e.action, e.user_id, e.actor, e.unit_id, e.at, e.ip, e.detail]);
  return createHash('sha256').update(prevHash).update('\n').update(canonical).digest('hex');
}

/**
 * Append one entry to an item's chain, inside the caller's transaction (so that an entry exists
 * exactly when the change it records does). The item row is locked (PostgreSQL) or the write
 * transaction is the only one (SQLite), so appends to one item are serial; the guarded head update
 * is a last check.
 */
export async function appendCustody(
  trx: Kysely<Database>,
  mediaId: number,
  action: CustodyAction,
  who: CustodyActor,
  detail: Record<string, unknown> = {},
  now = new Date(),
): Promise<void> {
  // PostgreSQL: the row lock makes a concurrent append to the same item wait for this one
  // (SQLite runs one write transaction at a time)
  const read = trx.selectFrom('evidence_items').select(['custody_seq', 'custody_hash']).where('id', '=', mediaId);
  const head = await (isPostgres(trx as Kysely<unknown>) ? read.forUpdate() : read).executeTakeFirstOrThrow();
  const seq = head.custody_seq + 1;
  const prev = head.custody_seq === 0 ? GENESIS : head.custody_hash;
  const fields: Fields = {
    media_id: mediaId,
    seq,
    action,
    user_id: who.user_id,
    actor: who.actor,
    unit_id: who.unit_id,
    at: now.toISOString(),
    ip: who.ip,
    detail: JSON.stringify(detail),
  };
  const hash = entryHash(prev, fields);
  const moved = await trx
    .updateTable('evidence_items')
    .set({ custody_seq: seq, custody_hash: hash })
    .where('id', '=', mediaId)
    .where('custody_seq', '=', head.custody_seq)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new Error(`custody head of item ${mediaId} moved during append`);
  await trx
    .insertInto('evidence_custody')
    .values({ ...fields, prev_hash: prev, hash })
    .execute();
}

/** Append in a transaction of its own (reads: viewed, streamed, downloaded). */
export function recordCustody(
  db: Db,
  mediaId: number,
  action: CustodyAction,
  who: CustodyActor,
  detail?: Record<string, unknown>,
) {
  return db.transaction().execute((trx) => appendCustody(trx, mediaId, action, who, detail));
}

export interface ChainCheck {
  ok: boolean;
  /** seq of the first entry that does not verify (or the head's seq when entries are missing at the end) */
  brokenAt: number | null;
  entries: CustodyRow[];
}

/** Verify one item's chain against itself and the head on the item row. */
export async function verifyChain(db: Db, mediaId: number): Promise<ChainCheck> {
  const entries = await db
    .selectFrom('evidence_custody')
    .selectAll()
    .where('media_id', '=', mediaId)
    .orderBy('seq')
    .execute();
  const head = await db
    .selectFrom('evidence_items')
    .select(['custody_seq', 'custody_hash'])
    .where('id', '=', mediaId)
    .executeTakeFirst();
  let prev = GENESIS;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.seq !== i + 1 || e.prev_hash !== prev || entryHash(prev, e) !== e.hash)
      return { ok: false, brokenAt: i + 1, entries };
    prev = e.hash;
  }
  if (head && (head.custody_seq !== entries.length || (entries.length > 0 && head.custody_hash !== prev)))
    return { ok: false, brokenAt: Math.min(entries.length + 1, Math.max(head.custody_seq, 1)), entries };
  return { ok: true, brokenAt: null, entries };
}

/** The wire form of an entry; `actorName` may replace the stored actor (not used today). */
export function custodyEntry(e: CustodyRow, unitName: string): CustodyEntry {
  return {
    seq: e.seq,
    action: e.action as CustodyAction,
    user_id: e.user_id,
    actor: e.actor,
    unit_name: unitName,
    at: e.at,
    ip: e.ip,
    detail: e.detail,
    prev_hash: e.prev_hash,
    hash: e.hash,
  };
}
