import { randomBytes } from 'node:crypto';
import {
  CmdStatus,
  REALTIME_MAX_CLIENT_ALIVE_MINUTES,
  UserType,
  type LogonAnswer,
  type LogonRequest,
} from '@bwc/protocol';
import { now } from '../../db/connection';
import { readSettings } from '../../db/settings';
import { hashToken } from '../../http/auth';
import { t } from '../../http/i18n';
import { authenticateConsole, authenticateTerminal, consoleRights } from './accounts';
import { RightsReader } from '../connections/rights';
import { CLOSE_LOGIN_ENDED, type Connection } from './connection';
import type { DomainEvents } from '../../bus';
import { ConsoleErrors } from './errors';
import { consoleIdentity, type Login } from './login';
import {
  activeLoginsOf,
  endLogins,
  findConsoleUserById,
  findLoginByTokenHash,
  insertLogin,
  sessionStates,
  staleLogins,
  terminalStates,
  touchLogins,
} from './logins.repository';
import type { ConsoleLoginRow } from './console.tables';
import type { ConsoleService } from './service';

/**
 * Logins of the console service: logon (console or terminal), take-over by a second logon,
 * resume on a new connection, logout, and the end of logins whose session, account or device
 * is no longer valid (error notice 52001) or whose connection stayed away past its alive time.
 */

/** last_seen of a bound login is written at most this often. */
export const LOGIN_TOUCH_MS = 30_000;
/**
 * A login whose connection is gone stays resumable for its client_alive_time, and at least this
 * long (ours: reconnects after a network blip or a server restart keep their login, also with
 * client_alive_time 0).
 */
export const LOGIN_RESUME_GRACE_MS = 60_000;
/** How often bound logins are checked against their session, account or device. */
export const LOGIN_REFRESH_MS = 5_000;
/** Logins past their alive time are looked for every this many refreshes (30 s). */
const EXPIRE_EVERY = 6;

/** client_alive_time rules of spec part 1 section 5: empty or 0 is 0, above 120 capped with a warning. */
export function aliveMinutes(requested: number): { minutes: number; capped: boolean } {
  if (!requested || requested <= 0) return { minutes: 0, capped: false };
  if (requested > REALTIME_MAX_CLIENT_ALIVE_MINUTES)
    return { minutes: REALTIME_MAX_CLIENT_ALIVE_MINUTES, capped: true };
  return { minutes: requested, capped: false };
}

/** Logins re-checked between two yields to the event loop, and last_seen written per statement. */
const REFRESH_SLICE = 250;

/** Let the event loop run what waits (socket reads, timers) before going on. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type SessionState = { status: string; last_seen: string; user_status: string };

/** Is the login's HTTP session active, its account enabled, and the session not timed out? */
function sessionLiveAt(s: SessionState, timeoutMinutes: number, nowMs = Date.now()): boolean {
  if (s.status !== 'active' || s.user_status !== 'enabled') return false;
  return nowMs - Date.parse(s.last_seen) <= timeoutMinutes * 60_000;
}

const newToken = () => randomBytes(32).toString('base64url');

export class LoginManager {
  /** login id -> last time its last_seen was written */
  private readonly touched = new Map<number, number>();
  private refreshes = 0;

  constructor(private readonly service: ConsoleService) {}

  private get deps() {
    return this.service.deps;
  }
  private get db() {
    return this.service.deps.db;
  }

