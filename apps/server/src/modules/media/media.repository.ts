import type { Db } from '../../db/connection';
import './media.tables';

/**
 * Spend a publish key's nonce: answers false when it was used before (on any node). Rows of keys
 * expired before `now` are removed on the way.
 */
export async function spendNonce(
  db: Db,
  nonce: string,
  deviceId: number,
  expires: string,
  now: string,
): Promise<boolean> {
  await db.deleteFrom('media_publish_keys').where('expires', '<', now).execute();
  const r = await db
    .insertInto('media_publish_keys')
    .values({ nonce, device_id: deviceId, expires })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Login names of users (the ops centre's viewer list). */
export async function usernames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.username]));
}
