import {
  ALARM_TYPE,
  ClientLogin,
  MenuId,
  pickLanguage,
  ResultCode,
  SESSION_WS_CLOSE_UNAUTHORISED,
  SESSION_WS_PATH,
  SESSION_WS_PING_MS,
  SITE_DATA_FLUSH_MS,
  SiteFilter,
  translate,
  type Language,
  type SitePush,
} from '@bwc/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DeviceRef, PositionEvent } from '../../bus';
import { readSettings } from '../../db/settings';
import { hashToken, readToken, requireLiveSession, type AuthContext } from '../../http/auth';
import { AppError } from '../../http/errors';
import type { AlarmRow } from '../../modules/alarms/alarms.tables';
import { ALARM_PIC_WEB_ROOT } from '../../modules/alarms/ai/picture-store';
import { presentAlarm, type TypeNames } from '../../modules/alarms/alarms.service';
import { findSessionByTokenHash } from '../../modules/auth/session.repository';
import { ensureWebsocket } from '../connections/websocket';
import { sessionStates, tokenHashOfLogincode } from './session-channel.repository';
import { sweepSilent } from '../connections/liveness';
import { RightsReader, rightKey } from '../connections/rights';
import { Coalescer, scopedFrame } from './coalesce';

/** pre-serialised JSON (Buffer) frames are text frames, as the protocol says */
const TEXT = { binary: false } as const;

/** The members of a `ws` socket the channel uses. */
interface Socket {
  readyState: number;
  /** Buffers go out as TEXT frames ({binary: false}): browsers hand binary frames over as Blobs */
  send(data: string | Buffer, options?: { binary?: boolean }): void;
  /** the TCP socket under the websocket (ws): corked while a burst of frames is written */
  _socket?: { cork(): void; uncork(): void } | null;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  on(event: string, fn: (...args: never[]) => void): unknown;
}

/** Which position changes a console asked for (site_filter); 'all' until it asks. */
interface Sites {
  view: SiteFilter['view'];
  ids: Set<number>;
}

interface Client {
  socket: Socket;
  sites: Sites;
  lang: Language;
  /** token sent with the upgrade (cookie, Bearer or ?token=), if any */
  token: string | undefined;
  /** when the socket was last heard from (a message or a pong) */
  lastHeard: number;
  auth: {
    session_id: number;
    user_id: number;
    role_id: number;
    unit_id: number;
    ifadmin: number;
    /** unit subtree (null: every unit) */
    units: ReadonlySet<number> | null;
    alarms: boolean;
    faces: boolean;
    /** view on 10101 (Emergency): receives site_data */
    positions: boolean;
  } | null;
}

/** How often sessions, permissions and scopes of connected consoles are re-read. */
const REFRESH_MS = 3_000;
const OPEN = 1;
/** The channel's messages are client_login and ping: anything larger is refused unread. */
const MAX_MESSAGE_BYTES = 64 * 1024;

/** What the session channel reads of the alarms module to present pushed alarms. */
export interface AlarmNames {
  typeNames: { get(): Promise<TypeNames> };
  unitNameOf(unitId: number): Promise<string>;
}

/**
 * Session push channel (spec part 1 section 7, protocol schemas/realtime-session.ts): consoles
 * log in with their session's logincode and receive alarm_data / face_data / plate_data /
 * device_data for the units they may see, as permitted by their role.
 */
export class SessionHub {
  readonly clients = new Set<Client>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** position changes since the last site_data flush, latest fix per device */
  private readonly siteChanges = new Coalescer<number, SitePush>(SITE_DATA_FLUSH_MS, () => this.flushSites());
  /** committed alarms waiting for the next push (same event-loop turn), in commit order */
  private pendingAlarms: AlarmRow[] = [];
  private alarmFlush: Promise<number> | null = null;
  private alarmImmediate: NodeJS.Immediate | null = null;
  /** totals since start (bench, diagnostics): alarm bursts pushed, socket writes, frames */
  readonly stats = { alarmBursts: 0, alarmWrites: 0, alarmFrames: 0 };

