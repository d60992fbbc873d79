import { DEVICE_SETTINGS_DEFAULTS, DeviceSettings } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { writeSettings } from '../../db/settings';

/** Settings row type of the device settings (not one of the /system screens). */
export const DEVICE_SETTINGS_TYPE = 'devices';

export async function readDeviceSettings(db: Db): Promise<DeviceSettings> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('type', '=', DEVICE_SETTINGS_TYPE)
    .executeTakeFirst();
  if (!row) return DEVICE_SETTINGS_DEFAULTS;
  try {
    const parsed = DeviceSettings.safeParse({ ...DEVICE_SETTINGS_DEFAULTS, ...(JSON.parse(row.value) as object) });
    return parsed.success ? parsed.data : DEVICE_SETTINGS_DEFAULTS;
  } catch {
    return DEVICE_SETTINGS_DEFAULTS;
  }
}

export async function writeDeviceSettings(db: Db, value: DeviceSettings): Promise<void> {
  await writeSettings(db, DEVICE_SETTINGS_TYPE, value);
}
