import {
  CmdStatus,
  CmdType,
  CONSOLE_WS_PATH,
  ConsoleCodes,
  ConsoleNotices,
  gfileUploadUrl,
  REALTIME_EMPTY_CALLBACK,
  REALTIME_HEARTBEAT_MS,
  REALTIME_HEARTBEATS_AT_OPEN,
  REALTIME_INIT_TIMEOUT_MS,
  REALTIME_MAX_CLIENT_ALIVE_MINUTES,
  REALTIME_PORTS,
  REALTIME_RECONNECT_MS,
  SdkCode,
  type ConsoleAnswerOf,
  type ConsoleCode,
  type ConsoleNoticeCode,
  type ConsoleNoticeOf,
  type ConsoleRequestOf,
  type HeartbeatAnswer,
  type Language,
} from '@bwc/protocol';
import { onConnectivityRegained, type RealtimeSocket } from '../connectivity';
import { LoginCacheStore, type LoginCache } from './cache';
import { sdkError, type SdkError } from './errors';
import { SdkLogger } from './log';

/**
 * The console-service SDK (spec part 1 sections 3, 4, 5, 7, 8, 9; wire contract
 * packages/protocol/src/console). One websocket to the console service:
 *
 * - init status 1 (not initialised) -> 2 (in progress) -> 3 (done): 3 on the first heartbeat
 *   reply, after REALTIME_INIT_TIMEOUT_MS, or at once when no connection is needed (no login cached);
 * - on open: three heartbeats, then one every REALTIME_HEARTBEAT_MS (with the cached clientid and
 *   token, which resume the login on a new connection); the reply is a pong; the port index resets
 *   (the address that answered moves first, so a reconnect tries it first);
 * - a connection that fails (error in the closed state) moves on to the next candidate address:
 *   the configured port, the spec's ports 9080, 3001-3005, then the console page's own origin under
 *   CONSOLE_WS_PATH (one reverse proxy); after the last one the waiting requests fail with 10101;
 * - on close, a new connection after REALTIME_RECONNECT_MS when a login is cached (at once when
 *   the browser is back online or the tab visible again: realtime/connectivity.ts);
 * - a request opens the connection first when there is none; its callback is found by cbid;
 *   fire-and-forget codes resolve `true` as soon as they are sent (cbid `_empty_`);
 * - responses of send_im, query_gps (as gps), params_set, play_video and stop_play_video are also
 *   handed to the listeners of the matching notice; a share_video_in_video_conf response without
 *   cbid is the console's own and ignored;
 * - any request but logon and logout needs a login (cached, or a logon under way): 10104;
 * - binary frames (group talk audio, packages/protocol/src/console/talk.ts) go both ways beside the
 *   JSON text frames: `sendBinary` sends one while the connection is open (never queued: late audio
 *   is no audio), `onBinary` listeners get every binary frame received.
 */

/**
 * What the client needs of a websocket: the other realtime client's, plus binary frames (the
 * browser's WebSocket, Node's `ws`: `binaryType` 'arraybuffer' hands them over as ArrayBuffer).
 */
export interface SdkSocket extends RealtimeSocket {
  binaryType?: string;
  /** bytes queued and not yet sent (the browser's WebSocket) */
  bufferedAmount?: number;
  send(data: string | Uint8Array): void;
}

/**
 * A binary frame is dropped rather than queued behind this many bytes still unsent: audio that
 * waits for a slow connection is useless when it arrives (about 3 s of 20 ms Opus frames).
 */
export const BINARY_BACKLOG_MAX_BYTES = 16 * 1024;

/**
 * How long logout waits for rsp_logout before it ends the login here anyway: a service that
 * stays connected and does not answer must not keep the user from logging out.
 */
export const LOGOUT_ANSWER_WAIT_MS = 3_000;

const OPEN = 1;
const CLOSED = 3;

export const InitStatus = { NOT_INITIALISED: 1, IN_PROGRESS: 2, DONE: 3 } as const;
export type InitStatus = (typeof InitStatus)[keyof typeof InitStatus];