  constructor(
    private readonly app: FastifyInstance,
    private readonly alarms: AlarmNames,
  ) {
    this.timers.push(setInterval(() => this.heartbeat(), SESSION_WS_PING_MS).unref());
    this.timers.push(
      setInterval(
        () => void this.refresh().catch((err) => app.log.error({ err }, 'session channel refresh failed')),
        REFRESH_MS,
      ).unref(),
    );
  }

  accept(socket: Socket, req: FastifyRequest): void {
    const query = req.query as { token?: string; lang?: string };
    const client: Client = {
      socket,
      lang: pickLanguage(query.lang ?? (req.headers['x-lang'] as string | undefined)),
      token: query.token || readToken(req),
      sites: { view: 'all', ids: new Set() },
      lastHeard: Date.now(),
      auth: null,
    };
    this.clients.add(client);
    socket.on('pong', () => {
      client.lastHeard = Date.now();
    });
    socket.on('close', () => this.clients.delete(client));
    socket.on('error', () => this.clients.delete(client));
    socket.on('message', (data: Buffer) => {
      client.lastHeard = Date.now();
      void this.onMessage(client, req, data).catch((err) =>
        this.app.log.error({ err }, 'session channel message failed'),
      );
    });
  }

  private reply(client: Client, cmd: string, code: number, key: string, params: Record<string, string | number> = {}) {
    if (client.socket.readyState === OPEN) {
      client.socket.send(JSON.stringify({ cmd, code, msg: translate(client.lang, key, params) }));
    }
  }

  private async onMessage(client: Client, req: FastifyRequest, data: Buffer): Promise<void> {
    if (data.byteLength > MAX_MESSAGE_BYTES) return this.reply(client, 'error', ResultCode.INVALID, 'errors.tooLarge');
    let msg: unknown;
    try {
      msg = JSON.parse(data.toString());
    } catch {
      return this.reply(client, 'error', ResultCode.INVALID, 'errors.badJson');
    }
    const cmd = (msg as { cmd?: unknown } | null)?.cmd;
    if (cmd === 'ping') {
      if (client.socket.readyState === OPEN) client.socket.send(JSON.stringify({ cmd: 'pong', time: Date.now() }));
      return;
    }
    if (cmd === 'site_filter') return this.siteFilter(client, msg);
    if (cmd !== 'client_login') return this.reply(client, String(cmd ?? 'error'), ResultCode.INVALID, 'errors.badBody');
    const parsed = ClientLogin.safeParse(msg);
    if (!parsed.success) {
      this.reply(client, 'client_login', ResultCode.INVALID, 'errors.badBody');
      return client.socket.close(SESSION_WS_CLOSE_UNAUTHORISED, 'client_login');
    }
    try {
      const auth = await this.login(client, req, parsed.data);
      client.auth = {
        session_id: auth.session.id,
        user_id: auth.user.id,
        role_id: auth.user.role_id,
        unit_id: auth.user.unit_id,
        ifadmin: auth.user.ifadmin,
        units: null,
        alarms: false,
        faces: false,
        positions: false,
      };
      await this.loadRights([client]);
      this.reply(client, 'client_login', ResultCode.OK, 'success.login');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      this.reply(client, 'client_login', err.code, err.key, err.params as Record<string, string | number>);
      client.socket.close(SESSION_WS_CLOSE_UNAUTHORISED, 'client_login');
    }
  }

  /** site_filter: which devices' position changes this console receives from now on. */
  private siteFilter(client: Client, msg: unknown): void {
    if (!client.auth) return this.reply(client, 'site_filter', ResultCode.UNAUTHENTICATED, 'errors.unauthenticated');
    const parsed = SiteFilter.safeParse(msg);
    if (!parsed.success) return this.reply(client, 'site_filter', ResultCode.INVALID, 'errors.badBody');
    client.sites = { view: parsed.data.view, ids: new Set(parsed.data.ids) };
    this.reply(client, 'site_filter', ResultCode.OK, 'success.ok');
  }

