import {
  AudioKind,
  CmdType,
  CONSOLE_SILENCE_LIMIT_MS,
  pickLanguage,
  UserState,
  UserType,
  type ConsoleNoticeCode,
  type ConsoleNoticeOf,
} from '@bwc/protocol';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { EventBus } from '../../bus';
import type { Cluster } from '../../cluster/cluster';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { DeviceRuntime } from '../../modules/devices/runtime';
import type { LiveService } from '../../modules/media/live.service';
import { CLOSE_SILENT, Connection, type WsSocket } from './connection';
import { sweepSilent } from '../connections/liveness';
import { Dispatcher } from './dispatcher';
import type { ConsoleNoticeEvent, NoticeTarget } from './events';
import type { ConsoleHandler } from './handler';
import { sees, type Login } from './login';
import { GpsFanout } from './gps-fanout';
import { ImDelivery } from './im-delivery';
import { LoginManager } from './logins.service';
import type { CallService } from './call/call.service';
import type { ConferenceService } from './conference/conference.service';
import type { TalkService } from './talk/talk.service';
import * as repo from './logins.repository';

/**
 * What the devices module lends the service: terminals are devices with a cluster number; they
 * log on with their device secret, and their positions and emergencies go the devices' way.
 */
export type TerminalDevices = Pick<DeviceRuntime, 'findByIdent' | 'verifySecret' | 'validateBatch' | 'ingest' | 'sos'>;

/** The service's declared dependencies (built by the registry; no reach into `app`). */
export interface ConsoleDeps {
  db: Db;
  bus: EventBus;
  log: FastifyBaseLogger;
  config: Pick<Config, 'dataDir' | 'host' | 'consolePort' | 'pttMaxHoldMs'>;
  devices: TerminalDevices;
  /** live video on demand (modules/media): req_play_video of a terminal */
  live?: LiveService;
  /** the other nodes (who is online there; the node that announces a dead node's logins offline) */
  cluster: Pick<Cluster, 'nodeId' | 'distributed' | 'liveNodes' | 'scheduler' | 'shared'>;
}

/** How often silent connections are looked for. */
const SWEEP_MS = 5_000;

/**
 * The console service of this node: its connections, the logins bound to them, and the delivery
 * of notices. Handlers never write to other connections directly: they publish `console.notice`
 * on the domain bus (`notify`), and each node delivers the notice to its own matching connections
 * (`deliver`), so that a multi-node bus carries the fan-out unchanged.
 */
export class ConsoleService {
  readonly connections = new Set<Connection>();
  /** logged-on connections by uid (one per uid: a second logon takes the login over) */
  private readonly byUid = new Map<number, Connection>();
  /** the console logins of byUid (notices for "consoles seeing unit X" walk these, not the terminals) */
  private readonly consoles = new Set<Connection>();
  /** uids whose login a connection on another node holds, with that node (cluster.ts) */
  private readonly elsewhere = new Map<number, string>();
  /** the bindings' writes, one after the other */
  private nodeWrites: Promise<void> = Promise.resolve();
  readonly dispatcher: Dispatcher;
  readonly logins: LoginManager;
  readonly gps: GpsFanout;
  readonly im: ImDelivery;
  /** group talk: floors, audio relay, recordings (talk/talk.service.ts; set by console.module.ts) */
  talk: TalkService | null = null;
  /** voice calls: call state, audio relay, recordings (call/call.service.ts; set by console.module.ts) */
  calls: CallService | null = null;
  /** video conferences: state, audio relay (conference/conference.service.ts; set by console.module.ts) */
  conference: ConferenceService | null = null;
  /** the dedicated port (CONSOLE_PORT) the service really listens on; null while it does not */
  listeningPort: number | null = null;
  /** hooks run once a login is bound (after its logon answer, or on a resume): offline messages, ... */
  private readonly logonHooks: ((conn: Connection, login: Login) => Promise<void>)[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  /** hooks run when a connection closes or its login is unbound (presence, alive time) */
  private readonly unbindHooks: ((login: Login, conn: Connection) => void)[] = [];

  constructor(
    readonly deps: ConsoleDeps,
    handlers: ConsoleHandler[],
  ) {
    this.dispatcher = new Dispatcher(this, handlers);
    this.logins = new LoginManager(this);
    this.gps = new GpsFanout(this);
    this.im = new ImDelivery(this);
    this.timers.push(setInterval(() => this.sweepSilent(), SWEEP_MS).unref());
  }

  /** A websocket opened on the console port or path. */
  accept(socket: WsSocket, req: FastifyRequest): Connection {
    const query = (req.query ?? {}) as { lang?: string };
    const header = req.headers['x-lang'] ?? req.headers['accept-language'];
    const conn = new Connection(
      socket,
      pickLanguage(query.lang ?? (Array.isArray(header) ? header[0] : header)),
      req.ip,
    );
    this.connections.add(conn);
    socket.on('message', (data: Buffer | Buffer[] | ArrayBuffer, isBinary?: boolean) => {
      const buffer = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data as ArrayBuffer);
      // binary frames are audio, relayed at once by their kind (text frames are the JSON protocol)
      if (isBinary) {
        conn.lastHeard = Date.now();
        if (buffer[0] === AudioKind.CALL) this.calls?.audio(conn, buffer);
        else if (buffer[0] === AudioKind.CONFERENCE) this.conference?.audio(conn, buffer);
        else this.talk?.audio(conn, buffer);
        return;
      }
      void conn.enqueue(() => this.dispatcher.handle(conn, buffer));
    });
    const gone = () => this.drop(conn);
    socket.on('close', gone);
    socket.on('error', gone);
    return conn;
  }