/** Envelope fields of a message the SDK receives. */
export interface Envelope {
  msg_code: string;
  cmd_type: number;
  session?: string | number;
  cbid?: string | number;
  cmd_status?: number;
  error_reason?: string;
}
export type Notice<N extends ConsoleNoticeCode> = ConsoleNoticeOf<N> & Envelope;
export type Answer<C extends ConsoleCode> = ConsoleAnswerOf<C> & Envelope;
/** A fire-and-forget code resolves `true`; the others their response. */
export type Result<C extends ConsoleCode> = (typeof ConsoleCodes)[C]['fireAndForget'] extends true ? true : Answer<C>;
export type AnyMessage = Envelope & Record<string, unknown>;

/** Responses also handed to the listeners of a notice (spec part 1 section 4). */
export const RESPONSE_TO_NOTICE: Record<string, string> = {
  rsp_send_im: 'notice_im',
  rsp_query_gps: 'notice_gps',
  rsp_params_set: 'notice_params_set',
  rsp_play_video: 'notice_play_video',
  rsp_stop_play_video: 'notice_stop_play_video',
};
const SELF_SHARE_RESPONSE = 'rsp_share_video_in_video_conf';
/** Codes sent without a login. */
const OPEN_CODES = new Set<string>(['heartbeat', 'req_logon', 'req_logout']);

/** Where the console reaches the service (group_api of gis info: ip, port, path). */
export interface ServiceAddress {
  ip?: string;
  port?: number | string;
  path?: string;
}

/**
 * The addresses tried in order: the configured one, the spec's candidate ports (9080, 3001-3005)
 * on the same host, then the page's own origin under CONSOLE_WS_PATH (deployments behind one
 * reverse proxy). `lang` asks the service for error_reason in the console's language.
 */
export function candidateUrls(
  address: ServiceAddress,
  location: { protocol: string; host: string; hostname: string },
  lang?: Language,
): string[] {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const host = address.ip || location.hostname;
  const withPath = (path: string | undefined) => (path && path.startsWith('/') ? path : '/');
  const urls: string[] = [];
  const configured = Number(address.port);
  if (Number.isInteger(configured) && configured > 0)
    urls.push(`${scheme}//${host}:${configured}${withPath(address.path)}`);
  for (const port of REALTIME_PORTS) urls.push(`${scheme}//${host}:${port}/`);
  urls.push(`${scheme}//${location.host}${CONSOLE_WS_PATH}`);
  const query = lang ? `?lang=${encodeURIComponent(lang)}` : '';
  return [...new Set(urls)].map((url) => url + query);
}

export interface InitOptions extends ServiceAddress {
  /** open the connection now (default: when a login is cached, which it then resumes) */
  connect?: boolean;
  lang?: Language;
}

/** req_logon as the caller gives it: clientid is the SDK's (the current time). */
export type LogonParams = Omit<ConsoleRequestOf<'req_logon'>, 'clientid'>;

export interface RealtimeSdkOptions {
  createSocket?: (url: string) => SdkSocket;
  cache?: LoginCacheStore;
  logger?: SdkLogger;
  location?: { protocol: string; host: string; hostname: string };
  /** the clock of clientid and client_login_time */
  now?: () => number;
  /** calls back when a waiting reconnect should happen now (default: back online, tab visible again) */
  watchConnectivity?: (wake: () => void) => () => void;
}

interface Pending {
  code: string;
  resolve: (answer: AnyMessage) => void;
  reject: (error: SdkError) => void;
}

type Listener = (message: AnyMessage) => void;