  /** The live session of the logincode (and of the upgrade's token when one was sent). */
  private async login(client: Client, req: FastifyRequest, m: ClientLogin): Promise<AuthContext> {
    const db = this.app.db;
    let found: AuthContext | undefined;
    if (client.token) {
      found = await findSessionByTokenHash(db, hashToken(client.token));
    } else {
      const tokenHash = await tokenHashOfLogincode(db, m.logincode);
      found = tokenHash ? await findSessionByTokenHash(db, tokenHash) : undefined;
    }
    if (found && (found.session.logincode !== m.logincode || found.user.username !== m.username)) found = undefined;
    return requireLiveSession(this.app, req, found);
  }

  /**
   * Re-read permissions (10104/10154 view: alarms; 10095 view: face pictures; 10101 view:
   * positions) and unit subtrees. Runs at client_login and with every session check, so pushes
   * use these cached rights instead of asking the database per message.
   */
  private async loadRights(clients: Client[]): Promise<void> {
    const authed = clients.filter((c) => c.auth);
    if (!authed.length) return;
    const reader = new RightsReader(this.app.db);
    for (const c of authed) {
      const a = c.auth!;
      const rights = await reader.rightsOf(a.role_id);
      const can = (menu: number) => rights.has(rightKey(menu, 'view'));
      a.alarms = can(MenuId.DISPATCH_ALARM) || can(MenuId.MONITOR_ALARM);
      a.faces = can(MenuId.FACE_ALARM);
      a.positions = can(MenuId.EMERGENCY);
      a.units = await reader.scopeOf(a);
    }
  }