  /** req_logon on `conn`. */
  async logon(conn: Connection, body: LogonRequest): Promise<LogonAnswer> {
    if (conn.login) throw ConsoleErrors.alreadyLoggedOn();
    const alive = aliveMinutes(body.client_alive_time);
    const identity =
      body.user_type === UserType.TERMINAL ? await this.terminalIdentity(body) : await this.consoleIdentityOf(body);
    const token = newToken();
    const ts = now();
    const clientid = body.clientid ?? String(Date.now());
    const previous = await activeLoginsOf(this.db, identity.uid);
    await endLogins(
      this.db,
      previous.map((p) => p.id),
      'taken_over',
    );
    const id = await insertLogin(this.db, {
      token_hash: hashToken(token),
      uid: identity.uid,
      ext_id: identity.ext_id,
      user_type: identity.user_type,
      user_id: identity.user?.id ?? null,
      session_id: identity.user?.session_id ?? null,
      device_id: identity.device?.id ?? null,
      clientid,
      console_name: body.console_name ?? '',
      alive_minutes: alive.minutes,
      login_time: ts,
      last_seen: ts,
      status: 'active',
      ended: '',
    });
    const login: Login = { ...identity, id, clientid, aliveMinutes: alive.minutes, loginTime: Date.parse(ts) };
    this.touched.set(id, Date.now());
    this.service.bind(conn, login);
    // the earlier connection (on whichever node) gets notice_logon cmd_status 2 and is closed; the
    // new one is bound first, so the user never shows offline in between
    for (const p of previous)
      this.deps.bus.emit('console.login.ended', { login_id: p.id, uid: p.uid, reason: 'taken_over' });
    return {
      uid: login.uid,
      ext_id: login.ext_id,
      user_type: login.user_type,
      display_name: login.display_name,
      token,
      clientid,
      client_alive_time: alive.minutes,
      client_login_time: login.loginTime,
      ...(alive.capped
        ? { warning: t(conn.lang, 'console.aliveCapped', { max: REALTIME_MAX_CLIENT_ALIVE_MINUTES }) }
        : {}),
      took_over: previous.length ? 1 : 0,
    };
  }

  private async consoleIdentityOf(
    body: LogonRequest,
  ): Promise<Omit<Login, 'id' | 'clientid' | 'aliveMinutes' | 'loginTime'>> {
    const { user, sessionId } = await authenticateConsole(this.db, body.logon_name, body.passwd);
    if (body.orgid && body.orgid !== user.unit_bh) throw ConsoleErrors.invalid('console.orgid');
    return {
      ...consoleIdentity(user),
      user_type: UserType.CONSOLE,
      display_name: user.hostname || user.username,
      username: user.username,
      unit_id: user.unit_id,
      user: { id: user.id, session_id: sessionId, role_id: user.role_id, ifadmin: user.ifadmin },
      device: null,
      ...(await consoleRights(new RightsReader(this.db), user)),
    };
  }

  private async terminalIdentity(
    body: LogonRequest,
  ): Promise<Omit<Login, 'id' | 'clientid' | 'aliveMinutes' | 'loginTime'>> {
    const d = await authenticateTerminal(this.deps, body.logon_name, body.passwd);
    return {
      uid: d.id,
      ext_id: d.jq_hostcode,
      user_type: UserType.TERMINAL,
      display_name: d.hostname || d.hostbody,
      username: d.hostbody,
      unit_id: d.unit_id,
      user: null,
      device: { id: d.id, hostbody: d.hostbody },
      rights: new Set(),
      scope: new Set([d.unit_id]),
    };
  }

  /**
   * heartbeat {clientid, token} on a connection without a login: resume the login of that token if
   * it is active, its clientid matches and it is within its alive time. Answers whether it did.
   */
  async resume(conn: Connection, clientid: string, token: string): Promise<boolean> {
    if (conn.login) return false;
    const row = await findLoginByTokenHash(this.db, hashToken(token));
    if (!row || row.status !== 'active' || row.clientid !== clientid) return false;
    const held = this.service.connectionOfLogin(row.id);
    if (held) {
      // the same client reconnected before its old socket was noticed gone: the new one wins quietly
      this.service.unbind(held);
      held.close(CLOSE_LOGIN_ENDED, 'resumed elsewhere');
    } else if (Date.now() - Date.parse(row.last_seen) > this.window(row)) {
      await endLogins(this.db, [row.id], 'ended');
      return false;
    }
    const login = await this.rebuild(row);
    if (!login) {
      await endLogins(this.db, [row.id], 'ended');
      return false;
    }
    this.touched.set(row.id, 0);
    this.service.bind(conn, login);
    await this.touch(conn);
    return true;
  }

