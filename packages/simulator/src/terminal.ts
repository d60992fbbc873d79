import {
  CmdStatus,
  CONSOLE_WS_PATH,
  ImTargetType,
  ImType,
  REALTIME_HEARTBEAT_MS,
  REALTIME_HEARTBEATS_AT_OPEN,
  REALTIME_RECONNECT_MS,
  UserType,
  type ImMessage,
} from '@bwc/protocol';
import type { Position } from './client';
import {
  TerminalTalk,
  type TalkLink,
  type TalkRequest,
  type TalkResult,
  type TalkSummary,
  type TerminalTalkOptions,
} from './talk/terminal-talk';
import { TerminalCall, type TerminalCallOptions } from './talk/terminal-call';
import { TerminalConference, type TerminalConferenceOptions } from './talk/terminal-conference';
import { WebSocket, WS_OPEN as OPEN, type WsClient as WsSocket } from './ws';

/**
 * A simulated device as a terminal (user_type 0) of the console service (packages/protocol
 * `console`): it logs on with its device credentials, sends the spec's heartbeats (three at open,
 * then every 10 s, with its clientid), reports positions, writes to its talk group, answers the
 * messages written to it, raises emergencies, and after a lost connection (a server restart)
 * comes back after 5 s, resuming its login with the logon's token or logging on again. It enters a
 * talk group it is a member of, hears its audio and talks in it (talk/terminal-talk.ts).
 */

type Message = Record<string, unknown> & { msg_code: string; cmd_type: number; cmd_status?: number };

/** The console service address under the main HTTP port of `server` (http://host:port -> ws://host:port/ws/console). */
export function consoleUrlOf(server: string): string {
  const url = new URL(server);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = CONSOLE_WS_PATH;
  return url.toString();
}

export class ConsoleRequestError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    reason: string,
  ) {
    super(`${code}: ${status} ${reason}`);
    this.name = 'ConsoleRequestError';
  }
}

export interface TerminalOptions {
  /** websocket address of the console service (consoleUrlOf(server), or ws://host:9080/) */
  url: string;
  /** hostbody, IMEI or cluster number */
  logonName: string;
  /** the device secret */
  passwd: string;
  clientid: string;
  /** minutes the login outlives its connection (default 5: long enough to resume after a restart) */
  aliveMinutes?: number;
  /** chance of answering a text written to this terminal (default 0.9), after 2-8 s */
  replyRate?: number;
  random?: () => number;
  /** timings (tests shorten them): heartbeat, reconnect, answer delay, request timeout */
  heartbeatMs?: number;
  reconnectMs?: number;
  replyDelayMs?: [number, number];
  requestTimeoutMs?: number;
  /** a console asked for the position now (notice_query_gps) */
  onQueryGps?: () => void;
  /** a request failed or the service refused something */
  onError?: (err: unknown) => void;
  /** group talk: listening (on by default), the bursts' audio */
  talk?: TerminalTalkOptions;
  /** voice calls: answered after about 1 s by default, its tone said while up */
  call?: TerminalCallOptions;
  /** video conferences: its tone said while one it takes part in lasts, what it hears counted */
  conference?: TerminalConferenceOptions;
}

export interface TerminalStats {
  logons: number;
  resumes: number;
  reconnects: number;
  heartbeats: number;
  gpsReports: number;
  imSent: number;
  imReceived: number;
  imAnswered: number;
  emergencies: number;
}

/** Answer texts of a terminal (officers acknowledge briefly). */
const REPLIES = ['收到', '收到，马上到', '明白', '正在处理', '已到达现场', 'Copy that'];
/** Texts a terminal writes to its group. */
const GROUP_TEXTS = [
  '巡逻正常',
  '到达岗位',
  '需要支援吗？',
  '路口拥堵，绕行',
  '现场已处理完毕',
  'On patrol, all clear',
];