  /** The connection holding `uid`'s login on this node. */
  connectionOf(uid: number): Connection | undefined {
    const conn = this.byUid.get(uid);
    return conn?.open ? conn : undefined;
  }

  /** The connection bound to login `id` on this node (also one whose uid a newer login took over). */
  connectionOfLogin(id: number): Connection | undefined {
    for (const conn of this.connections) if (conn.login?.id === id && conn.open) return conn;
    return undefined;
  }

  /** Is `uid` logged on, on this node or another? */
  online(uid: number): boolean {
    return this.connectionOf(uid) !== undefined || this.elsewhere.has(uid);
  }

  /** A login came or went on another node (its `console.presence` event). */
  presenceElsewhere(e: { uid: number; state: number; node?: string }): void {
    if (!e.node || e.node === this.deps.cluster.nodeId) return;
    if (e.state === UserState.ONLINE) this.elsewhere.set(e.uid, e.node);
    else if (this.elsewhere.get(e.uid) === e.node) this.elsewhere.delete(e.uid);
  }

  stateOf(uid: number): number {
    return this.online(uid) ? UserState.ONLINE : UserState.OFFLINE;
  }

  /** Bind a login to a connection and announce it (state 7). */
  bind(conn: Connection, login: Login): void {
    conn.login = login;
    const before = this.byUid.get(login.uid);
    if (before) this.consoles.delete(before);
    this.byUid.set(login.uid, conn);
    if (login.user_type === UserType.CONSOLE) this.consoles.add(conn);
    this.presence(login, UserState.ONLINE);
  }

  /** Unbind the connection's login (logout, end, close) and announce it (state 0) unless another connection holds it. */
  unbind(conn: Connection): Login | null {
    const login = conn.login;
    if (!login) return null;
    conn.login = null;
    if (this.byUid.get(login.uid) === conn) {
      this.byUid.delete(login.uid);
      this.consoles.delete(conn);
      this.presence(login, UserState.OFFLINE);
    }
    for (const hook of this.unbindHooks) hook(login, conn);
    return login;
  }

  onUnbind(hook: (login: Login, conn: Connection) => void): void {
    this.unbindHooks.push(hook);
  }

  onLogon(hook: (conn: Connection, login: Login) => Promise<void>): void {
    this.logonHooks.push(hook);
  }

  /** Run the logon hooks for a freshly bound login (after its answer went out). */
  async loggedOn(conn: Connection): Promise<void> {
    const login = conn.login;
    if (!login) return;
    for (const hook of this.logonHooks) {
      try {
        await hook(conn, login);
      } catch (err) {
        this.deps.log.error({ err, uid: login.uid }, 'console service: logon hook failed');
      }
    }
  }

  private presence(login: Login, state: number): void {
    const { db, bus, log, cluster } = this.deps;
    const node = cluster.nodeId;
    // in order: a quick logon and close must not leave the binding stored
    this.nodeWrites = this.nodeWrites
      .then(async () => {
        if (state === UserState.ONLINE) await repo.setLoginNode(db, login.id, node);
        else await repo.clearLoginNode(db, login.id, node);
      })
      .then(
        () => undefined,
        (err: unknown) => log.error({ err, uid: login.uid }, 'console service: login node not stored'),
      );
    bus.emit('console.presence', {
      uid: login.uid,
      ext_id: login.ext_id,
      user_type: login.user_type,
      unit_id: login.unit_id,
      state,
      time: Date.now(),
      node,
    });
  }

