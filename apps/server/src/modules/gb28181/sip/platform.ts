/**
 * A GB/T 28181-2016 SIP platform: registration (9.1 digest REGISTER, 9.6 keepalive, 9.10 time
 * sync, liveness) and, through GbOutgoing, the requests it sends to registered devices (queries,
 * control, SUBSCRIBE, INVITE). Not wired into the server yet.
 */
import { EventEmitter } from 'node:events';
import os from 'node:os';
import {
  decodeManscdp,
  isGbId,
  ManscdpError,
  type AssembledCatalog,
  type AssembledRecordInfo,
  type ManscdpDecoded,
  type MessageOf,
  type PtzInput,
} from '@bwc/gb28181/manscdp';
import {
  buildResponse,
  challengeHeader,
  newNonce,
  readCredentials,
  uriUser,
  verifyDigest,
  type MansrtspControl,
  type ResponseExtra,
  type SipMessage,
} from '@bwc/gb28181/sip';
import { GbOutgoing, type GbDialog, type GbSubscription, type OutgoingEvents, type SubscriptionKind } from './outgoing';
import { SipTransport, type SipLog, type SipRemote, type SipTransportName } from './transport';

export interface GbSipPlatformOptions {
  /** The platform's 20-digit SIP server id (type 200). */
  platformId: string;
  /** The 10-digit SIP domain; also the digest realm. */
  domain: string;
  host?: string;
  /** Address put in Via and Contact of our requests. Default `host`, or the first external IPv4 when `host` is a wildcard. */
  advertisedHost?: string;
  /** 0 = any free port. Default 5060. */
  port?: number;
  transports?: { udp?: boolean; tcp?: boolean };
  /** The device's password, or null for a device the platform does not know (403). */
  passwordFor(deviceId: string): Promise<string | null>;
  /** Shorter registrations get 423 Interval Too Brief. Default 60 s. */
  minExpiresSec?: number;
  /** Longer ones are cut to this. Default 86,400 s. */
  maxExpiresSec?: number;
  /** AliveInterval (default 60 s) and AliveTimeoutCnt (default 3): offline after their product without a keepalive. */
  keepaliveIntervalSec?: number;
  keepaliveTimeoutCount?: number;
  /** How often expiry and keepalive deadlines are checked. Default 1,000 ms. */
  checkIntervalMs?: number;
  /** Offset of the Date header's local time from UTC, minutes. Default +480 (China). */
  timeZoneOffsetMinutes?: number;
  /** Datagrams and TCP messages over this are dropped. Default 65,535 bytes. */
  maxMessageBytes?: number;
  maxTcpConnections?: number;
  /** RFC 3261 T1 (default 500 ms), T2 (4,000 ms) and Timer B/F (default 64 x T1) of our requests. */
  t1Ms?: number;
  t2Ms?: number;
  transactionTimeoutMs?: number;
  /** A query with no MANSCDP answer (or no next page) for this long fails. Default 10,000 ms. */
  queryTimeoutMs?: number;
  /** A query not complete after this fails however pages trickle in. Default 120,000 ms. */
  queryTotalTimeoutMs?: number;
  /** An INVITE with no final answer for this long is cancelled. Default 32,000 ms. */
  inviteTimeoutMs?: number;
  now?: () => number;
  timers?: { setInterval(fn: () => void, ms: number): unknown; clearInterval(handle: unknown): void };
  log?: SipLog;
}

export interface RegisteredDevice {
  deviceId: string;
  /** The Contact URI the device gave. */
  contact: string;
  transport: SipTransportName;
  /** Where its requests came from (NAT-safe address for requests to it). */
  remote: SipRemote;
  expires: number;
  registeredAt: number;
  lastSeen: number;
}