  /** A stored login as it is now (null when its session, account or device no longer allows it). */
  private async rebuild(row: ConsoleLoginRow): Promise<Login | null> {
    const base = {
      id: row.id,
      clientid: row.clientid,
      aliveMinutes: row.alive_minutes,
      loginTime: Date.parse(row.login_time),
    };
    if (row.user_type === UserType.CONSOLE) {
      const [s] = await sessionStates(this.db, [row.session_id ?? 0]);
      if (!s || !(await this.sessionLive(s))) return null;
      const user = await findConsoleUserById(this.db, row.user_id ?? 0);
      if (!user || user.status !== 'enabled') return null;
      return {
        ...base,
        ...consoleIdentity(user),
        user_type: UserType.CONSOLE,
        display_name: user.hostname || user.username,
        username: user.username,
        unit_id: user.unit_id,
        user: { id: user.id, session_id: row.session_id!, role_id: user.role_id, ifadmin: user.ifadmin },
        device: null,
        ...(await consoleRights(new RightsReader(this.db), user)),
      };
    }
    const [d] = await terminalStates(this.db, [row.device_id ?? 0]);
    if (!d || !d.jq_hostcode || d.remote_kill === 1) return null;
    return {
      ...base,
      uid: d.id,
      ext_id: d.jq_hostcode,
      user_type: UserType.TERMINAL,
      display_name: d.hostname || d.hostbody,
      username: d.hostbody,
      unit_id: d.unit_id,
      user: null,
      device: { id: d.id, hostbody: d.hostbody },
      rights: new Set(),
      scope: new Set([d.unit_id]),
    };
  }

  private window(row: { alive_minutes: number }): number {
    return Math.max(row.alive_minutes * 60_000, LOGIN_RESUME_GRACE_MS);
  }

  private async sessionLive(s: SessionState): Promise<boolean> {
    const { session_timeout_minutes } = await readSettings(this.db, 'normalset');
    return sessionLiveAt(s, session_timeout_minutes);
  }

  /** req_logout: the login ends now. */
  async logout(conn: Connection): Promise<void> {
    const login = this.service.unbind(conn);
    if (login) {
      this.touched.delete(login.id);
      await endLogins(this.db, [login.id], 'ended');
    }
  }

  /** The connection showed life: write last_seen at most every LOGIN_TOUCH_MS. */
  async touch(conn: Connection): Promise<void> {
    const login = conn.login;
    if (!login) return;
    const last = this.touched.get(login.id) ?? 0;
    if (Date.now() - last < LOGIN_TOUCH_MS) return;
    this.touched.set(login.id, Date.now());
    await touchLogins(this.db, [login.id]);
  }

  /** A connection closed: keep its login resumable from now on (last_seen = now). */
  async released(login: Login): Promise<void> {
    this.touched.delete(login.id);
    await touchLogins(this.db, [login.id]);
  }

  /** The server stops: the logins bound here stay resumable from now on. */
  async stopped(logins: Login[]): Promise<void> {
    await touchLogins(
      this.db,
      logins.map((l) => l.id),
    );
  }

  /** The bus said a login ended: if its connection is here, tell it and close it. */
  ended(e: DomainEvents['console.login.ended']): void {
    const conn = this.service.connectionOfLogin(e.login_id);
    const login = conn?.login;
    if (!conn || !login) return;
    if (e.reason === 'taken_over') {
      this.service.sendTo(conn, {
        msg_code: 'notice_logon',
        payload: { uid: login.uid, ext_id: login.ext_id },
        cmd_status: CmdStatus.LOGON_TAKEN_OVER,
        error_reason: t(conn.lang, 'console.takenOver'),
      });
    } else if (e.reason === 'invalid') {
      this.service.sendTo(conn, {
        msg_code: 'notice_error',
        payload: {},
        cmd_status: CmdStatus.LOGIN_INVALID,
        error_reason: t(conn.lang, 'console.loginEnded', { reason: e.reasonKey ?? 'console.reason.session' }),
      });
    } else {
      this.service.sendTo(conn, { msg_code: 'notice_logout', payload: { uid: login.uid, ext_id: login.ext_id } });
    }
    this.touched.delete(login.id);
    this.service.unbind(conn);
    conn.close(CLOSE_LOGIN_ENDED, e.reason);
  }