export class ConsoleTerminal {
  uid: number | null = null;
  /** the login's token: resumes it on a new connection */
  token: string | null = null;
  /** talk groups the terminal is a member of (tgids) */
  groups: number[] = [];
  readonly stats: TerminalStats = {
    logons: 0,
    resumes: 0,
    reconnects: 0,
    heartbeats: 0,
    gpsReports: 0,
    imSent: 0,
    imReceived: 0,
    imAnswered: 0,
    emergencies: 0,
  };
  private ws: WsSocket | null = null;
  private ready = false;
  private stopped = true;
  private serial = 0;
  private readonly pending = new Map<
    string,
    { resolve: (m: Message) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private readonly timers = new Set<NodeJS.Timeout>();
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly random: () => number;
  private readyWaiters: (() => void)[] = [];
  /** push-to-talk in its groups: what it heard, what it said */
  readonly groupTalk: TerminalTalk;
  /** voice calls with a console: answered, its tone said, what it hears counted */
  readonly calls: TerminalCall;
  /** video conferences: its audio (its video answers `startlive` as for live video) */
  readonly conference: TerminalConference;

  constructor(private readonly options: TerminalOptions) {
    this.random = options.random ?? Math.random;
    const link: TalkLink = {
      uid: () => this.uid,
      request: (code, payload) => this.request(code, payload),
      sendBinary: (frame) => {
        if (!this.loggedOn) return false;
        this.ws?.send(frame, { binary: true });
        return true;
      },
    };
    this.groupTalk = new TerminalTalk(link, { onError: options.onError, ...options.talk });
    this.calls = new TerminalCall(link, {
      onError: options.onError,
      ffmpeg: options.talk?.ffmpeg,
      cacheDir: options.talk?.cacheDir,
      ...options.call,
    });
    this.conference = new TerminalConference(link, {
      onError: options.onError,
      ffmpeg: options.talk?.ffmpeg,
      cacheDir: options.talk?.cacheDir,
      ...options.conference,
    });
  }

  /** Logged on over an open connection. */
  get loggedOn(): boolean {
    return this.ready && this.ws?.readyState === OPEN;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  /** Close the connection and stop reconnecting (the login stays resumable for its alive time). */
  stop(): void {
    this.stopped = true;
    this.ready = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.ws?.terminate();
    this.ws = null;
    this.failPending('stopped');
  }

  /** Resolves once logged on (or after timeoutMs, rejecting). */
  whenLoggedOn(timeoutMs = 15_000): Promise<void> {
    if (this.loggedOn) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.options.logonName}: not logged on in time`)), timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** req_report_gps with a batch in the device API's item shape. */
  async reportGps(fixes: Position[]): Promise<{ accepted: number; rejected: { index: number; field: string }[] }> {
    const gps = fixes.map((f) => ({ ...f, time: new Date(f.time).toISOString() }));
    const rsp = await this.request('req_report_gps', { gps });
    this.stats.gpsReports += 1;
    return { accepted: rsp.accepted as number, rejected: rsp.rejected as { index: number; field: string }[] };
  }

  /** req_emergency at the terminal's position. */
  async emergency(at: { lat: number; lng: number }, message = ''): Promise<number> {
    const rsp = await this.request('req_emergency', { ...at, message });
    this.stats.emergencies += 1;
    return rsp.event_id as number;
  }

  /** A text to one of its talk groups; false when it has none. */
  async writeToGroup(): Promise<boolean> {
    if (!this.groups.length) return false;
    const tgid = this.groups[Math.floor(this.random() * this.groups.length)]!;
    const content = GROUP_TEXTS[Math.floor(this.random() * GROUP_TEXTS.length)]!;
    await this.sendText(tgid, ImTargetType.GROUP, content);
    return true;
  }

  /** Group talk heard and said: bursts and frames heard, frames lost, the last burst's tone, bursts talked. */
  get talkStats(): TalkSummary {
    return this.groupTalk.summary();
  }

  /** Talk in group `tgid` (push-to-talk): see TerminalTalk.talk. */
  talk(tgid: number, request?: TalkRequest): Promise<TalkResult> {
    return this.groupTalk.talk(tgid, request);
  }

  async sendText(target: number, targetType: number, content: string): Promise<ImMessage> {
    const rsp = await this.request('req_send_im', {
      target,
      target_type: targetType,
      im_type: ImType.TEXT,
      content,
      time: new Date().toISOString(),
    });
    this.stats.imSent += 1;
    return rsp.im as ImMessage;
  }

  /** Send a request on the logged-on connection; the response with its cbid, or ConsoleRequestError. */
  request(code: string, payload: Record<string, unknown> = {}): Promise<Message> {
    if (!this.loggedOn && code !== 'req_logon' && code !== 'heartbeat')
      return Promise.reject(new Error(`${code}: not logged on`));
    return this.send(code, payload);
  }

  private send(code: string, payload: Record<string, unknown>): Promise<Message> {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return Promise.reject(new Error(`${code}: no connection`));
    const cbid = `s${++this.serial}`;
    return new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(cbid);
        reject(new Error(`${code}: no answer in time`));
      }, this.options.requestTimeoutMs ?? 15_000);
      this.pending.set(cbid, {
        resolve: (m) => {
          if (m.cmd_status && m.cmd_status !== CmdStatus.OK)
            reject(new ConsoleRequestError(code, m.cmd_status, String(m.error_reason ?? '')));
          else resolve(m);
        },
        reject,
        timer,
      });
      ws.send(JSON.stringify({ msg_code: code, cmd_type: 0, cbid, ...payload }));
    });
  }

  private connect(): void {
    if (this.stopped) return;
    const ws = new WebSocket(this.options.url);
    this.ws = ws;
    ws.on('open', () => void this.opened(ws));
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.received(data);
      else if (!this.calls.binary(data) && !this.conference.binary(data)) this.groupTalk.binary(data);
    });
    ws.on('error', () => {}); // 'close' follows
    ws.on('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.ready = false;
      if (this.heartbeat) clearInterval(this.heartbeat);
      this.heartbeat = null;
      this.failPending('connection closed');
      this.later(() => {
        this.stats.reconnects += 1;
        this.connect();
      }, this.options.reconnectMs ?? REALTIME_RECONNECT_MS);
    });
  }

  private later(fn: () => void, ms: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(timer);
  }

  private beat(): Promise<Message> {
    this.stats.heartbeats += 1;
    return this.send('heartbeat', {
      clientid: this.options.clientid,
      ...(this.token ? { token: this.token } : {}),
    });
  }

  /** Heartbeats at open (the first one resumes a known login), a logon when none resumed, then the groups. */
  private async opened(ws: WsSocket): Promise<void> {
    try {
      const first = await this.beat();
      if (first.logged_on === 1) {
        this.stats.resumes += 1;
        this.uid = first.uid as number;
      } else {
        const rsp = await this.send('req_logon', {
          logon_name: this.options.logonName,
          passwd: this.options.passwd,
          user_type: UserType.TERMINAL,
          clientid: this.options.clientid,
          client_alive_time: this.options.aliveMinutes ?? 5,
        });
        this.stats.logons += 1;
        this.uid = rsp.uid as number;
        this.token = rsp.token as string;
      }
      for (let i = 1; i < REALTIME_HEARTBEATS_AT_OPEN; i++) await this.beat();
      if (this.ws !== ws) return;
      this.ready = true;
      this.heartbeat = setInterval(
        () => void this.beat().catch(() => {}),
        this.options.heartbeatMs ?? REALTIME_HEARTBEAT_MS,
      );
      for (const w of this.readyWaiters.splice(0)) w();
      await this.refreshGroups();
      // not fatal: a terminal that cannot enter a group still reports and writes
      this.groupTalk.loggedOn(this.groups).catch((err: unknown) => this.options.onError?.(err));
    } catch (err) {
      if (this.stopped || this.ws !== ws) return;
      this.options.onError?.(err);
      // refused (a killed device, a wrong secret): the close handler tries again later
      ws.close();
    }
  }

  private async refreshGroups(): Promise<void> {
    const rsp = await this.request('req_grp_profile');
    this.groups = (rsp.groups as { tgid: number }[]).map((g) => g.tgid);
  }

  private received(data: Buffer): void {
    let m: Message;
    try {
      m = JSON.parse(data.toString()) as Message;
    } catch {
      return;
    }
    if (m.cmd_type === 1) {
      const waiter = typeof m.cbid === 'string' ? this.pending.get(m.cbid) : undefined;
      if (!waiter) return;
      this.pending.delete(m.cbid as string);
      clearTimeout(waiter.timer);
      waiter.resolve(m);
      return;
    }
    if (m.cmd_type === 2) this.notice(m);
  }

  private notice(m: Message): void {
    switch (m.msg_code) {
      case 'notice_im':
        this.stats.imReceived += 1;
        this.answer(m.im as ImMessage);
        break;
      case 'notice_query_gps':
        this.options.onQueryGps?.();
        break;
      case 'notice_create_grp':
      case 'notice_delete_grp':
      case 'notice_add_grp_mem':
      case 'notice_rem_grp_mem':
        if (this.loggedOn)
          void this.refreshGroups()
            .then(() => this.groupTalk.groupsChanged(this.groups))
            .catch((err: unknown) => this.options.onError?.(err));
        break;
      case 'notice_call_status':
      case 'notice_dtmf':
        this.calls.notice(m);
        break;
      case 'notice_start_video_conf':
      case 'notice_stop_video_conf':
        this.conference.notice(m);
        break;
      case 'notice_ptt_status':
      case 'notice_enter_group':
      case 'notice_leave_group':
        this.groupTalk.notice(m);
        break;
      case 'notice_logon':
      case 'notice_error':
        // taken over or invalidated (the device was killed or deleted): log on afresh later
        if (m.cmd_status) {
          this.token = null;
          this.ws?.close();
        }
        break;
      default:
        break;
    }
  }

  /** Answer a text written to this terminal (not group chatter, not its own messages). */
  private answer(im: ImMessage): void {
    if (im.target_type !== ImTargetType.USER || im.from === this.uid || im.im_type !== ImType.TEXT) return;
    if (this.random() >= (this.options.replyRate ?? 0.9)) return;
    const [lo, hi] = this.options.replyDelayMs ?? [2_000, 8_000];
    this.later(
      () =>
        void this.sendText(im.from, ImTargetType.USER, REPLIES[Math.floor(this.random() * REPLIES.length)]!)
          .then(() => {
            this.stats.imAnswered += 1;
          })
          .catch((err: unknown) => this.options.onError?.(err)),
      lo + (hi - lo) * this.random(),
    );
  }

  private failPending(reason: string): void {
    for (const [cbid, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error(reason));
      this.pending.delete(cbid);
    }
  }
}
