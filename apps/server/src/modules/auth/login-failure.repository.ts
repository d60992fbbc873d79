import { now, type Db } from '../../db/connection';

const MAX_ROWS = 200;

export async function recentFailures(
  db: Db,
  since: string,
  by: { username: string } | { ip: string },
): Promise<number[]> {
  let q = db.selectFrom('login_failures').select('created').where('created', '>', since);
  q = 'username' in by ? q.where('username', '=', by.username) : q.where('ip', '=', by.ip);
  const rows = await q.orderBy('created', 'desc').limit(MAX_ROWS).execute();
  return rows.map((r) => Date.parse(r.created));
}

/** Failures older than this can no longer matter (twice the longest account lock normalset allows). */
const KEEP_MS = 2 * 1440 * 60_000;

export async function recordFailure(db: Db, username: string, ip: string): Promise<void> {
  await db.insertInto('login_failures').values({ username, ip, created: now() }).execute();
  await db
    .deleteFrom('login_failures')
    .where('created', '<', new Date(Date.now() - KEEP_MS).toISOString())
    .execute();
}

/** A successful login starts the account's count afresh (other accounts' failures from its address stay). */
export async function clearAccountFailures(db: Db, username: string): Promise<void> {
  await db.deleteFrom('login_failures').where('username', '=', username).execute();
}