export interface GbSipEvents extends OutgoingEvents {
  registered: [
    {
      deviceId: string;
      contact: string;
      transport: SipTransportName;
      remote: SipRemote;
      expires: number;
      refresh: boolean;
    },
  ];
  unregistered: [{ deviceId: string }];
  offline: [{ deviceId: string; reason: 'expired' | 'keepalive' }];
  keepalive: [{ deviceId: string; status: string; sn: number }];
  message: [{ deviceId: string; message: ManscdpDecoded; remote: SipRemote }];
}

const NONCE_LIFE_MS = 300_000;
const MAX_NONCES = 10_000;
const RETRANSMIT_KEEP_MS = 32_000; // Timer J (RFC 3261 17.2.2)
const MAX_CACHED = 10_000;
const MANSCDP_TYPE = /^application\/manscdp\+xml\b/i;

const ALLOW = 'REGISTER, MESSAGE, NOTIFY, BYE, ACK, OPTIONS';

const noop = () => {};

function advertisedAddress(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return host;
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '127.0.0.1';
}

export class GbSipPlatform extends EventEmitter<GbSipEvents> {
  private readonly transport: SipTransport;
  private readonly out: GbOutgoing;
  private readonly devices = new Map<string, RegisteredDevice & { expiresAt: number }>();
  private readonly nonces = new Map<string, number>();
  /** Answers by transaction, so a retransmitted request gets the same answer (or none while pending). */
  private readonly answers = new Map<string, { at: number; text?: string }>();
  private readonly now: () => number;
  private readonly log: SipLog;
  private timer: unknown;
  private readonly o: Required<
    Pick<
      GbSipPlatformOptions,
      | 'minExpiresSec'
      | 'maxExpiresSec'
      | 'keepaliveIntervalSec'
      | 'keepaliveTimeoutCount'
      | 'checkIntervalMs'
      | 'timeZoneOffsetMinutes'
    >
  >;

  constructor(private readonly options: GbSipPlatformOptions) {
    super();
    if (!isGbId(options.platformId)) throw new Error('platformId must be 20 digits');
    if (!/^\d{10}$/.test(options.domain)) throw new Error('domain must be 10 digits');
    this.now = options.now ?? Date.now;
    this.log = options.log ?? { warn: noop };
    this.o = {
      minExpiresSec: options.minExpiresSec ?? 60,
      maxExpiresSec: options.maxExpiresSec ?? 86_400,
      keepaliveIntervalSec: options.keepaliveIntervalSec ?? 60,
      keepaliveTimeoutCount: options.keepaliveTimeoutCount ?? 3,
      checkIntervalMs: options.checkIntervalMs ?? 1000,
      timeZoneOffsetMinutes: options.timeZoneOffsetMinutes ?? 480,
    };
    this.transport = new SipTransport({
      host: options.host ?? '0.0.0.0',
      port: options.port ?? 5060,
      udp: options.transports?.udp ?? true,
      tcp: options.transports?.tcp ?? true,
      maxMessageBytes: options.maxMessageBytes ?? 65_535,
      maxTcpConnections: options.maxTcpConnections ?? 10_000,
      log: this.log,
      onMessage: (m, remote, reply) => this.onMessage(m, remote, reply),
    });
    const t1Ms = options.t1Ms ?? 500;
    const advertised = options.advertisedHost ?? advertisedAddress(options.host ?? '0.0.0.0');
    this.out = new GbOutgoing({
      platformId: options.platformId,
      domain: options.domain,
      local: () => ({ host: advertised, port: this.transport.port }),
      device: (id) => this.devices.get(id),
      send: (remote, text, connectTo) => this.transport.send(remote, text, connectTo),
      emit: (event, ...args) => this.emit(event, ...(args as never)),
      log: this.log,
      timers: { t1Ms, t2Ms: options.t2Ms ?? 4000, timeoutMs: options.transactionTimeoutMs ?? 64 * t1Ms },
      queryTimeoutMs: options.queryTimeoutMs ?? 10_000,
      queryTotalTimeoutMs: options.queryTotalTimeoutMs ?? 120_000,
      inviteTimeoutMs: options.inviteTimeoutMs ?? 32_000,
    });
  }

