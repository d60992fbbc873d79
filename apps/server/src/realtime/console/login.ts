import { CONSOLE_EXT_PREFIX, CONSOLE_UID_BASE, type UserType, type Action } from '@bwc/protocol';

/**
 * A login to the console service, bound to at most one connection at a time. Its row in
 * `console_logins` (token hash, alive time, status) lets a new connection resume it (a reloaded
 * console, a server restart); rights and scope are cached here and re-read by the service's
 * refresh, never per message.
 */
export interface Login {
  /** console_logins.id */
  id: number;
  uid: number;
  ext_id: string;
  user_type: UserType;
  display_name: string;
  /** console: the account's username; terminal: the device's hostbody */
  username: string;
  unit_id: number;
  clientid: string;
  /** minutes the login outlives its connection */
  aliveMinutes: number;
  /** epoch ms */
  loginTime: number;
  /** console: the user behind it and the HTTP session its password is bound to */
  user: { id: number; session_id: number; role_id: number; ifadmin: number } | null;
  /** terminal: the device */
  device: { id: number; hostbody: string } | null;
  /** `menu:action` pairs of a console's role */
  rights: Set<string>;
  /** units the login may see; null: every unit (administrators) */
  scope: Set<number> | null;
}

/** uid and ext id of a console user (see CONSOLE_UID_BASE). */
export function consoleIdentity(user: { id: number; username: string }): { uid: number; ext_id: string } {
  return { uid: consoleUidOf(user.id), ext_id: `${CONSOLE_EXT_PREFIX}${user.username}` };
}

/** The console-service uid of a console user. */
export const consoleUidOf = (userId: number): number => CONSOLE_UID_BASE + userId;
export const isConsoleUid = (uid: number): boolean => uid > CONSOLE_UID_BASE;
export const userIdOfConsoleUid = (uid: number): number => uid - CONSOLE_UID_BASE;

export function can(login: Login, menus: readonly number[], action: Action): boolean {
  return menus.some((m) => login.rights.has(`${m}:${action}`));
}

export function sees(login: Login, unitId: number): boolean {
  return login.scope === null || login.scope.has(unitId);
}
