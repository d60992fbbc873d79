import type { Settings, SettingsType } from '@bwc/protocol';

/**
 * Settings as the console receives them. The configured reset password (normalset
 * default_password) reaches only those who may edit system settings.
 */
export function presentSettings<T extends SettingsType>(type: T, value: Settings<T>, canEdit: boolean): Settings<T> {
  if (type === 'normalset' && !canEdit) return { ...value, default_password: '' };
  return value;
}
