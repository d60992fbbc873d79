/**
 * The registration half of a GB/T 28181-2016 SIP platform (9.1 registration, 9.6 keepalive):
 * digest-authenticated REGISTER, time sync via the Date header, MANSCDP MESSAGE bodies, and
 * liveness (registration expiry, missed keepalives). Not wired into the server yet.
 */
import { EventEmitter } from 'node:events';
import { decodeManscdp, isGbId, ManscdpError, type ManscdpDecoded } from '@bwc/gb28181/manscdp';
import {
  buildResponse,
  challengeHeader,
  newNonce,
  readCredentials,
  uriUser,
  verifyDigest,
  type ResponseExtra,
  type SipMessage,
} from '@bwc/gb28181/sip';
import { SipTransport, type SipLog, type SipRemote, type SipTransportName } from './transport';

export interface GbSipPlatformOptions {
  /** The platform's 20-digit SIP server id (type 200). */
  platformId: string;
  /** The 10-digit SIP domain; also the digest realm. */
  domain: string;
  host?: string;
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

export interface GbSipEvents {
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

const noop = () => {};

export class GbSipPlatform extends EventEmitter<GbSipEvents> {
  private readonly transport: SipTransport;
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
    await this.transport.stop();
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
      this.emit('offline', { deviceId: d.deviceId, reason });
    }
    for (const [k, at] of this.nonces) if (now - at > NONCE_LIFE_MS) this.nonces.delete(k);
    for (const [k, a] of this.answers) if (now - a.at > RETRANSMIT_KEEP_MS) this.answers.delete(k);
  }

  private onMessage(m: SipMessage, remote: SipRemote, reply: (text: string) => void): void {
    if (m.method === undefined || m.method === 'ACK') return; // this half sends no requests
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
      case 'OPTIONS':
        return send(200, 'OK', { headers: { allow: 'REGISTER, MESSAGE, OPTIONS' } });
      default:
        return send(405, 'Method Not Allowed', { headers: { allow: 'REGISTER, MESSAGE, OPTIONS' } });
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
      if (was) this.emit('unregistered', { deviceId });
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
    let decoded: ManscdpDecoded;
    try {
      decoded = decodeManscdp(Buffer.from(m.content ?? '', 'latin1'));
    } catch (err) {
      const code = err instanceof ManscdpError ? err.code : 'error';
      this.log.warn({ deviceId, remote, err }, 'gb28181 sip: bad MANSCDP body');
      return send(400, `Bad Request (MANSCDP ${code})`);
    }
    device.lastSeen = this.now();
    send(200, 'OK');
    if (decoded.kind === 'Notify' && decoded.CmdType === 'Keepalive') {
      this.emit('keepalive', { deviceId, status: decoded.Status, sn: decoded.SN });
    } else {
      this.emit('message', { deviceId, message: decoded, remote });
    }
  }

  /** GB28181 9.10 time sync: local time yyyy-MM-ddTHH:mm:ss.SSS. */
  private dateHeader(now: number): string {
    return new Date(now + this.o.timeZoneOffsetMinutes * 60_000).toISOString().slice(0, 23);
  }
}
