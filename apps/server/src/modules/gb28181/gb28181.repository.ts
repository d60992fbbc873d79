import { GB_SETTINGS_DEFAULTS, type GbSettings } from '@bwc/protocol';
import { now, type Db } from '../../db/connection';
import { readSettings } from '../../db/settings';

/** The settings type of the GB settings (protocol SettingsSchemas.gbconfig). */
const GB_TYPE = 'gbconfig';

export async function readGbSettings(db: Db): Promise<GbSettings> {
  return readSettings(db, GB_TYPE);
}

/**
 * GB_MODE=1 on a database whose GB settings were never saved: store the defaults with the flag
 * on. Saved settings are left alone (the settings page decides from then on).
 */
export async function seedGbMode(db: Db): Promise<void> {
  await db
    .insertInto('settings')
    .values({ type: GB_TYPE, value: JSON.stringify({ ...GB_SETTINGS_DEFAULTS, gb_mode: 1 }), updated: now() })
    .onConflict((oc) => oc.column('type').doNothing())
    .execute();
}