  /** End a login for a reason of the server (its session, account or device changed). */
  async invalidate(login: Login, reasonKey: string): Promise<void> {
    await endLogins(this.db, [login.id], 'ended');
    this.deps.bus.emit('console.login.ended', { login_id: login.id, uid: login.uid, reason: 'invalid', reasonKey });
  }

  /**
   * Re-check bound logins: consoles against their session and account (rights and scope re-read),
   * terminals against their device; end those no longer allowed. Also end logins whose connection
   * stayed away past their alive time.
   *
   * Thousands of logins are re-checked at once: the settings are read once, rights and scope once
   * per (role, unit, admin) and last_seen written in one statement per REFRESH_SLICE logins; the
   * walk yields to the event loop every REFRESH_SLICE logins, so that requests arriving meanwhile
   * are answered in between instead of after the whole walk.
   */
  async refresh(): Promise<void> {
    const conns = this.service.boundConnections();
    const consoles = conns.filter((c) => c.login!.user);
    const terminals = conns.filter((c) => c.login!.device);
    const sessions = new Map(
      (
        await sessionStates(
          this.db,
          consoles.map((c) => c.login!.user!.session_id),
        )
      ).map((s) => [s.id, s]),
    );
    const { session_timeout_minutes } = await readSettings(this.db, 'normalset');
    const reader = new RightsReader(this.db);
    let walked = 0;
    for (const conn of consoles) {
      if (++walked % REFRESH_SLICE === 0) await nextTurn();
      const login = conn.login;
      if (!login?.user) continue;
      const s = sessions.get(login.user.session_id);
      if (!s || !sessionLiveAt(s, session_timeout_minutes)) {
        const reason = s && s.user_status !== 'enabled' ? 'console.reason.account' : 'console.reason.session';
        await this.invalidate(login, reason);
        continue;
      }
      login.user.role_id = s.role_id;
      login.user.ifadmin = s.ifadmin;
      login.unit_id = s.unit_id;
      login.display_name = s.hostname || login.username;
      // each login keeps Sets of its own (the reader's, read once per role and unit, are copied)
      Object.assign(login, await consoleRights(reader, { role_id: s.role_id, unit_id: s.unit_id, ifadmin: s.ifadmin }));
    }
    await nextTurn();
    const devices = new Map(
      (
        await terminalStates(
          this.db,
          terminals.map((c) => c.login!.device!.id),
        )
      ).map((d) => [d.id, d]),
    );
    for (const conn of terminals) {
      if (++walked % REFRESH_SLICE === 0) await nextTurn();
      const login = conn.login;
      if (!login?.device) continue;
      const d = devices.get(login.device.id);
      if (!d || !d.jq_hostcode || d.remote_kill === 1) {
        await this.invalidate(login, 'console.reason.device');
        continue;
      }
      login.unit_id = d.unit_id;
      login.ext_id = d.jq_hostcode;
      login.display_name = d.hostname || login.username;
      login.scope = new Set([d.unit_id]);
    }
    const due: number[] = [];
    const nowMs = Date.now();
    for (const conn of conns) {
      const login = conn.login;
      if (!login || nowMs - (this.touched.get(login.id) ?? 0) < LOGIN_TOUCH_MS) continue;
      this.touched.set(login.id, nowMs);
      due.push(login.id);
    }
    for (let i = 0; i < due.length; i += REFRESH_SLICE) {
      await nextTurn();
      await touchLogins(this.db, due.slice(i, i + REFRESH_SLICE));
    }
    if (++this.refreshes % EXPIRE_EVERY === 0) await this.expire();
  }

  /** End logins whose connection is gone past their alive time (and the grace window). */
  async expire(nowMs = Date.now()): Promise<number> {
    const stale = await staleLogins(this.db, new Date(nowMs - LOGIN_RESUME_GRACE_MS).toISOString());
    const bound = new Set(this.service.boundConnections().map((c) => c.login!.id));
    const ids = stale
      .filter((r) => !bound.has(r.id) && nowMs - Date.parse(r.last_seen) > this.window(r))
      .map((r) => r.id);
    return endLogins(this.db, ids, 'ended');
  }
}
