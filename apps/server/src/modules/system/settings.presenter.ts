import type { Settings, SettingsType } from '@bwc/protocol';

/**
 * Settings as the console receives them. The configured reset password (normalset
 * default_password) and the GB device password (gbconfig DevicePassword) reach only those who
 * may edit their type.
 */
export function presentSettings<T extends SettingsType>(type: T, value: Settings<T>, canEdit: boolean): Settings<T> {
  if (type === 'normalset' && !canEdit) return { ...value, default_password: '' };
  if (type === 'gbconfig' && !canEdit) return { ...value, DevicePassword: '' };
  return value;
}