export class RealtimeSdk {
  readonly log: SdkLogger;
  readonly cache: LoginCacheStore;
  private status: InitStatus = InitStatus.NOT_INITIALISED;
  private urls: string[] = [];
  private portIndex = 0;
  private socket: SdkSocket | null = null;
  private socketOpened = false;
  private waiters: { resolve: () => void; reject: (error: SdkError) => void }[] = [];
  private readonly pending = new Map<string, Pending>();
  private seq = 0;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private initTimer: ReturnType<typeof setTimeout> | null = null;
  /** uid of a logon whose profile is being fetched (the login is not cached yet) */
  private logonUnderWay: number | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly errorListeners = new Set<(error: SdkError, message?: AnyMessage) => void>();
  private readonly statusListeners = new Set<() => void>();
  private readonly lostListeners = new Set<() => void>();
  private readonly binaryListeners = new Set<(bytes: Uint8Array) => void>();
  private readonly createSocket: (url: string) => SdkSocket;
  private readonly location: { protocol: string; host: string; hostname: string };
  private readonly now: () => number;
  private readonly watchConnectivity: (wake: () => void) => () => void;
  private unwatch: (() => void) | null = null;

  constructor(options: RealtimeSdkOptions = {}) {
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url) as unknown as SdkSocket);
    this.cache = options.cache ?? new LoginCacheStore();
    this.log = options.logger ?? new SdkLogger();
    this.location = options.location ??
      globalThis.location ?? { protocol: 'http:', host: 'localhost', hostname: 'localhost' };
    this.now = options.now ?? Date.now;
    this.watchConnectivity = options.watchConnectivity ?? onConnectivityRegained;
  }

  get initStatus(): InitStatus {
    return this.status;
  }

  /** The cached login (null: not logged on). */
  get login(): LoginCache | null {
    return this.cache.read();
  }

  get connected(): boolean {
    return this.socket?.readyState === OPEN && this.socketOpened;
  }

  /** The address being tried or used. */
  get url(): string | undefined {
    return this.urls[this.portIndex];
  }

  /** Starts the SDK at the service's address; again with a new address (or language) it starts over there. */
  init(options: InitOptions = {}): void {
    const urls = candidateUrls(options, this.location, options.lang);
    // the same address again (a re-render, a second caller): the connection stays
    if (this.status !== InitStatus.NOT_INITIALISED && this.socket && urls.every((u) => this.urls.includes(u))) return;
    this.urls = urls;
    this.portIndex = 0;
    if (this.socket) this.dropSocket();
    this.clearTimer('initTimer');
    this.setStatus(InitStatus.IN_PROGRESS);
    this.unwatch ??= this.watchConnectivity(() => this.reconnectNow());
    const connect = options.connect ?? this.cache.has();
    if (!connect) {
      this.setStatus(InitStatus.DONE);
      return;
    }
    this.initTimer = setTimeout(() => {
      this.initTimer = null;
      if (this.status === InitStatus.IN_PROGRESS) {
        this.log.warn(`init: no heartbeat reply after ${REALTIME_INIT_TIMEOUT_MS} ms`);
        this.setStatus(InitStatus.DONE);
      }
    }, REALTIME_INIT_TIMEOUT_MS);
    this.open();
  }

  /** Closes everything for good (unmount, HTTP logout); the cache stays for the next page. */
  destroy(): void {
    this.unwatch?.();
    this.unwatch = null;
    this.dropSocket();
    this.clearTimer('initTimer');
    this.clearTimer('reconnectTimer');
    this.rejectAll(sdkError(SdkCode.EXCEPTION));
    this.status = InitStatus.NOT_INITIALISED;
    this.notifyStatus();
  }

  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * An open connection closed (the SDK reconnects by itself): what the service held for this
   * connection, a call for one, ended with it.
   */
  onConnectionLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Error notices (52001 after clearing the cache) and connection failures (10101). */
  onError(listener: (error: SdkError, message?: AnyMessage) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /**
   * Listens to a notice by msg_code: the service's notices typed by the protocol, any other code
   * (a converted response, a code of a later issue, `heartbeat` replies) as a plain message. An
   * empty msg_code is logged as a warning and registers nothing.
   */
  on<N extends ConsoleNoticeCode>(code: N, listener: (notice: Notice<N>) => void): () => void;
  on(code: string, listener: (message: AnyMessage) => void): () => void;
  on(code: string, listener: (message: never) => void): () => void {
    if (!code) {
      this.log.warn('notice listener without msg_code ignored');
      return () => undefined;
    }
    let set = this.listeners.get(code);
    if (!set) this.listeners.set(code, (set = new Set()));
    const wrapped = listener as Listener;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  /**
   * Sends one binary frame now; false (and nothing sent) when the connection is not open or more
   * than BINARY_BACKLOG_MAX_BYTES wait to be sent. It neither opens a connection nor waits for one.
   */
  sendBinary(bytes: Uint8Array): boolean {
    const socket = this.socket;
    if (!socket || !this.connected) return false;
    if ((socket.bufferedAmount ?? 0) > BINARY_BACKLOG_MAX_BYTES) return false;
    socket.send(bytes);
    return true;
  }

  /** Listens to the binary frames received (each as its own bytes); answers the unsubscribe. */
  onBinary(listener: (bytes: Uint8Array) => void): () => void {
    this.binaryListeners.add(listener);
    return () => this.binaryListeners.delete(listener);
  }

  /**
   * Sends a request: opens the connection first if there is none; resolves with the response
   * (cmd_status 0) or rejects with an SdkError (10001 with error_reason, 10104 without a login,
   * 10101 when no address answers); fire-and-forget codes resolve `true` once sent.
   */
  request<C extends ConsoleCode>(
    code: C,
    payload: ConsoleRequestOf<C>,
    options: { session?: string | number } = {},
  ): Promise<Result<C>> {
    return this.send(code, payload as Record<string, unknown>, options.session) as Promise<Result<C>>;
  }

  /**
   * req_logon (spec part 1 sections 4 and 5): client_alive_time empty or 0 -> 0, above 120
   * minutes capped with a warning; clientid from the current time. A success with a uid fetches
   * the user's own profile, then caches the login (login_user: the first entry of user_info).
   */
  async logon(params: LogonParams): Promise<Answer<'req_logon'>> {
    const requested = Number(params.client_alive_time ?? 0) || 0;
    const aliveTime = Math.min(Math.max(requested, 0), REALTIME_MAX_CLIENT_ALIVE_MINUTES);
    if (requested > REALTIME_MAX_CLIENT_ALIVE_MINUTES)
      this.log.warn(`logon: client_alive_time ${requested} capped to ${REALTIME_MAX_CLIENT_ALIVE_MINUTES} minutes`);
    const clientid = String(this.now());
    const answer = await this.request('req_logon', { ...params, client_alive_time: aliveTime, clientid });
    if (answer.warning) this.log.warn(`logon: ${answer.warning}`);
    if (typeof answer.uid !== 'number') return answer;
    this.logonUnderWay = answer.uid;
    try {
      const profile = await this.request('req_user_profile', { targets: [answer.uid] });
      const user = profile.user_info[0];
      if (!user) throw sdkError(SdkCode.EXCEPTION);
      const { hostname, port } = this.endpoint(params);
      this.cache.save({
        login_uid: answer.uid,
        login_user: user as LoginCache['login_user'],
        ipaddr: hostname,
        port,
        token: answer.token,
        clientid: answer.clientid || clientid,
        client_alive_time: answer.client_alive_time,
        client_login_time: answer.client_login_time,
        upload_url_gfile: gfileUploadUrl({ ip: hostname, port, token: answer.token, uid: answer.uid }),
      });
      this.log.info(`logon: uid ${answer.uid} logged on`);
      return answer;
    } finally {
      this.logonUnderWay = null;
    }
  }

  /** req_logout: the cache is cleared and the socket closed whatever the answer, at the latest after LOGOUT_ANSWER_WAIT_MS. */
  async logout(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | null = null;
    try {
      if (this.connected) {
        const unanswered = new Promise<'unanswered'>((resolve) => {
          timer = setTimeout(() => resolve('unanswered'), LOGOUT_ANSWER_WAIT_MS);
        });
        const answer = await Promise.race([this.send('req_logout', {}), unanswered]);
        if (answer === 'unanswered') this.log.warn(`req_logout: no answer after ${LOGOUT_ANSWER_WAIT_MS} ms`);
      }
    } finally {
      if (timer !== null) clearTimeout(timer);
      this.endLogin('logout requested');
    }
  }

  // ---------------------------------------------------------------------------------------------

  private async send(
    code: string,
    payload: Record<string, unknown>,
    session?: string | number,
  ): Promise<AnyMessage | true> {
    if (this.status === InitStatus.NOT_INITIALISED) throw sdkError(SdkCode.INIT_NOT_EXECUTED);
    if (!OPEN_CODES.has(code) && this.logonUnderWay === null && !this.cache.has()) {
      this.log.warn(`${code}: not logged in`);
      throw sdkError(SdkCode.NOT_LOGGED_IN);
    }
    await this.whenOpen();
    const fireAndForget = (ConsoleCodes as Record<string, { fireAndForget: boolean }>)[code]?.fireAndForget === true;
    const cbid = fireAndForget ? REALTIME_EMPTY_CALLBACK : `${this.now()}_${++this.seq}`;
    const message = {
      ...payload,
      msg_code: code,
      cmd_type: CmdType.REQUEST,
      cbid,
      ...(session !== undefined ? { session } : {}),
    };
    const text = JSON.stringify(message);
    this.log.debug('send', text);
    if (fireAndForget) {
      this.socket!.send(text);
      return true;
    }
    return new Promise<AnyMessage>((resolve, reject) => {
      this.pending.set(cbid, { code, resolve, reject });
      this.socket!.send(text);
    });
  }

  /** hostname and port of the logon (its ipaddr and port), else of the connected address */
  private endpoint(params: LogonParams): { hostname: string; port: string } {
    if (params.ipaddr && params.port) return { hostname: params.ipaddr, port: String(params.port) };
    const url = new URL((this.url ?? 'ws://localhost/').replace(/^ws/, 'http'));
    return { hostname: url.hostname, port: url.port || (url.protocol === 'https:' ? '443' : '80') };
  }

  /** Resolves when the socket is open; opens one when there is none. */
  private whenOpen(): Promise<void> {
    if (this.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.socket) {
        this.clearTimer('reconnectTimer');
        this.open();
      }
    });
  }

  private open(): void {
    if (this.socket) return;
    const url = this.urls[this.portIndex];
    if (!url) {
      this.giveUp();
      return;
    }
    this.log.debug(`connecting to ${url}`);
    let socket: SdkSocket;
    try {
      socket = this.createSocket(url);
    } catch (error) {
      this.log.warn(`cannot open ${url}`, error);
      this.nextPort(null);
      return;
    }
    this.socket = socket;
    this.socketOpened = false;
    if ('binaryType' in socket) socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.socketOpened = true;
      this.portIndex = 0;
      this.urls = [url, ...this.urls.filter((u) => u !== url)];
      this.log.info(`connected to ${url}`);
      for (let i = 0; i < REALTIME_HEARTBEATS_AT_OPEN; i++) this.heartbeat();
      this.heartbeatTimer = setInterval(() => this.heartbeat(), REALTIME_HEARTBEAT_MS);
      const waiters = this.waiters.splice(0);
      for (const waiter of waiters) waiter.resolve();
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => {
      // an error in the closed state is a failed connection: next address
      if (this.socket === socket && socket.readyState === CLOSED && !this.socketOpened) this.nextPort(socket);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      if (!this.socketOpened) {
        this.nextPort(socket);
        return;
      }
      this.log.warn(`connection closed (${event.code})`);
      this.socket = null;
      this.socketOpened = false;
      this.clearTimer('heartbeatTimer');
      this.rejectPending(sdkError(SdkCode.WS_INIT_FAILED));
      this.scheduleReconnect();
      for (const listener of this.lostListeners) listener();
    };
  }

  private nextPort(socket: SdkSocket | null): void {
    if (socket && this.socket !== socket) return;
    if (socket) socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
    this.socket = null;
    this.log.warn(`cannot connect to ${this.urls[this.portIndex]}`);
    this.portIndex += 1;
    if (this.portIndex < this.urls.length) this.open();
    else this.giveUp();
  }

  /** Every address failed: waiting requests fail with 10101; with a cached login a new round follows. */
  private giveUp(): void {
    this.portIndex = 0;
    const error = sdkError(SdkCode.WS_INIT_FAILED);
    this.log.error(`${error.code} ${error.message}`);
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
    for (const listener of this.errorListeners) listener(error);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || !this.cache.has()) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.socket && this.cache.has()) this.open();
    }, REALTIME_RECONNECT_MS);
  }

  /** The network or the tab is back: a reconnect that is waiting happens now. */
  private reconnectNow(): void {
    if (!this.reconnectTimer || this.socket) return;
    this.clearTimer('reconnectTimer');
    this.open();
  }

  private heartbeat(): void {
    const login = this.cache.read();
    const message: Record<string, unknown> = { msg_code: 'heartbeat', cmd_type: CmdType.REQUEST };
    if (login) {
      message.clientid = login.clientid;
      message.token = login.token;
    }
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') {
      this.receiveBinary(data);
      return;
    }
    let message: AnyMessage;
    try {
      message = JSON.parse(String(data)) as AnyMessage;
    } catch {
      this.log.warn('message that is not JSON dropped', String(data));
      return;
    }
    if (!message || typeof message !== 'object' || typeof message.msg_code !== 'string') {
      this.log.warn('message without msg_code dropped', message);
      return;
    }
    if (message.msg_code === 'heartbeat') {
      this.pong(message as HeartbeatAnswer & AnyMessage);
      return;
    }
    this.log.debug('receive', JSON.stringify(message));
    if (message.cmd_type === CmdType.RESPONSE) this.response(message);
    else if (message.cmd_type === CmdType.NOTICE) this.notice(message);
    else this.log.warn(`message of cmd_type ${String(message.cmd_type)} dropped`, message.msg_code);
  }

  /** A binary frame: an ArrayBuffer (binaryType 'arraybuffer'), a view (Node's Buffer) or a Blob (the browser's default). */
  private receiveBinary(data: unknown): void {
    if (data instanceof ArrayBuffer) this.emitBinary(new Uint8Array(data));
    else if (ArrayBuffer.isView(data)) this.emitBinary(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    else if (typeof Blob !== 'undefined' && data instanceof Blob)
      void data.arrayBuffer().then((buffer) => this.emitBinary(new Uint8Array(buffer)));
    else this.log.warn('message that is neither text nor binary dropped');
  }

  private emitBinary(bytes: Uint8Array): void {
    for (const listener of [...this.binaryListeners]) {
      try {
        listener(bytes);
      } catch (error) {
        this.log.error('binary listener failed', error);
      }
    }
  }

  private pong(message: HeartbeatAnswer & AnyMessage): void {
    if (this.status === InitStatus.IN_PROGRESS) {
      this.clearTimer('initTimer');
      this.setStatus(InitStatus.DONE);
    }
    this.emit('heartbeat', message);
  }

  private response(message: AnyMessage): void {
    const cbid = message.cbid === undefined || message.cbid === '' ? undefined : String(message.cbid);
    const pending = cbid === undefined ? undefined : this.pending.get(cbid);
    const converted = RESPONSE_TO_NOTICE[message.msg_code];
    if (pending) {
      this.pending.delete(cbid!);
      if ((message.cmd_status ?? 0) === CmdStatus.OK) pending.resolve(message);
      else {
        const code =
          message.cmd_status === CmdStatus.NOT_LOGGED_ON
            ? SdkCode.NOT_LOGGED_IN
            : message.cmd_status === CmdStatus.ALREADY_LOGGED_ON
              ? SdkCode.ALREADY_LOGGED_IN
              : SdkCode.FAILURE;
        this.log.warn(`${message.msg_code}: cmd_status ${message.cmd_status} ${message.error_reason ?? ''}`);
        pending.reject(sdkError(code, message.error_reason, message.cmd_status));
      }
    }
    if (message.msg_code === 'rsp_logout' && (message.cmd_status ?? 0) === CmdStatus.OK) {
      this.endLogin('logout answered');
      return;
    }
    if (converted && (message.cmd_status ?? 0) === CmdStatus.OK) {
      this.emit(converted, { ...message, msg_code: converted, cmd_type: CmdType.NOTICE });
      return;
    }
    if (pending) return;
    if (message.msg_code === SELF_SHARE_RESPONSE && cbid === undefined) return; // the console's own share
    if (cbid === REALTIME_EMPTY_CALLBACK) {
      if ((message.cmd_status ?? 0) !== CmdStatus.OK)
        this.log.warn(`${message.msg_code}: cmd_status ${message.cmd_status} ${message.error_reason ?? ''}`);
      return;
    }
    this.log.warn(`unknown response ${message.msg_code} (cbid ${String(message.cbid)}) dropped`);
  }

  private notice(message: AnyMessage): void {
    const code = message.msg_code;
    if (code === 'notice_logon' && message.cmd_status === CmdStatus.LOGON_TAKEN_OVER) {
      this.log.notice(message.error_reason || 'logon taken over');
      this.endLogin('logon taken over');
    } else if (code === 'notice_logout') {
      this.endLogin('logout notice');
    } else if (code === 'notice_error') {
      const lost = message.cmd_status === CmdStatus.LOGIN_INVALID;
      if (lost) this.cache.clear();
      // 52001 is the login's normal end when its HTTP session ends (logout elsewhere, forced offline)
      (lost ? this.log.warn : this.log.error)(`error notice ${message.cmd_status} ${message.error_reason ?? ''}`);
      const error = sdkError(SdkCode.FAILURE, message.error_reason, message.cmd_status);
      for (const listener of this.errorListeners) listener(error, message);
    }
    const schema = (ConsoleNotices as Record<string, { safeParse(v: unknown): { success: boolean } }>)[code];
    if (schema && !schema.safeParse(message).success) {
      this.log.warn(`notice ${code} that fails its schema dropped`);
      return;
    }
    if (!schema && !this.listeners.get(code)?.size) {
      this.log.warn(`unknown notice ${code} dropped`);
      return;
    }
    this.emit(code, message);
  }

  private emit(code: string, message: AnyMessage): void {
    for (const listener of [...(this.listeners.get(code) ?? [])]) {
      try {
        listener(message);
      } catch (error) {
        this.log.error(`listener of ${code} failed`, error);
      }
    }
  }

  /** The login ended (logout, taken over): cache cleared, socket closed, no reconnect. */
  private endLogin(reason: string): void {
    this.log.info(`login ended: ${reason}`);
    this.cache.clear();
    this.dropSocket();
    this.clearTimer('reconnectTimer');
  }

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = null;
    this.socketOpened = false;
    this.clearTimer('heartbeatTimer');
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      try {
        socket.close(1000);
      } catch {
        // already closed
      }
    }
    this.rejectPending(sdkError(SdkCode.WS_INIT_FAILED));
  }

  private rejectPending(error: SdkError): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(error);
  }

  private rejectAll(error: SdkError): void {
    this.rejectPending(error);
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  private clearTimer(name: 'heartbeatTimer' | 'reconnectTimer' | 'initTimer'): void {
    const timer = this[name];
    if (timer === null) return;
    clearTimeout(timer);
    clearInterval(timer);
    this[name] = null;
  }

  private setStatus(status: InitStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.log.debug(`init status ${status}`);
    this.notifyStatus();
  }

  private notifyStatus(): void {
    for (const listener of this.statusListeners) listener();
  }
}
