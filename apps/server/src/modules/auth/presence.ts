import { SESSION_PRESENCE_MS } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { readSettings } from '../../db/settings';

/**
 * The oldest last_seen (ISO) of a session that counts as online and as a workstation in use: heard
 * from within SESSION_PRESENCE_MS (a closed browser tab stops heartbeating), and never longer
 * than the session timeout, after which the session is over anyway.
 */
export async function presenceSince(db: Db, nowMs: number = Date.now()): Promise<string> {
  const { session_timeout_minutes } = await readSettings(db, 'normalset');
  return new Date(nowMs - Math.min(SESSION_PRESENCE_MS, session_timeout_minutes * 60_000)).toISOString();
}
