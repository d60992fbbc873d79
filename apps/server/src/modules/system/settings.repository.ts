import { PlayConfig } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { writeSettings } from '../../db/settings';

/** The live-video play config is stored as settings type `play` (not a settings screen type). */
const PLAY_TYPE = 'play';

export async function readPlayConfig(db: Db): Promise<PlayConfig> {
  const row = await db.selectFrom('settings').select('value').where('type', '=', PLAY_TYPE).executeTakeFirst();
  let stored: unknown = {};
  try {
    stored = row ? JSON.parse(row.value) : {};
  } catch {
    stored = {};
  }
  const parsed = PlayConfig.safeParse(stored);
  return parsed.success ? parsed.data : PlayConfig.parse({});
}

export async function writePlayConfig(db: Db, value: PlayConfig): Promise<void> {
  await writeSettings(db, PLAY_TYPE, value);
}

export { readSettings, writeSettings } from '../../db/settings';
