/**
 * A simulated GB/T 28181-2016 device (an IPC or DVR with several channels): the SIP user agent of
 * 9.1 registration (digest, refresh, unregister), 9.6 keepalive, the MANSCDP queries and controls
 * of 9.3-9.5 and 9.7, subscriptions (9.11: MobilePosition, Alarm) and live/playback INVITE (9.2,
 * 9.8) with pause and resume of a playback (MANSRTSP INFO, 9.8.2). Nothing runs per device between messages but a few timers; ffmpeg only while streaming.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  alarmNotify,
  catalogResponsePages,
  decodeManscdp,
  decodePtz,
  deviceInfoResponse,
  encodeManscdp,
  gbTime,
  keepalive,
  MANSCDP_CONTENT_TYPE,
  mobilePositionNotify,
  type CatalogItem,
  type ManscdpDecoded,
  type ManscdpMessage,
  type PtzCommand,
  type RecordItem,
} from '@bwc/gb28181/manscdp';
import { buildAnswer, parseSdp, planFromOffer, SdpError, ssrcNumber, type MediaPlan } from '@bwc/gb28181/sdp';
import {
  buildResponse,
  MANSRTSP_CONTENT_TYPE,
  parseMansrtsp,
  readCredentials,
  type MansrtspControl,
  type ResponseExtra,
  type SipMessage,
} from '@bwc/gb28181/sip';
import type { GbSimHub } from './hub';
import { GbStream } from './media';
import type { SipLink } from './sip-link';

export interface GbDeviceOptions {
  /** 20-digit device id (type 111-132) */
  deviceId: string;
  password: string;
  name?: string;
  /** the platform: its 20-digit id, 10-digit domain (digest realm), address and port */
  server: { id: string; domain: string; host: string; port: number };
  transport?: 'udp' | 'tcp';
  /** asked registration time, s (default 3600); refreshed at ~80% of what the platform grants */
  expires?: number;
  /** Keepalive MESSAGE interval, s (default 60) */
  keepaliveIntervalSec?: number;
  /** re-register after this many keepalives without an answer (default 3) */
  keepaliveTimeoutCount?: number;
  /** after a refused or failed REGISTER, try again after this long, s (default 30) */
  retrySec?: number;
  /** number of video channels (type 131 ids after the device's own); default 4 */
  channels?: number;
  /** the channels' ids as given (instead of `channels` numbered after the device's own): devices that repeat another's ids */
  channelIds?: string[];
  /** Catalog items per MESSAGE (default 20) */
  catalogPageSize?: number;
  /** where the device stands; MobilePosition notifies circle around it */
  position?: { longitude: number; latitude: number };
  /** G.711 A-law audio (a beeping tone) in its live and playback streams; default true (false: video only) */
  audio?: boolean;
}

export interface GbDeviceEvents {
  registered: [{ expires: number; date?: string }];
  /** REGISTER refused (403 ...), unanswered (status 408) or no TCP connection (status 0) */
  registerFailed: [{ status: number; reason: string }];
  unregistered: [];
  keepalive: [{ sn: number; status: number }];
  query: [{ cmdType: string; sn: number }];
  ptz: [PtzCommand & { channelId: string }];
  control: [{ channelId: string; command: string }];
  subscribed: [{ event: 'MobilePosition' | 'Alarm'; expires: number }];
  notify: [{ event: 'MobilePosition' | 'Alarm'; status: number }];
  invite: [{ channelId: string; plan: MediaPlan }];
  streaming: [{ channelId: string; callId: string; pid: number | undefined }];
  streamStopped: [{ channelId: string; callId: string; reason: string }];
  /** a MANSRTSP PAUSE or PLAY (resume, seek or speed) obeyed in a playback's dialog */
  playbackControl: [{ channelId: string; callId: string } & MansrtspControl];
  warn: [string];
}

interface Pending {
  resolve(m: SipMessage): void;
  timer: NodeJS.Timeout;
  retransmit?: NodeJS.Timeout;
}

interface Dialog {
  callId: string;
  /** our tag and theirs */
  localTag: string;
  remoteTag: string;
  /** the platform's URI (their From) */
  remoteUri: string;
  localUri: string;
  cseq: number;
}

interface Subscription extends Dialog {
  event: 'MobilePosition' | 'Alarm';
  eventHeader: string;
  expiresAt: number;
  timer?: NodeJS.Timeout;
}

interface Session {
  channelId: string;
  callId: string;
  stream: GbStream;
  plan: MediaPlan;
  started: boolean;
  /** for a BYE of the device's own */
  dialog: Dialog;
}

