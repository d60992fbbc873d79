import { CONSOLE_EXT_PREFIX, UserType, type ParamInfo, type UserProfile } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { ConsoleErrors } from './errors';
import { consoleIdentity, isConsoleUid, sees, type Login } from './login';
import {
  adminUsersOf,
  consoleUserIds,
  findConsoleUsers,
  findTerminals,
  readParams,
  terminalsOfUnits,
  type ConsoleUserRow,
  type TerminalRow,
  unitAndAncestors,
} from './users.repository';

/**
 * The users of the service as one directory: terminals (devices with a cluster number) and
 * consoles (users), named by uid or ext id, with what a login may see. A console sees terminals of
 * its unit scope, itself and consoles of its scope; a terminal sees its own unit.
 */
export interface DirectoryEntry {
  uid: number;
  ext_id: string;
  user_type: UserType;
  display_name: string;
  username: string;
  unit_id: number;
  unitname: string;
  dwbh: string;
  terminal?: TerminalRow;
  /** console: an administrator (sees every unit) */
  ifadmin?: number;
}

function fromTerminal(t: TerminalRow): DirectoryEntry {
  return {
    uid: t.id,
    ext_id: t.jq_hostcode,
    user_type: UserType.TERMINAL,
    display_name: t.hostname || t.hostbody,
    username: t.hostbody,
    unit_id: t.unit_id,
    unitname: t.unitname,
    dwbh: t.dwbh,
    terminal: t,
  };
}

function fromConsole(c: ConsoleUserRow): DirectoryEntry {
  return {
    ...consoleIdentity(c),
    user_type: UserType.CONSOLE,
    display_name: c.hostname || c.username,
    username: c.username,
    unit_id: c.unit_id,
    unitname: c.unitname,
    dwbh: c.dwbh,
    ifadmin: c.ifadmin,
  };
}

/**
 * May `login` see `entry`? Itself, and users of its scope; a terminal also sees the consoles that
 * see it (administrators, consoles of its unit or a unit above), so that it can answer them.
 */
export function visibleTo(login: Login, entry: DirectoryEntry, above: Set<number> | null = null): boolean {
  if (entry.uid === login.uid || sees(login, entry.unit_id)) return true;
  return (
    login.user_type === UserType.TERMINAL &&
    entry.user_type === UserType.CONSOLE &&
    (entry.ifadmin === 1 || !!above?.has(entry.unit_id))
  );
}

export interface Resolved {
  entries: DirectoryEntry[];
  /** named uids / ext ids that do not exist or that the login may not see */
  unknown: (number | string)[];
}

/** The users named by uid and ext id, those the login may see (each once, in the order named). */
export async function resolveUsers(
  db: Db,
  login: Login,
  uids: readonly number[],
  extIds: readonly string[],
): Promise<Resolved> {
  const consoleExt = extIds.filter((e) => e.startsWith(CONSOLE_EXT_PREFIX));
  const terminalExt = extIds.filter((e) => !e.startsWith(CONSOLE_EXT_PREFIX));
  const consoleIds = consoleUserIds(uids);
  const [terminals, consoles] = await Promise.all([
    findTerminals(
      db,
      uids.filter((u) => !isConsoleUid(u)),
      terminalExt,
    ),
    findConsoleUsers(
      db,
      consoleIds,
      consoleExt.map((e) => e.slice(CONSOLE_EXT_PREFIX.length)),
    ),
  ]);
  const all = [...terminals.map(fromTerminal), ...consoles.filter((c) => c.status === 'enabled').map(fromConsole)];
  const above =
    login.user_type === UserType.TERMINAL && consoles.length ? await unitAndAncestors(db, login.unit_id) : null;
  const entries: DirectoryEntry[] = [];
  const unknown: (number | string)[] = [];
  const take = (found: DirectoryEntry | undefined, name: number | string) => {
    if (!found || !visibleTo(login, found, above)) unknown.push(name);
    else if (!entries.includes(found)) entries.push(found);
  };
  for (const uid of uids)
    take(
      all.find((e) => e.uid === uid),
      uid,
    );
  for (const ext of extIds)
    take(
      all.find((e) => e.ext_id === ext),
      ext,
    );
  return { entries, unknown };
}

/** Like resolveUsers, but every name must resolve: otherwise nothing is done and the error names them. */
export async function requireUsers(db: Db, login: Login, uids: readonly number[], extIds: readonly string[]) {
  const { entries, unknown } = await resolveUsers(db, login, uids, extIds);
  if (unknown.length) throw ConsoleErrors.userNotFound(unknown);
  return entries;
}

/** The same, terminals only (group members, parameters, administered users). */
export async function requireTerminals(db: Db, login: Login, uids: readonly number[], extIds: readonly string[]) {
  const entries = await requireUsers(db, login, uids, extIds);
  const consoles = entries.filter((e) => e.user_type !== UserType.TERMINAL);
  if (consoles.length)
    throw ConsoleErrors.invalid('console.notTerminals', { ids: consoles.map((c) => c.uid).join(', ') });
  return entries;
}

/** Every terminal the login sees. */
export async function terminalsInScope(db: Db, login: Login): Promise<DirectoryEntry[]> {
  return (await terminalsOfUnits(db, login.scope === null ? null : [...login.scope])).map(fromTerminal);
}

/** The login's own directory entry. */
export async function selfEntry(db: Db, login: Login): Promise<DirectoryEntry> {
  const { entries } = await resolveUsers(db, login, [login.uid], []);
  if (entries[0]) return entries[0];
  throw ConsoleErrors.userNotFound([login.uid]);
}

/** Profiles of directory entries (state from the service, parameters, a console's administered users). */
export async function presentProfiles(
  db: Db,
  entries: DirectoryEntry[],
  stateOf: (uid: number) => number,
): Promise<UserProfile[]> {
  const params = await readParams(
    db,
    entries.map((e) => e.uid),
  );
  const out: UserProfile[] = [];
  for (const e of entries) {
    const profile: UserProfile = {
      uid: e.uid,
      ext_id: e.ext_id,
      user_type: e.user_type,
      display_name: e.display_name,
      username: e.username,
      unit_id: e.unit_id,
      unitname: e.unitname,
      dwbh: e.dwbh,
      state: stateOf(e.uid),
      paraminfo: params.get(e.uid) ?? ({} as ParamInfo),
    };
    if (e.terminal) {
      profile.hostbody = e.terminal.hostbody;
      profile.hostcode = e.terminal.hostcode;
      profile.imei = e.terminal.imei;
      profile.lat = e.terminal.lat;
      profile.lng = e.terminal.lng;
    } else profile.admin_uids = await adminUsersOf(db, e.uid);
    out.push(profile);
  }
  return out;
}
