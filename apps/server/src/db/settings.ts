import { randomBytes } from 'node:crypto';
import { SETTINGS_DEFAULTS, SettingsSchemas, type Settings, type SettingsType } from '@bwc/protocol';
import { now, type Db } from './connection';

/**
 * Settings of one type: the stored JSON over the protocol defaults. A stored value that no longer
 * parses (older shape) falls back field by field to the defaults.
 */
export async function readSettings<T extends SettingsType>(db: Db, type: T): Promise<Settings<T>> {
  const row = await db.selectFrom('settings').select('value').where('type', '=', type).executeTakeFirst();
  const defaults = SETTINGS_DEFAULTS[type];
  if (!row) return defaults;
  let stored: unknown;
  try {
    stored = JSON.parse(row.value);
  } catch {
    return defaults;
  }
  const merged = { ...defaults, ...(stored && typeof stored === 'object' ? stored : {}) };
  const parsed = SettingsSchemas[type].safeParse(merged);
  return parsed.success ? (parsed.data as Settings<T>) : defaults;
}

export async function writeSettings(db: Db, type: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  const ts = now();
  await db
    .insertInto('settings')
    .values({ type, value: json, updated: ts })
    .onConflict((oc) => oc.column('type').doUpdateSet({ value: json, updated: ts }))
    .execute();
}

/**
 * A random 32-byte secret kept in the settings row `type` (the console service's key, the media
 * signing key), shared by every node: created once, race-free (the first insert wins and every
 * caller reads it back).
 */
export async function readSecret(db: Db, type: string): Promise<Buffer> {
  const read = () => db.selectFrom('settings').select('value').where('type', '=', type).executeTakeFirst();
  let row = await read();
  if (!row) {
    await db
      .insertInto('settings')
      .values({ type, value: JSON.stringify(randomBytes(32).toString('base64')), updated: now() })
      .onConflict((oc) => oc.column('type').doNothing())
      .execute();
    row = await read();
  }
  return Buffer.from(JSON.parse(row!.value) as string, 'base64');
}