  /** Close sockets whose session ended (logout, kicked, expired, user disabled); refresh rights. */
  async refresh(): Promise<void> {
    const authed = [...this.clients].filter((c) => c.auth);
    if (!authed.length) return;
    const ids = [...new Set(authed.map((c) => c.auth!.session_id))];
    const rows = await sessionStates(this.app.db, ids);
    const { session_timeout_minutes } = await readSettings(this.app.db, 'normalset');
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const c of authed) {
      const r = byId.get(c.auth!.session_id);
      const idle = r ? Date.now() - Date.parse(r.last_seen) > session_timeout_minutes * 60_000 : true;
      if (!r || r.status !== 'active' || r.user_status !== 'enabled' || idle) {
        this.reply(
          c,
          'logout',
          ResultCode.UNAUTHENTICATED,
          r?.status === 'kicked' ? 'errors.forcedOffline' : 'errors.sessionExpired',
        );
        c.auth = null;
        c.socket.close(SESSION_WS_CLOSE_UNAUTHORISED, 'session');
        this.clients.delete(c);
        continue;
      }
      c.auth!.role_id = r.role_id;
      c.auth!.unit_id = r.unit_id;
    }
    await this.loadRights([...this.clients]);
  }

  /** Ping every socket; one that did not answer the previous ping (silent a whole interval) is closed. */
  private heartbeat(): void {
    sweepSilent(this.clients, {
      limitMs: SESSION_WS_PING_MS,
      onSilent: (c) => {
        c.socket.terminate();
        this.clients.delete(c);
      },
      probe: (c) => {
        try {
          c.socket.ping();
        } catch {
          this.clients.delete(c);
        }
      },
    });
  }

  private sees(c: Client, unitId: number): boolean {
    return c.auth !== null && (c.auth.units === null || c.auth.units.has(unitId));
  }

  /**
   * A committed alarm, pushed with every other alarm committed in the same event-loop turn (a
   * group commit of the ingest emits its alarms together): see `pushAlarms`.
   */
  queueAlarm(row: AlarmRow): void {
    this.pendingAlarms.push(row);
    if (!this.alarmImmediate && !this.alarmFlush) this.alarmImmediate = setImmediate(() => this.kickAlarms());
  }

  private kickAlarms(): void {
    this.alarmImmediate = null;
    if (this.alarmFlush || !this.pendingAlarms.length) return;
    const rows = this.pendingAlarms;
    this.pendingAlarms = [];
    this.alarmFlush = this.pushAlarms(rows)
      .catch((err) => {
        this.app.log.error({ err }, 'alarm push failed');
        return 0;
      })
      .finally(() => {
        this.alarmFlush = null;
        if (this.pendingAlarms.length) this.kickAlarms();
      });
  }

  /** Push a committed alarm now (see `pushAlarms`). */
  pushAlarm(row: AlarmRow): Promise<number> {
    return this.pushAlarms([row]);
  }

  /**
   * Push committed alarms, in order: alarm_data to alarm viewers of each alarm's unit;
   * face_data / plate_data with the picture. Every frame is serialised once per alarm and
   * language (not per console), and each console gets its frames of the burst in ONE socket
   * write (the TCP socket is corked while they are queued; each alarm stays its own websocket
   * message). Answers the number of alarm_data messages sent.
   */
  async pushAlarms(rows: AlarmRow[]): Promise<number> {
    const targets = [...this.clients].filter((c) => c.socket.readyState === OPEN && c.auth);
    if (!targets.length || !rows.length) return 0;
    const names = await this.alarms.typeNames.get();
    const unitnames = new Map<number, string>();
    for (const row of rows) {
      const unit = Number(row.unit_id);
      if (!unitnames.has(unit)) unitnames.set(unit, await this.alarms.unitNameOf(unit));
    }
    interface Frames {
      alarm: Buffer;
      picture: Buffer | null;
    }
    const frames = rows.map(() => new Map<Language, Frames>());
    const frameFor = (i: number, lang: Language): Frames => {
      let f = frames[i]!.get(lang);
      if (!f) {
        const row = rows[i]!;
        const alarm = presentAlarm(
          { ...row, unitname: unitnames.get(Number(row.unit_id))!, has_read: 0 },
          names,
          lang,
          1,
        );
        const kind = row.type === ALARM_TYPE.FACE ? 'face_data' : row.type === ALARM_TYPE.PLATE ? 'plate_data' : null;
        f = {
          alarm: Buffer.from(JSON.stringify({ type: 'alarm_data', data: alarm })),
          picture:
            kind && alarm.picture
              ? Buffer.from(JSON.stringify({ type: kind, data: alarm.picture, web_root: ALARM_PIC_WEB_ROOT }))
              : null,
        };
        frames[i]!.set(lang, f);
      }
      return f;
    };
    let sent = 0;
    for (const c of targets) {
      // the rights may have been dropped (refresh) or the socket closed while names were read
      if (c.socket.readyState !== OPEN || !c.auth) continue;
      const tcp = c.socket._socket;
      let corked = false;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        if (!this.sees(c, Number(row.unit_id))) continue;
        const pictureAllowed = row.type === ALARM_TYPE.FACE ? c.auth.faces : c.auth.alarms;
        if (!c.auth.alarms && !pictureAllowed) continue;
        const f = frameFor(i, c.lang);
        if (!f.picture && !c.auth.alarms) continue;
        if (!corked && tcp) {
          tcp.cork();
          corked = true;
        }
        if (c.auth.alarms) {
          c.socket.send(f.alarm, TEXT);
          sent += 1;
          this.stats.alarmFrames += 1;
        }
        if (f.picture && pictureAllowed) {
          c.socket.send(f.picture, TEXT);
          this.stats.alarmFrames += 1;
        }
      }
      if (corked) {
        tcp!.uncork();
        this.stats.alarmWrites += 1;
      }
    }
    this.stats.alarmBursts += 1;
    return sent;
  }

  /** device_data: a device went online or offline (consoles that see its unit). */
  pushDevice(e: DeviceRef & { time: string }, lineon: 0 | 1): void {
    const frame = JSON.stringify({
      type: 'device_data',
      data: {
        device_id: e.device_id,
        hostbody: e.hostbody,
        hostname: e.hostname,
        unit_id: e.unit_id,
        lineon,
        time: e.time,
      },
    });
    for (const c of this.clients) {
      if (c.socket.readyState === OPEN && this.sees(c, e.unit_id)) c.socket.send(frame);
    }
  }

  /** Positions committed by the device ingest: merged per device (latest fix wins) until the next flush. */
  queuePositions(positions: PositionEvent[]): void {
    for (const p of positions) {
      const cur = this.siteChanges.get(p.device_id);
      if (cur && cur.time > p.time) continue;
      this.siteChanges.set(p.device_id, {
        device_id: p.device_id,
        hostbody: p.hostbody,
        hostname: p.hostname ?? cur?.hostname ?? '',
        unit_id: p.unit_id,
        lng: p.lng,
        lat: p.lat,
        speed: p.speed,
        course: p.course,
        battery: p.battery,
        time: p.time,
        lineon: p.lineon === 0 ? 0 : 1,
      });
    }
  }

  /**
   * site_data: one message per permitted console with the changed devices of its units that its
   * site_filter asks for. Consoles without a filter sharing a unit subtree (the same cached Set)
   * share one serialised frame; filtered ones get a frame of their own, joined from entries
   * serialised once. Answers the number of messages sent.
   */
  flushSites(): number {
    const sites = this.siteChanges.take();
    if (!sites.length) return 0;
    const frames = new Map<ReadonlySet<number> | null, string | null>();
    let entries: string[] | null = null;
    let sent = 0;
    for (const c of this.clients) {
      if (c.socket.readyState !== OPEN || !c.auth?.positions) continue;
      const units = c.auth.units;
      const { view, ids } = c.sites;
      let frame: string | null;
      if (view === 'all') frame = scopedFrame(frames, units, 'site_data', sites);
      else {
        entries ??= sites.map((x) => JSON.stringify(x));
        const parts: string[] = [];
        for (let i = 0; i < sites.length; i++) {
          const x = sites[i]!;
          if (units !== null && !units.has(x.unit_id)) continue;
          if (ids.has(x.device_id) || (view !== 'none' && inView(view, x))) parts.push(entries[i]!);
        }
        frame = parts.length ? `{"type":"site_data","data":[${parts.join(',')}]}` : null;
      }
      if (frame === null) continue;
      c.socket.send(frame);
      sent += 1;
    }
    return sent;
  }

  close(): void {
    if (this.alarmImmediate) clearImmediate(this.alarmImmediate);
    this.alarmImmediate = null;
    this.pendingAlarms = [];
    this.siteChanges.close();
    for (const t of this.timers) clearInterval(t);
    for (const c of this.clients) c.socket.terminate();
    this.clients.clear();
  }
}

/** a fix inside a site_filter box [west, south, east, north] */
function inView([west, south, east, north]: readonly [number, number, number, number], x: SitePush): boolean {
  return x.lng >= west && x.lng <= east && x.lat >= south && x.lat <= north;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the session push channel (realtime/session/session-channel.ts) */
    sessionHub: SessionHub;
  }
}

/** Serve the session push channel at SESSION_WS_PATH (user info's wsurl), presenting alarms with the alarms module's names. */
export async function registerSessionChannel(app: FastifyInstance, { alarms }: { alarms: AlarmNames }): Promise<void> {
  await ensureWebsocket(app);
  const hub = new SessionHub(app, alarms);
  app.decorate('sessionHub', hub);
  app.get(SESSION_WS_PATH, { websocket: true }, (socket, req) => hub.accept(socket as unknown as Socket, req));
  app.bus.on('alarm.created', ({ alarm }) => hub.queueAlarm(alarm));
  app.bus.on('device.online', (e) => hub.pushDevice(e, 1));
  app.bus.on('device.offline', (e) => hub.pushDevice(e, 0));
  app.bus.on('positions', ({ positions }) => hub.queuePositions(positions));
  app.addHook('preClose', async () => hub.close());
}
