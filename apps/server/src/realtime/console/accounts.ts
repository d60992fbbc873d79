import { createHmac, timingSafeEqual } from 'node:crypto';
import { CONSOLE_WS_PATH, MenuId, type GroupApi } from '@bwc/protocol';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connection';
import { readSettings } from '../../db/settings';
import type { AuthContext } from '../../http/auth';
import { loadPermissions } from '../../modules/auth/permission.repository';
import { ConsoleErrors } from './errors';
import { consoleIdentity, type Login } from './login';
import type { RightsReader } from '../connections/rights';
import type { ConsoleDeps, ConsoleService } from './service';
import {
  activeSessionsOf,
  findConsoleUser,
  findSessionKey,
  findTerminal,
  readServiceKey,
  type ConsoleUser,
} from './logins.repository';

/**
 * Console-service accounts. A console user's account is his own username; its password (`djpwd`
 * of group_api) is derived from the service key and the user's current HTTP session, so that it
 * is never stored, differs per session and dies with the session (the service then ends the login
 * with error notice 52001). Terminals log on with their device credentials.
 */

/** The menus whose view opens the service to a console user (group_api switch 1). */
const SERVICE_MENUS = [MenuId.EMERGENCY, MenuId.CLUSTER, MenuId.MSG_MANAGE];

let cachedKey: { db: Db; key: Buffer } | null = null;
async function serviceKey(db: Db): Promise<Buffer> {
  if (cachedKey?.db !== db) cachedKey = { db, key: await readServiceKey(db) };
  return cachedKey.key;
}

function derivePassword(key: Buffer, session: { id: number; token_hash: string }): string {
  return createHmac('sha256', key).update(`console-service:${session.id}:${session.token_hash}`).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * group_api of gis info (spec part 2 section 3) for the caller: switch (1 when the role may use the
 * service), ip and port the console reaches the service at (the dedicated port when it listens,
 * else the main port with `path`), orgid (the user's unit code), username, djpwd, islogin (1 while the account is
 * logged on to the service).
 */
export async function groupApi(
  db: Db,
  service: Pick<ConsoleService, 'listeningPort' | 'online'>,
  req: FastifyRequest,
  auth: AuthContext,
): Promise<GroupApi> {
  const perms = await loadPermissions(db, auth.user.role_id);
  const allowed = SERVICE_MENUS.some((m) => perms[m]?.view === 1);
  const session = await findSessionKey(db, auth.session.id);
  // the dedicated port only when the service really listens on it (CONSOLE_PORT may be taken)
  const dedicated = service.listeningPort ?? 0;
  const host = req.hostname.replace(/:\d+$/, '');
  const requestPort = Number(/:(\d+)$/.exec(req.host)?.[1] ?? (req.protocol === 'https' ? 443 : 80));
  const { uid } = consoleIdentity(auth.user);
  return {
    switch: allowed ? 1 : 0,
    ip: host,
    port: dedicated > 0 ? dedicated : requestPort,
    path: dedicated > 0 ? '/' : CONSOLE_WS_PATH,
    orgid: auth.user.unit_bh,
    username: auth.user.username,
    djpwd: allowed ? derivePassword(await serviceKey(db), session) : '',
    islogin: service.online(uid) ? 1 : 0,
  };
}

/** A console account's logon: the user and the live session its password belongs to; one answer for every refusal. */
export async function authenticateConsole(
  db: Db,
  logonName: string,
  passwd: string,
): Promise<{ user: ConsoleUser; sessionId: number }> {
  const user = await findConsoleUser(db, logonName);
  if (!user || user.status !== 'enabled') throw ConsoleErrors.badCredentials();
  const key = await serviceKey(db);
  const { session_timeout_minutes } = await readSettings(db, 'normalset');
  const idleLimit = Date.now() - session_timeout_minutes * 60_000;
  for (const session of await activeSessionsOf(db, user.id)) {
    if (Date.parse(session.last_seen) < idleLimit) continue;
    if (sameText(derivePassword(key, session), passwd)) return { user, sessionId: session.id };
  }
  throw ConsoleErrors.badCredentials();
}

/** A terminal's logon: a device with a cluster number, its secret, not remotely killed. */
export async function authenticateTerminal(
  deps: Pick<ConsoleDeps, 'db' | 'devices'>,
  logonName: string,
  passwd: string,
) {
  const found = await findTerminal(deps.db, logonName);
  const device = found ? await deps.devices.verifySecret(found.hostbody, passwd) : null;
  if (!found || !device) throw ConsoleErrors.badCredentials();
  if (!found.jq_hostcode) throw ConsoleErrors.conflict('console.notTerminal');
  if (found.remote_kill === 1) throw ConsoleErrors.conflict('console.deviceKilled');
  return found;
}

/**
 * Rights (`menu:action`) and unit scope of a console user's role, as sets of the login's own (the
 * reader's are shared by every login of the pass); re-read by the refresh.
 */
export async function consoleRights(
  reader: RightsReader,
  user: { role_id: number; unit_id: number; ifadmin: number },
): Promise<Pick<Login, 'rights' | 'scope'>> {
  const { rights, scope } = await reader.of(user);
  return { rights: new Set(rights), scope: scope && new Set(scope) };
}