  /**
   * Who is online on the other live nodes (at start), and, on the node running the scheduled
   * work, the logins of nodes that died: their binding is cleared and they are announced offline
   * once (their consoles and terminals reconnect to another node and resume there). Answers how
   * many logins of dead nodes were announced.
   */
  async syncElsewhere(): Promise<number> {
    const { db, cluster } = this.deps;
    const live = new Set(await cluster.liveNodes());
    // a node that died without a word (its offline announcement may come from another node later)
    for (const [uid, node] of this.elsewhere) if (!live.has(node)) this.elsewhere.delete(uid);
    const rows = await repo.boundLogins(db);
    let announced = 0;
    for (const r of rows) {
      const node = r.node!;
      if (live.has(node)) {
        if (node !== cluster.nodeId && !this.byUid.has(r.uid)) this.elsewhere.set(r.uid, node);
        continue;
      }
      if (!cluster.scheduler.held || !(await repo.clearLoginNode(db, r.id, node))) continue;
      this.elsewhere.delete(r.uid);
      announced += 1;
      this.deps.bus.emit('console.presence', {
        uid: r.uid,
        ext_id: r.ext_id,
        user_type: r.user_type as UserType,
        unit_id: r.user_unit ?? r.device_unit ?? 0,
        state: UserState.OFFLINE,
        time: Date.now(),
        node,
      });
    }
    return announced;
  }

  private drop(conn: Connection): void {
    // after close() the sets are empty: a socket's late close event announces nothing
    if (!this.connections.delete(conn)) return;
    this.unbind(conn);
  }

  /** Publish a notice on the bus; every node delivers it to its matching connections. */
  notify<N extends ConsoleNoticeCode>(
    to: NoticeTarget,
    msg_code: N,
    payload: ConsoleNoticeOf<N>,
    status?: { cmd_status: number; error_reason: string },
  ): void {
    this.deps.bus.emit('console.notice', { to, msg_code, payload, ...status } as ConsoleNoticeEvent);
  }

  /** Serialise a notice (once per delivery, whatever the number of connections). */
  static frame(e: ConsoleNoticeEvent): string {
    return JSON.stringify({
      ...e.payload,
      msg_code: e.msg_code,
      cmd_type: CmdType.NOTICE,
      ...(e.cmd_status !== undefined ? { cmd_status: e.cmd_status, error_reason: e.error_reason ?? '' } : {}),
    });
  }

  /** Deliver a notice to this node's connections it is for. Answers how many got it. */
  deliver(e: ConsoleNoticeEvent): number {
    const targets = this.match(e.to);
    if (!targets.length) return 0;
    const frame = ConsoleService.frame(e);
    let sent = 0;
    for (const conn of targets) if (conn.send(frame)) sent += 1;
    return sent;
  }

  /** Send a notice to one connection (its own login's notices: offline messages, logon take-over). */
  sendTo(conn: Connection, e: Omit<ConsoleNoticeEvent, 'to'>): boolean {
    return conn.send(ConsoleService.frame({ ...e, to: {} }));
  }

  private match(to: NoticeTarget): Connection[] {
    const out = new Set<Connection>();
    for (const uid of to.uids ?? []) {
      const conn = this.connectionOf(uid);
      if (conn) out.add(conn);
    }
    if (to.seeing?.length || to.consoles) {
      for (const conn of this.consoles) {
        const login = conn.login;
        if (!login || !conn.open || login.user_type !== UserType.CONSOLE) continue;
        if (to.consoles || to.seeing!.some((unit) => sees(login, unit))) out.add(conn);
      }
    }
    if (to.exceptLogin !== undefined) for (const conn of out) if (conn.login?.id === to.exceptLogin) out.delete(conn);
    return [...out];
  }

  /** Logged-on connections of this node (the refresh re-reads their rights). */
  boundConnections(): Connection[] {
    return [...this.byUid.values()].filter((c) => c.open && c.login);
  }

  /** Logged-on console connections of this node (not the terminals). */
  consoleConnections(): Connection[] {
    return [...this.consoles].filter((c) => c.open && c.login?.user_type === UserType.CONSOLE);
  }

  /** Close connections that sent nothing for CONSOLE_SILENCE_LIMIT_MS (their login stays resumable while alive). */
  sweepSilent(now = Date.now()): number {
    return sweepSilent(this.connections, {
      limitMs: CONSOLE_SILENCE_LIMIT_MS,
      now,
      onSilent: (conn) => {
        conn.close(CLOSE_SILENT, 'silent');
        this.drop(conn);
      },
    });
  }

  addTimer(timer: NodeJS.Timeout): void {
    this.timers.push(timer);
  }

  /**
   * Stop: close every connection without announcing anyone offline or ending a login, and mark the
   * bound logins seen now, so that their clients resume them on the restarted server.
   */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.gps.close();
    await this.talk?.close();
    await this.calls?.close();
    this.conference?.close();
    const bound = this.boundConnections().map((c) => c.login!);
    for (const conn of [...this.connections]) conn.socket.terminate();
    this.connections.clear();
    this.byUid.clear();
    this.consoles.clear();
    await this.logins.stopped(bound);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the console service (realtime/console) */
    consoleService: ConsoleService;
  }
}