/** SIP timer T1 (RFC 3261 17.1.1.1): UDP retransmissions start at 500 ms and double to 4 s. */
const T1 = 500;
const T2 = 4000;
const TRANSACTION_MS = 32_000;
const RESPONSE_KEEP_MS = 32_000;
const MAX_KEPT_RESPONSES = 64;
const ALLOW = 'INVITE, ACK, BYE, INFO, MESSAGE, SUBSCRIBE, OPTIONS';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const token = (n = 8) => randomBytes(n).toString('hex');
/** `ms` give or take `frac`, so thousands of devices do not fire together. */
const jitter = (ms: number, frac = 0.2) => Math.max(1, Math.round(ms * (1 - frac + 2 * frac * Math.random())));

/** The Authorization header for a digest challenge (RFC 2617 3.2.2; qop auth when offered). */
export function digestAuthorization(
  challenge: Record<string, string | undefined>,
  a: { username: string; password: string; method: string; uri: string; nc: number; cnonce?: string },
): string {
  const realm = challenge.realm ?? '';
  const nonce = challenge.nonce ?? '';
  const ha1 = md5(`${a.username}:${realm}:${a.password}`);
  const ha2 = md5(`${a.method}:${a.uri}`);
  const qops = (challenge.qop ?? '').split(',').map((q) => q.trim().toLowerCase());
  const fields = [`username="${a.username}"`, `realm="${realm}"`, `nonce="${nonce}"`, `uri="${a.uri}"`];
  if (qops.includes('auth')) {
    const nc = a.nc.toString(16).padStart(8, '0');
    const cnonce = a.cnonce ?? token(8);
    const response = md5(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`);
    fields.push(`response="${response}"`, 'qop=auth', `nc=${nc}`, `cnonce="${cnonce}"`);
  } else {
    fields.push(`response="${md5(`${ha1}:${nonce}:${ha2}`)}"`);
  }
  fields.push('algorithm=MD5');
  if (challenge.opaque) fields.push(`opaque="${challenge.opaque}"`);
  return `Digest ${fields.join(',')}`;
}

export class GbDevice extends EventEmitter<GbDeviceEvents> {
  readonly id: string;
  readonly channelIds: string[];
  registered = false;
  /** UDP requests sent again for want of an answer (RFC 3261 Timer A) */
  retransmissions = 0;
  /** every PTZ command obeyed, oldest first (the last 1,000) */
  readonly ptzLog: (PtzCommand & { channelId: string; at: number })[] = [];
  private link: SipLink | null = null;
  private readonly o: Required<Omit<GbDeviceOptions, 'name' | 'position' | 'channelIds'>> & { name: string };
  private readonly position: { longitude: number; latitude: number };
  private readonly pending = new Map<string, Pending>();
  private readonly answered = new Map<string, { at: number; text: string }>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly sessions = new Map<string, Session>();
  private readonly inviting = new Set<string>();
  private readonly registerCallId = token(12);
  private cseq = 1;
  private sn = 1;
  private nc = 0;
  private missedKeepalives = 0;
  private registerTimer: NodeJS.Timeout | null = null;
  private keepaliveTimer: NodeJS.Timeout | null = null;
  private running = false;
  private registering = false;
  private readonly startedAt = Date.now();

  constructor(
    private readonly hub: GbSimHub,
    options: GbDeviceOptions,
  ) {
    super();
    if (!/^\d{20}$/.test(options.deviceId)) throw new Error('deviceId must be 20 digits');
    this.id = options.deviceId;
    this.o = {
      transport: 'udp',
      expires: 3600,
      keepaliveIntervalSec: 60,
      keepaliveTimeoutCount: 3,
      retrySec: 30,
      channels: 4,
      catalogPageSize: 20,
      ...options,
      audio: options.audio ?? true,
      name: options.name ?? `SIM-${options.deviceId.slice(-6)}`,
    };
    this.position = options.position ?? { longitude: 116.397, latitude: 39.909 };
    // Channels: the device's id with type 131 (camera) and serials following its own.
    const base = Number(this.id.slice(14));
    this.channelIds =
      options.channelIds?.slice() ??
      Array.from(
        { length: this.o.channels },
        (_, i) => `${this.id.slice(0, 10)}131${this.id[13]}${String((base + 1 + i) % 1_000_000).padStart(6, '0')}`,
      );
  }

  private get server() {
    return this.o.server;
  }

  /** Connects (TCP) or joins the hub's socket (UDP) and registers. Resolves after the first REGISTER's outcome. */
  async start(): Promise<boolean> {
    this.running = true;
    try {
      await this.ensureLink();
    } catch (err) {
      // the hub's shared UDP socket refused the device's ids (another device has one): a set-up error
      if (this.o.transport !== 'tcp') {
        this.running = false;
        throw err;
      }
      // no TCP connection: reported like a refused REGISTER (status 0) and tried again later
      this.emit('registerFailed', { status: 0, reason: (err as Error).message });
      this.scheduleRegister(jitter(this.o.retrySec * 1000));
      return false;
    }
    return this.register();
  }

  /** Unregisters (Expires 0), ends streams and subscriptions, leaves the socket. */
  async stop(): Promise<void> {
    this.running = false;
    this.clearTimers();
    for (const s of [...this.subscriptions.values()]) this.endSubscription(s);
    await Promise.all([...this.sessions.values()].map((s) => this.endSession(s, 'device stopped', false)));
    if (this.registered && this.link) {
      await this.register(0).catch(() => false);
    }
    this.registered = false;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      if (p.retransmit) clearTimeout(p.retransmit);
    }
    this.pending.clear();
    this.link?.close();
    this.link = null;
  }

  /** Raises an alarm: NOTIFY to an Alarm subscriber, else a MESSAGE to the platform (9.4). */
  async raiseAlarm(
    a: { priority?: number; method?: number; description?: string; alarmType?: number } = {},
  ): Promise<number> {
    const body = alarmNotify({
      sn: this.sn++,
      deviceId: this.id,
      priority: a.priority ?? 1,
      method: a.method ?? 2,
      time: gbTime(new Date()),
      description: a.description ?? 'simulated alarm',
      longitude: this.position.longitude,
      latitude: this.position.latitude,
      alarmType: a.alarmType,
    });
    const sub = [...this.subscriptions.values()].find((s) => s.event === 'Alarm');
    if (sub) return this.notify(sub, body);
    const r = await this.request('MESSAGE', body);
    return r.status ?? 0;
  }

  /** The channels as Catalog items (A.2.6.4). */
  catalogItems(): CatalogItem[] {
    return this.channelIds.map((id, i) => ({
      DeviceID: id,
      Name: `${this.o.name} CH${i + 1}`,
      Manufacturer: 'BWC-SIM',
      Model: 'SIM-IPC',
      Owner: 'Owner',
      CivilCode: this.id.slice(0, 6),
      Address: 'Simulated',
      Parental: 0,
      ParentID: this.id,
      SafetyWay: 0,
      RegisterWay: 1,
      Secrecy: 0,
      Status: 'ON',
      Longitude: this.position.longitude,
      Latitude: this.position.latitude,
      // the first channel a dome (it obeys PTZ), the others fixed cameras
      Info: { PTZType: i === 0 ? 1 : 3 },
    }));
  }

  /**
   * What the device "recorded" and can play back: its test pattern in 10-minute segments per
   * channel, from when it started (at most the last day) to now, within the asked span.
   */
  recordings(channelId: string, from: Date, to: Date): RecordItem[] {
    const seg = 600_000;
    const now = Date.now();
    const first = Math.max(Math.floor(this.startedAt / seg) * seg - seg, now - 86_400_000, from.getTime());
    const out: RecordItem[] = [];
    for (let t = Math.floor(first / seg) * seg; t < Math.min(to.getTime(), now) && out.length < 200; t += seg) {
      const end = Math.min(t + seg, now);
      if (end <= from.getTime()) continue;
      out.push({
        DeviceID: channelId,
        Name: this.o.name,
        FilePath: `/rec/${channelId}/${t / 1000}.ps`,
        Address: 'Simulated',
        StartTime: gbTime(new Date(t)),
        EndTime: gbTime(new Date(end)),
        Secrecy: 0,
        Type: 'time',
        FileSize: Math.round(((end - t) / 1000) * 75_000),
      });
    }
    return out;
  }

  // ---- registration and keepalive

  private async ensureLink(): Promise<SipLink> {
    if (this.link) return this.link;
    const users = [this.id, ...this.channelIds];
    const handler = (m: SipMessage) => this.onMessage(m);
    this.link =
      this.o.transport === 'tcp'
        ? await this.hub.tcpLink(this.server, handler, () => {
            this.link = null;
            if (!this.running) return;
            this.registered = false;
            this.emit('warn', 'TCP connection to the platform closed');
            this.scheduleRegister(jitter(this.o.retrySec * 1000));
          })
        : this.hub.udpLink(users, handler, this.server);
    return this.link;
  }

  private async register(expires = this.o.expires): Promise<boolean> {
    if (this.registering && expires !== 0) return false;
    this.registering = true;
    try {
      const uri = `sip:${this.server.id}@${this.server.domain}`;
      let r = await this.request('REGISTER', null, { expires });
      for (let tries = 0; r.status === 401 && tries < 2; tries++) {
        const raw = (r.headers['www-authenticate'] as Record<string, string | undefined>[] | undefined)?.[0];
        if (!raw) break;
        const challenge = readCredentials(raw);
        const authorization = digestAuthorization(challenge, {
          username: this.id,
          password: this.o.password,
          method: 'REGISTER',
          uri,
          nc: ++this.nc,
        });
        r = await this.request('REGISTER', null, { expires, authorization });
      }
      if (expires === 0) {
        if (r.status === 200) this.emit('unregistered');
        return r.status === 200;
      }
      if (r.status === 200) {
        const contact = (r.headers.contact as { params?: Record<string, unknown> }[] | undefined)?.[0];
        const granted = Number(contact?.params?.expires ?? r.headers.expires ?? expires) || expires;
        this.registered = true;
        this.missedKeepalives = 0;
        this.emit('registered', { expires: granted, date: r.headers.date as string | undefined });
        this.scheduleRegister(jitter(granted * 800, 0.05));
        if (!this.keepaliveTimer) this.scheduleKeepalive(jitter(this.o.keepaliveIntervalSec * 1000, 0.5));
        return true;
      }
      this.registered = false;
      this.emit('registerFailed', { status: r.status ?? 0, reason: r.reason ?? '' });
      if (this.running) this.scheduleRegister(jitter(this.o.retrySec * 1000));
      return false;
    } finally {
      this.registering = false;
    }
  }

  private scheduleRegister(ms: number): void {
    if (this.registerTimer) clearTimeout(this.registerTimer);
    this.registerTimer = setTimeout(() => {
      this.registerTimer = null;
      if (!this.running) return;
      void this.ensureLink()
        .then(() => this.register())
        .catch((err: Error) => {
          this.emit('warn', `register: ${err.message}`);
          this.scheduleRegister(jitter(this.o.retrySec * 1000));
        });
    }, ms);
    this.registerTimer.unref();
  }

  private scheduleKeepalive(ms: number): void {
    this.keepaliveTimer = setTimeout(() => {
      this.keepaliveTimer = null;
      if (!this.running) return;
      this.scheduleKeepalive(jitter(this.o.keepaliveIntervalSec * 1000, 0.05));
      if (!this.registered) return;
      const sn = this.sn++;
      void this.request('MESSAGE', keepalive({ sn, deviceId: this.id })).then((r) => {
        const status = r.status ?? 0;
        this.emit('keepalive', { sn, status });
        if (status === 200) this.missedKeepalives = 0;
        else if (status === 403 || ++this.missedKeepalives >= this.o.keepaliveTimeoutCount) {
          // the platform forgot us (403 not registered) or is gone: register again
          this.registered = false;
          this.missedKeepalives = 0;
          this.scheduleRegister(status === 403 ? 1 : jitter(1000));
        }
      });
    }, ms);
    this.keepaliveTimer.unref();
  }

  private clearTimers(): void {
    if (this.registerTimer) clearTimeout(this.registerTimer);
    if (this.keepaliveTimer) clearTimeout(this.keepaliveTimer);
    this.registerTimer = this.keepaliveTimer = null;
  }

  // ---- outgoing requests

  private localUri(): string {
    return `sip:${this.id}@${this.server.domain}`;
  }

  private via(branch: string): string {
    const l = this.link!.local;
    return `SIP/2.0/${this.link!.transport.toUpperCase()} ${l.host}:${l.port};rport;branch=${branch}`;
  }

  private contact(): string {
    const l = this.link!.local;
    return `<sip:${this.id}@${l.host}:${l.port}>`;
  }

  /**
   * Sends a request and resolves with its final response (a 408 stand-in after 32 s without one).
   * Out of a dialog unless `dialog` is given. Retransmits over UDP (RFC 3261 17.1.2.2).
   */
  private async request(
    method: string,
    body: ManscdpMessage | null,
    extra: { expires?: number; authorization?: string; dialog?: Dialog; headers?: string[] } = {},
  ): Promise<SipMessage> {
    const link = await this.ensureLink();
    const branch = `z9hG4bK${token(8)}`;
    const d = extra.dialog;
    const seq = d ? ++d.cseq : this.cseq++;
    const callId = d?.callId ?? (method === 'REGISTER' ? this.registerCallId : token(12));
    // REGISTER's To is the address of record being registered: the device (RFC 3261 10.2)
    const target =
      d?.remoteUri ?? (method === 'REGISTER' ? this.localUri() : `sip:${this.server.id}@${this.server.domain}`);
    const requestUri = method === 'REGISTER' ? `sip:${this.server.id}@${this.server.domain}` : target;
    const content = body ? encodeManscdp(body).toString('latin1') : '';
    const lines = [
      `${method} ${requestUri} SIP/2.0`,
      `Via: ${this.via(branch)}`,
      `From: <${d?.localUri ?? this.localUri()}>;tag=${d?.localTag ?? token(4)}`,
      `To: <${target}>${d ? `;tag=${d.remoteTag}` : ''}`,
      `Call-ID: ${callId}`,
      `CSeq: ${seq} ${method}`,
      'Max-Forwards: 70',
      'User-Agent: BWC GB28181 simulator',
    ];
    if (method === 'REGISTER') {
      lines.push(`Contact: ${this.contact()}`, `Expires: ${extra.expires ?? this.o.expires}`);
      if (extra.authorization) lines.push(`Authorization: ${extra.authorization}`);
    }
    if (extra.headers) lines.push(...extra.headers);
    if (body) lines.push(`Content-Type: ${MANSCDP_CONTENT_TYPE}`);
    lines.push(`Content-Length: ${Buffer.byteLength(content, 'latin1')}`);
    const text = `${lines.join('\r\n')}\r\n\r\n${content}`;
    const key = `${callId}|${seq}|${method}`;
    return new Promise<SipMessage>((resolve) => {
      const p: Pending = {
        resolve: (m) => {
          clearTimeout(p.timer);
          if (p.retransmit) clearTimeout(p.retransmit);
          this.pending.delete(key);
          resolve(m);
        },
        timer: setTimeout(() => {
          if (p.retransmit) clearTimeout(p.retransmit);
          this.pending.delete(key);
          resolve({ status: 408, reason: 'Request Timeout', version: '2.0', headers: {} });
        }, TRANSACTION_MS),
      };
      p.timer.unref();
      if (link.transport === 'udp') {
        const again = (interval: number) => {
          p.retransmit = setTimeout(() => {
            this.retransmissions++;
            link.send(text);
            again(Math.min(interval * 2, T2));
          }, interval);
          p.retransmit.unref();
        };
        again(T1);
      }
      this.pending.set(key, p);
      link.send(text);
    });
  }

  // ---- incoming

  private onMessage(m: SipMessage): void {
    if (m.status !== undefined) {
      if (m.status < 200) return;
      const key = `${m.headers['call-id']}|${m.headers.cseq!.seq}|${m.headers.cseq!.method}`;
      this.pending.get(key)?.resolve(m);
      return;
    }
    if (m.method === 'ACK') return this.onAck(m);
    // A retransmitted request gets the same answer again.
    const key = `${m.headers['call-id']}|${m.headers.cseq!.seq}|${m.method}|${m.headers.via![0]!.params.branch}`;
    const seen = this.answered.get(key);
    if (seen) return this.link?.respond(seen.text, m);
    const reply = (status: number, reason: string, extra?: ResponseExtra) => {
      const text = buildResponse(m, status, reason, extra);
      const now = Date.now();
      for (const [k, v] of this.answered)
        if (now - v.at > RESPONSE_KEEP_MS || this.answered.size > MAX_KEPT_RESPONSES) this.answered.delete(k);
      this.answered.set(key, { at: now, text });
      this.link?.respond(text, m);
    };
    try {
      switch (m.method) {
        case 'MESSAGE':
          return this.onManscdp(m, reply);
        case 'SUBSCRIBE':
          return this.onSubscribe(m, reply);
        case 'INVITE':
          return void this.onInvite(m, reply).catch((err: Error) => {
            this.emit('warn', `INVITE: ${err.message}`);
            reply(500, 'Server Internal Error');
          });
        case 'BYE':
          return this.onBye(m, reply);
        case 'INFO':
          return this.onInfo(m, reply);
        case 'OPTIONS':
          return reply(200, 'OK', { headers: { allow: ALLOW } });
        default:
          return reply(405, 'Method Not Allowed', { headers: { allow: ALLOW } });
      }
    } catch (err) {
      this.emit('warn', `${m.method}: ${(err as Error).message}`);
      reply(500, 'Server Internal Error');
    }
  }

  private decodeBody(m: SipMessage, reply: (s: number, r: string) => void): ManscdpDecoded | null {
    try {
      return decodeManscdp(Buffer.from(m.content ?? '', 'latin1'));
    } catch (err) {
      reply(400, `Bad Request (${(err as Error).message.slice(0, 80)})`);
      return null;
    }
  }

  private onManscdp(m: SipMessage, reply: (s: number, r: string) => void): void {
    const msg = this.decodeBody(m, reply);
    if (!msg) return;
    if (msg.kind === 'unsupported') return reply(200, 'OK');
    const target = msg.DeviceID;
    if (target !== this.id && !this.channelIds.includes(target)) return reply(404, 'Not Found');
    reply(200, 'OK');
    this.emit('query', { cmdType: msg.CmdType, sn: msg.SN });
    const sn = msg.SN;
    const send = (body: ManscdpMessage) =>
      this.request('MESSAGE', body).then((r) => {
        if (r.status !== 200) this.emit('warn', `${body.CmdType} answer got ${r.status}`);
        return r;
      });
    if (msg.kind === 'Query') {
      switch (msg.CmdType) {
        case 'Catalog':
          // one page after the other, each after the last was answered
          void (async () => {
            for (const page of catalogResponsePages({
              sn,
              deviceId: this.id,
              items: this.catalogItems(),
              pageSize: this.o.catalogPageSize,
            }))
              if ((await send(page)).status !== 200) break;
          })();
          return;
        case 'DeviceInfo':
          void send(
            deviceInfoResponse({
              sn,
              deviceId: this.id,
              name: this.o.name,
              manufacturer: 'BWC-SIM',
              model: 'SIM-IPC',
              firmware: '1.0',
              channels: this.channelIds.length,
            }),
          );
          return;
        case 'DeviceStatus':
          void send({
            kind: 'Response',
            CmdType: 'DeviceStatus',
            SN: sn,
            DeviceID: this.id,
            Result: 'OK',
            Online: 'ONLINE',
            Status: 'OK',
            Encode: 'ON',
            Record: 'ON',
            DeviceTime: gbTime(new Date()),
          } as ManscdpMessage);
          return;
        case 'RecordInfo': {
          const list = this.recordings(target, parseGbTime(msg.StartTime), parseGbTime(msg.EndTime));
          void (async () => {
            for (let i = 0; i === 0 || i < list.length; i += this.o.catalogPageSize) {
              const page = {
                kind: 'Response',
                CmdType: 'RecordInfo',
                SN: sn,
                DeviceID: target,
                Name: this.o.name,
                SumNum: list.length,
                RecordList: list.slice(i, i + this.o.catalogPageSize),
              } as ManscdpMessage;
              if ((await send(page)).status !== 200) break;
            }
          })();
          return;
        }
        default:
          return;
      }
    }
    if (msg.kind === 'Control' && msg.CmdType === 'DeviceControl') {
      if (msg.PTZCmd) {
        const cmd = { ...decodePtz(msg.PTZCmd), channelId: target };
        this.ptzLog.push({ ...cmd, at: Date.now() });
        if (this.ptzLog.length > 1000) this.ptzLog.shift();
        this.emit('ptz', cmd);
        return; // PTZ has no Response message (A.2.3.1)
      }
      const command = msg.TeleBoot ?? msg.RecordCmd ?? msg.GuardCmd ?? msg.AlarmCmd;
      if (command) {
        this.emit('control', { channelId: target, command });
        void send({
          kind: 'Response',
          CmdType: 'DeviceControl',
          SN: sn,
          DeviceID: target,
          Result: 'OK',
        } as ManscdpMessage);
      }
    }
  }

  private onSubscribe(m: SipMessage, reply: (s: number, r: string, e?: ResponseExtra) => void): void {
    const msg = this.decodeBody(m, reply);
    if (!msg) return;
    if (msg.kind !== 'Query' || (msg.CmdType !== 'MobilePosition' && msg.CmdType !== 'Alarm'))
      return reply(489, 'Bad Event');
    const callId = m.headers['call-id']!;
    const old = this.subscriptions.get(callId);
    if (old) this.endSubscription(old);
    const expires = Math.max(0, Math.min(Number(m.headers.expires ?? 3600) || 0, 86_400));
    const eventHeader = String(m.headers.event ?? 'presence');
    const localTag = m.headers.to!.params.tag ?? token(4);
    reply(200, 'OK', {
      headers: {
        expires: String(expires),
        event: eventHeader,
        to: { ...m.headers.to!, params: { ...m.headers.to!.params, tag: localTag } },
        contact: [{ uri: `sip:${this.id}@${this.link!.local.host}:${this.link!.local.port}`, params: {} }],
      },
    });
    if (expires === 0) return;
    const sub: Subscription = {
      callId,
      localTag,
      remoteTag: m.headers.from!.params.tag ?? '',
      remoteUri: m.headers.from!.uri,
      localUri: m.headers.to!.uri,
      cseq: 0,
      event: msg.CmdType,
      eventHeader,
      expiresAt: Date.now() + expires * 1000,
    };
    this.subscriptions.set(callId, sub);
    this.emit('subscribed', { event: msg.CmdType, expires });
    if (msg.CmdType === 'MobilePosition') {
      const interval = Math.max(1, msg.Interval ?? 5) * 1000;
      let step = 0;
      const tick = () => {
        if (Date.now() >= sub.expiresAt) return this.endSubscription(sub);
        // a circle of ~200 m around the device's place, one step per notify
        const a = (step++ * Math.PI) / 30;
        void this.notify(
          sub,
          mobilePositionNotify({
            sn: this.sn++,
            deviceId: this.id,
            time: gbTime(new Date()),
            longitude: +(this.position.longitude + 0.0023 * Math.cos(a)).toFixed(6),
            latitude: +(this.position.latitude + 0.0018 * Math.sin(a)).toFixed(6),
            speed: 5,
            direction: Math.round(((a * 180) / Math.PI + 90) % 360),
            altitude: 50,
          }),
        );
        sub.timer = setTimeout(tick, jitter(interval, 0.05));
        sub.timer.unref();
      };
      sub.timer = setTimeout(tick, jitter(Math.min(interval, 1000), 0.5));
      sub.timer.unref();
    }
  }

  private async notify(sub: Subscription, body: ManscdpMessage): Promise<number> {
    const left = Math.max(0, Math.round((sub.expiresAt - Date.now()) / 1000));
    const r = await this.request('NOTIFY', body, {
      dialog: sub,
      headers: [`Event: ${sub.eventHeader}`, `Subscription-State: active;expires=${left}`],
    });
    const status = r.status ?? 0;
    this.emit('notify', { event: sub.event, status });
    if (status === 481) this.endSubscription(sub);
    return status;
  }

  private endSubscription(sub: Subscription): void {
    if (sub.timer) clearTimeout(sub.timer);
    this.subscriptions.delete(sub.callId);
  }

  private async onInvite(m: SipMessage, reply: (s: number, r: string, e?: ResponseExtra) => void): Promise<void> {
    const channelId = this.channelIdOf(m);
    if (!channelId) return reply(404, 'Not Found');
    const callId = m.headers['call-id']!;
    // a re-INVITE is not supported (the first answer stands); a retransmission while the first is
    // being prepared is ignored
    if (this.sessions.has(callId) || this.inviting.has(callId)) return;
    this.inviting.add(callId);
    try {
      await this.answerInvite(m, channelId, callId, reply);
    } finally {
      this.inviting.delete(callId);
    }
  }

  private async answerInvite(
    m: SipMessage,
    channelId: string,
    callId: string,
    reply: (s: number, r: string, e?: ResponseExtra) => void,
  ): Promise<void> {
    let plan: MediaPlan;
    let offer;
    try {
      offer = parseSdp(m.content ?? '');
      plan = planFromOffer(offer);
    } catch (err) {
      if (err instanceof SdpError) return reply(488, `Not Acceptable Here (${err.code})`);
      throw err;
    }
    const ffmpeg = this.hub.ffmpeg;
    if (!ffmpeg) return reply(503, 'Service Unavailable (no ffmpeg)');
    const ssrc =
      plan.ssrc ?? `0${this.server.domain.slice(3, 8)}${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`;
    const stream = new GbStream({
      plan,
      ssrc: ssrcNumber(ssrc),
      label: `${this.o.name} ${channelId}`,
      ffmpeg,
      font: this.hub.font,
      udp: plan.transport === 'udp' ? await this.hub.mediaSocket() : null,
      localHost: this.hub.host,
      audio: this.o.audio,
    });
    const port = await stream.prepare();
    const localTag = token(4);
    const session: Session = {
      channelId,
      callId,
      stream,
      plan,
      started: false,
      dialog: {
        callId,
        localTag,
        remoteTag: m.headers.from!.params.tag ?? '',
        remoteUri: m.headers.from!.uri,
        localUri: m.headers.to!.uri,
        cseq: 0,
      },
    };
    if (!this.running) return void (await stream.stop(), reply(480, 'Temporarily Unavailable'));
    this.sessions.set(callId, session);
    stream.on('ended', (reason) => void this.endSession(session, reason, false));
    this.emit('invite', { channelId, plan });
    const answer = buildAnswer(offer, {
      deviceId: channelId,
      address: this.hub.host,
      port,
      ssrc,
      // a download says how big the "file" is (the recordings' ~600 kbit/s)
      ...(plan.session === 'Download' ? { fileSize: Math.max(0, plan.stop - plan.start) * 75_000 } : {}),
    });
    reply(200, 'OK', {
      headers: {
        contact: [{ uri: `sip:${channelId}@${this.link!.local.host}:${this.link!.local.port}`, params: {} }],
        'content-type': 'application/sdp',
        to: { ...m.headers.to!, params: { ...m.headers.to!.params, tag: localTag } },
      },
      content: answer,
    });
  }

  private onAck(m: SipMessage): void {
    const s = this.sessions.get(m.headers['call-id']!);
    if (!s || s.started) return;
    s.started = true;
    s.stream
      .start()
      .then(() => this.emit('streaming', { channelId: s.channelId, callId: s.callId, pid: s.stream.pid }))
      .catch((err: Error) => void this.endSession(s, err.message, false));
  }

  private onBye(m: SipMessage, reply: (s: number, r: string) => void): void {
    const s = this.sessions.get(m.headers['call-id']!);
    if (!s) return reply(481, 'Call/Transaction Does Not Exist');
    reply(200, 'OK');
    void this.endSession(s, 'BYE', true);
  }

  /**
   * MANSRTSP in the dialog of a Playback or Download (9.8.2): PAUSE stops its media where it is,
   * PLAY resumes from there; in a Playback, PLAY with `Range: npt=<s>-` plays from `s` seconds past
   * its start (400 outside the asked span) and PLAY with `Scale` at that speed (both also end a
   * pause). Answered at once; the body of the 200 is the MANSRTSP answer (B.2).
   */
  private onInfo(m: SipMessage, reply: (s: number, r: string, e?: ResponseExtra) => void): void {
    const s = this.sessions.get(m.headers['call-id']!);
    if (!s) return reply(481, 'Call/Transaction Does Not Exist');
    const type = m.headers['content-type'];
    if (type && type.split(';')[0]!.trim().toLowerCase() !== MANSRTSP_CONTENT_TYPE.toLowerCase())
      return reply(415, 'Unsupported Media Type', { headers: { accept: MANSRTSP_CONTENT_TYPE } });
    let rq;
    try {
      rq = parseMansrtsp(m.content ?? '');
    } catch (err) {
      return reply(400, `Bad Request (${(err as Error).message.slice(0, 80)})`);
    }
    const { plan } = s;
    if (plan.session === 'Play') return reply(400, 'Bad Request (a live stream has no playback control)');
    if ((rq.command === 'seek' || rq.command === 'speed') && plan.session !== 'Playback')
      return reply(400, 'Bad Request (a download has no seek or speed)');
    const span = plan.stop - plan.start;
    if (rq.command === 'seek' && span > 0 && rq.offset >= span)
      return reply(400, `Bad Request (npt=${rq.offset} is outside the asked ${span} s)`);
    const { cseq, ...control } = rq;
    if (control.command === 'pause') s.stream.pause();
    else if (control.command === 'resume') s.stream.resume();
    else if (control.command === 'seek') s.stream.seek(control.offset);
    else s.stream.speed(control.scale);
    reply(200, 'OK', {
      headers: { 'content-type': MANSRTSP_CONTENT_TYPE },
      content: `RTSP/1.0 200 OK\r\nCSeq: ${cseq}\r\n\r\n`,
    });
    this.emit('playbackControl', { channelId: s.channelId, callId: s.callId, ...control });
  }

  /** Ends a stream; unless the platform hung up (`byPeer`), the device sends BYE. */
  private async endSession(s: Session, reason: string, byPeer: boolean): Promise<void> {
    if (this.sessions.get(s.callId) !== s) return;
    this.sessions.delete(s.callId);
    await s.stream.stop();
    this.emit('streamStopped', { channelId: s.channelId, callId: s.callId, reason });
    // the device hangs up itself: the media ended (playback done) or failed
    if (!byPeer && this.link) void this.request('BYE', null, { dialog: s.dialog });
  }

  private channelIdOf(m: SipMessage): string | null {
    const user = /^sips?:([^@;>]*)@/i.exec(m.uri ?? '')?.[1] ?? '';
    if (this.channelIds.includes(user)) return user;
    if (user === this.id && this.channelIds.length) return this.channelIds[0]!;
    return null;
  }

  /** A stream of this device by its call's Call-ID (`paused`, `scale`, `position`, `frames`, `packets`), while it lasts. */
  stream(callId: string): GbStream | undefined {
    return this.sessions.get(callId)?.stream;
  }

  /** Streams running now. */
  get streams(): number {
    return this.sessions.size;
  }
}

/** A GB time (local, +08:00) as a Date. */
function parseGbTime(s: string, offsetMinutes = 480): Date {
  const t = Date.parse(`${s.replace(' ', 'T').slice(0, 19)}Z`);
  return new Date(Number.isFinite(t) ? t - offsetMinutes * 60_000 : 0);
}
