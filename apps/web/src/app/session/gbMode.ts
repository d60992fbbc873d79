import { MenuId, type UserContext } from '@bwc/protocol';

/**
 * The application-wide GB mode flag (spec part 1 section 1), as the server's user context gives it
 * (`gb`, from the GB settings' gb_mode). Screens that differ between the two modes read it here.
 */

/** Menus that exist only in GB mode: video patrol and the GB alarm history. */
export const GB_ONLY_MENUS: readonly number[] = [MenuId.VIDEO_PATROL, MenuId.MONITOR_ALARM];

/** The field naming a device: its GB code (gbbm) in GB mode, the body-camera id (hostbody) otherwise. */
export type DeviceKeyField = 'gbbm' | 'hostbody';

export function isGbMode(context: Pick<UserContext, 'gb'> | undefined): boolean {
  return context?.gb === 1;
}

export function deviceKeyField(gb: boolean): DeviceKeyField {
  return gb ? 'gbbm' : 'hostbody';
}

/** Whether the mode has the menu: GB-only menus outside GB mode do not. */
export function modeHasMenu(context: Pick<UserContext, 'gb'> | undefined, menuId: number): boolean {
  return isGbMode(context) || !GB_ONLY_MENUS.includes(menuId);
}