  /** The bound port (useful with port 0). */
  get port(): number {
    return this.transport.port;
  }

  async start(): Promise<void> {
    await this.transport.start();
    const timers = this.options.timers ?? {
      setInterval,
      clearInterval: (h: unknown) => clearInterval(h as NodeJS.Timeout),
    };
    this.timer = timers.setInterval(() => {
      try {
        this.check();
      } catch (err) {
        this.log.warn({ err }, 'gb28181 sip: liveness check failed');
      }
    }, this.o.checkIntervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  async stop(): Promise<void> {
    const timers = this.options.timers ?? { clearInterval: (h: unknown) => clearInterval(h as NodeJS.Timeout) };
    if (this.timer !== undefined) timers.clearInterval(this.timer);
    this.timer = undefined;
    this.out.stop();
    await this.transport.stop();
  }

  /** 9.5.2 / A.2.4.3: the device's whole catalog, assembled from its (paginated) answers. */
  queryCatalog(deviceId: string): Promise<AssembledCatalog> {
    return this.out.queryCatalog(deviceId);
  }

  queryDeviceInfo(deviceId: string): Promise<MessageOf<'Response', 'DeviceInfo'>> {
    return this.out.queryDeviceInfo(deviceId);
  }

  queryDeviceStatus(deviceId: string): Promise<MessageOf<'Response', 'DeviceStatus'>> {
    return this.out.queryDeviceStatus(deviceId);
  }

  /** 9.7 record search for one channel between two GB times (YYYY-MM-DDTHH:mm:ss), all pages. */
  queryRecordInfo(
    deviceId: string,
    channelId: string,
    startTime: string,
    endTime: string,
  ): Promise<AssembledRecordInfo> {
    return this.out.queryRecordInfo(deviceId, channelId, startTime, endTime);
  }

  /** 9.3.2 / A.3 PTZ and presets; resolves at the device's 200. */
  deviceControlPtz(deviceId: string, channelId: string, command: PtzInput): Promise<void> {
    return this.out.deviceControlPtz(deviceId, channelId, command);
  }

  /** 9.11 SUBSCRIBE (Catalog, MobilePosition every `interval` s, Alarm), refreshed before it runs out. */
  subscribe(
    deviceId: string,
    kind: SubscriptionKind,
    options?: { expires?: number; interval?: number; event?: string },
  ): Promise<GbSubscription> {
    return this.out.subscribe(deviceId, kind, options);
  }

  unsubscribe(subscription: GbSubscription): Promise<void> {
    return this.out.unsubscribe(subscription);
  }

  /** 9.2 live video: INVITE with the SDP offer; the answer SDP and the dialog. */
  invite(
    deviceId: string,
    channelId: string,
    sdpOffer: string,
    options?: { subject?: string; ssrc?: string; timeoutMs?: number },
  ): Promise<{ answer: string; dialog: GbDialog }> {
    return this.out.invite(deviceId, channelId, sdpOffer, options);
  }

  /** Pause, resume, seek or set the speed of a playback (INFO with MANSRTSP in its dialog, 9.8.2). */
  info(dialog: GbDialog, control: MansrtspControl): Promise<void> {
    return this.out.info(dialog, control);
  }

  bye(dialog: GbDialog): Promise<void> {
    return this.out.bye(dialog);
  }

  device(deviceId: string): RegisteredDevice | undefined {
    return this.devices.get(deviceId);
  }

  listDevices(): RegisteredDevice[] {
    return [...this.devices.values()];
  }

  /** Expiry and keepalive deadlines; runs on the check timer (tests with a fake clock call it). */
  check(): void {
    const now = this.now();
    const aliveMs = this.o.keepaliveIntervalSec * this.o.keepaliveTimeoutCount * 1000;
    for (const d of [...this.devices.values()]) {
      const reason = now >= d.expiresAt ? 'expired' : now - d.lastSeen > aliveMs ? 'keepalive' : undefined;
      if (!reason) continue;
      this.devices.delete(d.deviceId);
      this.log.info?.({ deviceId: d.deviceId, reason }, 'gb28181 sip: device offline');
      this.out.deviceGone(d.deviceId, `went offline (${reason})`);
      this.emit('offline', { deviceId: d.deviceId, reason });
    }
    for (const [k, at] of this.nonces) if (now - at > NONCE_LIFE_MS) this.nonces.delete(k);
    for (const [k, a] of this.answers) if (now - a.at > RETRANSMIT_KEEP_MS) this.answers.delete(k);
  }

  private onMessage(m: SipMessage, remote: SipRemote, reply: (text: string) => void): void {
    if (m.method === undefined) {
      if (!this.out.tx.onResponse(m)) this.out.onStrayResponse(m);
      return;
    }
    if (m.method === 'ACK') return; // we answer no INVITE
    const key = [
      remote.transport,
      remote.address,
      remote.port,
      m.headers['call-id'],
      m.headers.cseq!.seq,
      m.method,
      m.headers.via![0]!.params.branch,
    ].join('|');
    const seen = this.answers.get(key);
    if (seen) {
      if (seen.text !== undefined && remote.transport === 'udp') reply(seen.text);
      return;
    }
    if (this.answers.size >= MAX_CACHED) this.answers.delete(this.answers.keys().next().value!);
    const entry: { at: number; text?: string } = { at: this.now() };
    this.answers.set(key, entry);
    const send = (status: number, reason: string, extra?: ResponseExtra) => {
      entry.text = buildResponse(m, status, reason, extra);
      reply(entry.text);
    };
    this.handle(m, remote, send).catch((err: unknown) => {
      this.log.warn({ err, remote }, 'gb28181 sip: request failed');
      if (entry.text === undefined) send(500, 'Server Internal Error');
    });
  }

  private async handle(
    m: SipMessage,
    remote: SipRemote,
    send: (status: number, reason: string, extra?: ResponseExtra) => void,
  ): Promise<void> {
    switch (m.method) {
      case 'REGISTER':
        return this.register(m, remote, send);
      case 'MESSAGE':
        return this.message(m, remote, send);
      case 'NOTIFY':
        return this.out.onNotify(m, (n) => this.decodeBody(n), send);
      case 'BYE':
        return this.out.onBye(m, send);
      case 'OPTIONS':
        return send(200, 'OK', { headers: { allow: ALLOW } });
      default:
        return send(405, 'Method Not Allowed', { headers: { allow: ALLOW } });
    }
  }

  private async register(
    m: SipMessage,
    remote: SipRemote,
    send: (status: number, reason: string, extra?: ResponseExtra) => void,
  ): Promise<void> {
    const deviceId = uriUser(m.headers.from!.uri);
    const toId = uriUser(m.headers.to!.uri);
    if (!isGbId(deviceId) || toId !== deviceId) return send(403, 'Forbidden (device id must be 20 digits, To = From)');

    const auth = (m.headers.authorization ?? []).map(readCredentials).find((c) => c.scheme?.toLowerCase() === 'digest');
    const now = this.now();
    if (!auth) return this.challenge(send, now, false);
    const issued = auth.nonce ? this.nonces.get(auth.nonce) : undefined;
    if (issued === undefined || now - issued > NONCE_LIFE_MS) return this.challenge(send, now, true);
    if (auth.username !== deviceId || auth.realm !== this.options.domain) return send(403, 'Forbidden');
    const password = await this.options.passwordFor(deviceId);
    if (password === null || !verifyDigest(auth, 'REGISTER', password)) {
      this.log.warn({ deviceId, remote }, 'gb28181 sip: register refused');
      return send(403, 'Forbidden');
    }
    // Single use: a replayed Authorization gets a fresh challenge (stale=true).
    this.nonces.delete(auth.nonce!);

    const contacts = m.headers.contact;
    const first = Array.isArray(contacts) ? contacts[0] : undefined;
    const rawExpires = first?.params.expires ?? m.headers.expires;
    const asked = rawExpires === undefined || rawExpires === null ? 3600 : Number(String(rawExpires).trim());
    if (!Number.isInteger(asked) || asked < 0) return send(400, 'Bad Request (Expires)');
    const date = this.dateHeader(now);
    if (asked === 0) {
      const was = this.devices.delete(deviceId);
      if (was) {
        this.out.deviceGone(deviceId, 'unregistered');
        this.emit('unregistered', { deviceId });
      }
      return send(200, 'OK', { headers: { expires: '0', date } });
    }
    if (!first) return send(400, 'Bad Request (no Contact)');
    if (asked < this.o.minExpiresSec)
      return send(423, 'Interval Too Brief', { headers: { 'min-expires': String(this.o.minExpiresSec) } });
    const expires = Math.min(asked, this.o.maxExpiresSec);
    const refresh = this.devices.has(deviceId);
    this.devices.set(deviceId, {
      deviceId,
      contact: first.uri,
      transport: remote.transport,
      remote,
      expires,
      registeredAt: now,
      lastSeen: now,
      expiresAt: now + expires * 1000,
    });
    send(200, 'OK', {
      headers: { contact: [{ uri: first.uri, params: { expires: String(expires) } }], expires: String(expires), date },
    });
    this.emit('registered', { deviceId, contact: first.uri, transport: remote.transport, remote, expires, refresh });
  }

  private challenge(
    send: (status: number, reason: string, extra?: ResponseExtra) => void,
    now: number,
    stale: boolean,
  ): void {
    if (this.nonces.size >= MAX_NONCES) this.nonces.delete(this.nonces.keys().next().value!);
    const nonce = newNonce();
    this.nonces.set(nonce, now);
    send(401, 'Unauthorized', { headers: { 'www-authenticate': challengeHeader(this.options.domain, nonce, stale) } });
  }

  private async message(
    m: SipMessage,
    remote: SipRemote,
    send: (status: number, reason: string, extra?: ResponseExtra) => void,
  ): Promise<void> {
    const deviceId = uriUser(m.headers.from!.uri);
    const device = this.devices.get(deviceId);
    // A device the platform does not hold as registered is refused, so it registers again (see README).
    if (!device) return send(403, 'Forbidden (not registered)');
    const type = String(m.headers['content-type'] ?? '');
    if (!MANSCDP_TYPE.test(type)) return send(415, 'Unsupported Media Type');
    const decoded = this.decodeBody(m);
    if (typeof decoded === 'string') return send(400, decoded);
    device.lastSeen = this.now();
    send(200, 'OK');
    if (decoded.kind === 'Notify' && decoded.CmdType === 'Keepalive') {
      this.emit('keepalive', { deviceId, status: decoded.Status, sn: decoded.SN });
    } else if (!this.out.takeAnswer(deviceId, decoded)) {
      // an answer to one of our queries went to it; the rest is the owner's
      this.emit('message', { deviceId, message: decoded, remote });
    }
  }

  /** A MANSCDP body, or the reason phrase of a 400 (logged). */
  private decodeBody(m: SipMessage): ManscdpDecoded | string {
    try {
      return decodeManscdp(Buffer.from(m.content ?? '', 'latin1'));
    } catch (err) {
      const code = err instanceof ManscdpError ? err.code : 'error';
      this.log.warn({ from: m.headers.from?.uri, err }, 'gb28181 sip: bad MANSCDP body');
      return `Bad Request (MANSCDP ${code})`;
    }
  }

  /** GB28181 9.10 time sync: local time yyyy-MM-ddTHH:mm:ss.SSS. */
  private dateHeader(now: number): string {
    return new Date(now + this.o.timeZoneOffsetMinutes * 60_000).toISOString().slice(0, 23);
  }
}
