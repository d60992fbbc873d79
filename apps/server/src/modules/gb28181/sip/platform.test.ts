/**
 * GbSipPlatform on real loopback sockets.
 *
 * The SIPp tests need the `sipp` binary (Debian package sip-tester: `apt-get install -y sip-tester`);
 * without it they FAIL, they are not skipped. Devices bind to 127.0.0.2, the platform to 127.0.0.1.
 * Run: cd apps/server && npx vitest run src/modules/gb28181/sip
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceInfoResponse, encodeManscdp, keepalive } from '@bwc/gb28181/manscdp';
import { GbSipPlatform, type GbSipPlatformOptions } from './platform';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PLATFORM = '34020000002000000001';
const DOMAIN = '3402000000';
const DEVICE = '34020000001320000001';
const PASSWORD = '12345678';
const DEVICE_IP = '127.0.0.2';

const running: GbSipPlatform[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});

interface Logged {
  msg: string;
  obj: object;
}

async function startPlatform(extra: Partial<GbSipPlatformOptions> = {}) {
  const logs: Logged[] = [];
  const platform = new GbSipPlatform({
    platformId: PLATFORM,
    domain: DOMAIN,
    host: '127.0.0.1',
    port: 0,
    passwordFor: async (id) => (id === DEVICE ? PASSWORD : null),
    minExpiresSec: 1,
    log: { warn: (obj, msg) => logs.push({ obj, msg }), info: (obj, msg) => logs.push({ obj, msg }) },
    ...extra,
  });
  await platform.start();
  running.push(platform);
  return { platform, logs };
}

/** Resolves with the next `event` of `emitter` or rejects after `ms`. */
function next<T>(emitter: NodeJS.EventEmitter, event: string, ms = 10_000): Promise<T> {
  return once(emitter, event, { signal: AbortSignal.timeout(ms) }).then((args) => args[0] as T);
}

function runSipp(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sipp', args, { cwd: HERE, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new Error('sipp is not installed: install Debian package sip-tester (apt-get install -y sip-tester)')
          : err,
      ),
    );
    child.on('exit', (code) => resolve({ code, output }));
  });
}

function sippArgs(port: number, scenario: string, password: string, transport: 'u1' | 't1'): string[] {
  return [
    `127.0.0.1:${port}`,
    '-sf',
    path.join(HERE, 'sipp', scenario),
    '-m',
    '1',
    '-s',
    DEVICE,
    '-au',
    DEVICE,
    '-ap',
    password,
    '-key',
    'platform',
    PLATFORM,
    '-key',
    'domain',
    DOMAIN,
    '-i',
    DEVICE_IP,
    '-t',
    transport,
    '-nostdin',
    '-timeout',
    '20s',
    '-timeout_error',
  ];
}

// A minimal device UA on raw sockets.

interface Response {
  status: number;
  reason: string;
  headers: Map<string, string>;
}

function parseResponse(text: string): Response {
  const [head] = text.split('\r\n\r\n');
  const lines = head!.split('\r\n');
  const m = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(lines[0]!);
  if (!m) throw new Error(`not a response: ${lines[0]}`);
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    const name = line.slice(0, i).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(i + 1).trim());
  }
  return { status: Number(m[1]), reason: m[2]!, headers };
}

class TestUa {
  private udp?: dgram.Socket;
  private tcp?: net.Socket;
  private waiting: Array<(r: Response) => void> = [];
  private buf = '';
  localPort = 0;
  private cseq = 0;
  readonly callId = randomBytes(8).toString('hex');

  constructor(
    readonly transport: 'udp' | 'tcp',
    readonly port: number,
    readonly deviceId = DEVICE,
  ) {}

  async open(): Promise<void> {
    if (this.transport === 'udp') {
      this.udp = dgram.createSocket('udp4');
      this.udp.on('message', (d) => this.deliver(d.toString('latin1')));
      await new Promise<void>((r) => this.udp!.bind(0, DEVICE_IP, () => r()));
      this.localPort = this.udp.address().port;
    } else {
      this.tcp = net.connect({ port: this.port, host: '127.0.0.1', localAddress: DEVICE_IP });
      await once(this.tcp, 'connect');
      this.localPort = this.tcp.localPort!;
      this.tcp.on('data', (d: Buffer) => {
        this.buf += d.toString('latin1');
        for (;;) {
          const end = this.buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          const len = Number(/content-length:\s*(\d+)/i.exec(this.buf.slice(0, end))?.[1] ?? 0);
          if (this.buf.length < end + 4 + len) return;
          this.deliver(this.buf.slice(0, end + 4 + len));
          this.buf = this.buf.slice(end + 4 + len);
        }
      });
    }
  }

  close(): void {
    this.udp?.close();
    this.tcp?.destroy();
  }

  private deliver(text: string): void {
    this.waiting.shift()?.(parseResponse(text));
  }

  sendRaw(bytes: Buffer): void {
    if (this.udp) this.udp.send(bytes, this.port, '127.0.0.1');
    else this.tcp!.write(bytes);
  }

  request(
    method: string,
    extraHeaders: string[],
    body: Buffer = Buffer.alloc(0),
    to = this.deviceId,
  ): Promise<Response> {
    this.cseq++;
    const via = this.transport === 'udp' ? 'UDP' : 'TCP';
    const head = [
      `${method} sip:${PLATFORM}@${DOMAIN} SIP/2.0`,
      `Via: SIP/2.0/${via} ${DEVICE_IP}:${this.localPort};rport;branch=z9hG4bK${randomBytes(6).toString('hex')}`,
      `From: <sip:${this.deviceId}@${DOMAIN}>;tag=${this.callId.slice(0, 8)}`,
      `To: <sip:${to}@${DOMAIN}>`,
      `Call-ID: ${this.callId}`,
      `CSeq: ${this.cseq} ${method}`,
      'Max-Forwards: 70',
      ...extraHeaders,
      `Content-Length: ${body.length}`,
      '',
      '',
    ].join('\r\n');
    const reply = new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), 5000);
      this.waiting.push((r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
    this.sendRaw(Buffer.concat([Buffer.from(head, 'latin1'), body]));
    return reply;
  }

  register(expires: number, authorization?: string): Promise<Response> {
    return this.request('REGISTER', [
      `Contact: <sip:${this.deviceId}@${DEVICE_IP}:${this.localPort}>`,
      `Expires: ${expires}`,
      ...(authorization ? [`Authorization: ${authorization}`] : []),
    ]);
  }

  /** REGISTER, answer the 401 with a digest of `password`, return the final answer. */
  async registerWithAuth(expires: number, password = PASSWORD): Promise<Response> {
    const challenge = await this.register(expires);
    expect(challenge.status).toBe(401);
    const www = challenge.headers.get('www-authenticate')!;
    const nonce = /nonce="([^"]+)"/.exec(www)![1]!;
    const realm = /realm="([^"]+)"/.exec(www)![1]!;
    const uri = `sip:${PLATFORM}@${DOMAIN}`;
    const md5 = (s: string) => createHash('md5').update(s).digest('hex');
    const cnonce = randomBytes(4).toString('hex');
    const response = md5(
      `${md5(`${this.deviceId}:${realm}:${password}`)}:${nonce}:00000001:${cnonce}:auth:${md5(`REGISTER:${uri}`)}`,
    );
    return this.register(
      expires,
      `Digest username="${this.deviceId}",realm="${realm}",nonce="${nonce}",uri="${uri}",response="${response}",algorithm=MD5,qop=auth,nc=00000001,cnonce="${cnonce}"`,
    );
  }

  message(body: Buffer): Promise<Response> {
    return this.request('MESSAGE', ['Content-Type: Application/MANSCDP+xml'], body, PLATFORM);
  }
}

const uas: TestUa[] = [];
afterEach(() => uas.splice(0).forEach((u) => u.close()));

async function ua(transport: 'udp' | 'tcp', port: number, deviceId = DEVICE) {
  const u = new TestUa(transport, port, deviceId);
  await u.open();
  uas.push(u);
  return u;
}

describe('GbSipPlatform with SIPp devices', () => {
  for (const transport of ['u1', 't1'] as const) {
    it(`REGISTER -> 401 -> digest REGISTER -> 200 -> GB2312 Keepalive MESSAGE -> 200 (sipp -t ${transport})`, async () => {
      const { platform } = await startPlatform();
      const registered = next<{ deviceId: string; transport: string; expires: number; contact: string }>(
        platform,
        'registered',
      );
      const alive = next<{ deviceId: string; status: string; sn: number }>(platform, 'keepalive');
      const run = await runSipp(sippArgs(platform.port, 'register-keepalive.xml', PASSWORD, transport));
      expect(run.code, run.output).toBe(0);
      const r = await registered;
      expect(r).toMatchObject({ deviceId: DEVICE, transport: transport === 'u1' ? 'udp' : 'tcp', expires: 3600 });
      expect(r.contact).toMatch(new RegExp(`^sip:${DEVICE}@${DEVICE_IP.replace(/\./g, '\\.')}:\\d+$`));
      expect(await alive).toEqual({ deviceId: DEVICE, status: 'OK', sn: 1 });
      expect(platform.device(DEVICE)?.remote.address).toBe(DEVICE_IP);
    });
  }

  for (const transport of ['u1', 't1'] as const) {
    it(`digest REGISTER, then the platform's Catalog query answered in two GB2312 MESSAGEs (sipp -t ${transport})`, async () => {
      const { platform } = await startPlatform();
      // The query goes out when the device has registered; SIPp's out-of-call scenario answers it.
      const catalog = next<{ deviceId: string }>(platform, 'registered').then(({ deviceId }) =>
        platform.queryCatalog(deviceId),
      );
      const generic: unknown[] = [];
      platform.on('message', (m) => generic.push(m));
      const run = await runSipp([
        ...sippArgs(platform.port, 'register-wait.xml', PASSWORD, transport),
        '-oocsf',
        path.join(HERE, 'sipp', 'catalog-answer.xml'),
      ]);
      expect(run.code, run.output).toBe(0);
      const result = await catalog;
      expect(result.sumNum).toBe(3);
      expect(result.items.map((i) => [i.DeviceID, i.Name, i.Status])).toEqual([
        ['34020000001310000001', '执法记录仪通道1', 'ON'],
        ['34020000001310000002', '执法记录仪通道2', 'OFF'],
        ['34020000001310000003', '执法记录仪通道3', 'ON'],
      ]);
      expect(result.items[0]!.Manufacturer).toBe('测试厂商');
      expect(generic).toEqual([]);
    });
  }

  for (const transport of ['u1', 't1'] as const) {
    it(`digest REGISTER, then INVITE -> 100 -> 200 with SDP -> ACK, and our BYE -> 200 (sipp -t ${transport})`, async () => {
      const { platform } = await startPlatform();
      const offer = [
        'v=0',
        `o=${PLATFORM} 0 0 IN IP4 127.0.0.1`,
        's=Play',
        'c=IN IP4 127.0.0.1',
        't=0 0',
        'm=video 30000 RTP/AVP 96',
        'a=recvonly',
        'a=rtpmap:96 PS/90000',
        'y=0100000001',
        '',
      ].join('\r\n');
      const call = next<{ deviceId: string }>(platform, 'registered').then(async ({ deviceId }) => {
        const { answer, dialog } = await platform.invite(deviceId, '34020000001310000001', offer, {
          ssrc: '0100000001',
        });
        await platform.bye(dialog);
        return answer;
      });
      const run = await runSipp([
        ...sippArgs(platform.port, 'register-wait.xml', PASSWORD, transport),
        '-oocsf',
        path.join(HERE, 'sipp', 'invite-answer.xml'),
      ]);
      expect(run.code, run.output).toBe(0);
      const answer = await call;
      expect(answer).toMatch(/^v=0\r\no=34020000001320000001 0 0 IN IP4 127\.0\.0\.2\r\n/);
      expect(answer).toContain('a=sendonly\r\na=rtpmap:96 PS/90000\r\ny=0100000001');
    });
  }

  it('a wrong password gets 403 and no registration', async () => {
    const { platform } = await startPlatform();
    let registered = 0;
    platform.on('registered', () => registered++);
    const run = await runSipp(sippArgs(platform.port, 'register-forbidden.xml', 'wrong-password', 'u1'));
    expect(run.code, run.output).toBe(0);
    expect(registered).toBe(0);
    expect(platform.device(DEVICE)).toBeUndefined();
  });
});

describe('GbSipPlatform with a raw UA', () => {
  it('200 carries Expires and a GB28181 Date; Expires 0 unregisters', async () => {
    const { platform } = await startPlatform({ maxExpiresSec: 7200 });
    const u = await ua('udp', platform.port);
    const ok = await u.registerWithAuth(90_000);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('expires')).toBe('7200');
    expect(ok.headers.get('date')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(platform.device(DEVICE)?.expires).toBe(7200);
    const gone = next<{ deviceId: string }>(platform, 'unregistered');
    const bye = await u.registerWithAuth(0);
    expect(bye.status).toBe(200);
    expect(await gone).toEqual({ deviceId: DEVICE });
    expect(platform.device(DEVICE)).toBeUndefined();
  });

  it('a nonce is used once: the same Authorization again gets 401 stale=true', async () => {
    const { platform } = await startPlatform();
    const u = await ua('udp', platform.port);
    const challenge = await u.register(3600);
    const www = challenge.headers.get('www-authenticate')!;
    expect(www).toMatch(/^Digest realm="3402000000",nonce="[0-9a-f]{32}",qop="auth",algorithm=MD5$/);
    const nonce = /nonce="([^"]+)"/.exec(www)![1]!;
    const uri = `sip:${PLATFORM}@${DOMAIN}`;
    const md5 = (s: string) => createHash('md5').update(s).digest('hex');
    const response = md5(
      `${md5(`${DEVICE}:${DOMAIN}:${PASSWORD}`)}:${nonce}:00000001:abc:auth:${md5(`REGISTER:${uri}`)}`,
    );
    const auth = `Digest username="${DEVICE}",realm="${DOMAIN}",nonce="${nonce}",uri="${uri}",response="${response}",algorithm=MD5,qop=auth,nc=00000001,cnonce="abc"`;
    expect((await u.register(3600, auth)).status).toBe(200);
    const replay = await u.register(3600, auth);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('www-authenticate')).toMatch(/stale=true/);
  });

  it('the Date header is the configured local time', async () => {
    const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    const { platform } = await startPlatform({ now: () => now, timeZoneOffsetMinutes: 480 });
    const u = await ua('udp', platform.port);
    const ok = await u.registerWithAuth(3600);
    expect(ok.headers.get('date')).toBe('2026-01-02T11:04:05.678');
  });

  it('an unknown device, a short id and a To other than From get 403', async () => {
    const { platform } = await startPlatform();
    const stranger = await ua('udp', platform.port, '34020000001320000099');
    expect((await stranger.registerWithAuth(3600, PASSWORD)).status).toBe(403);
    const short = await ua('udp', platform.port, '3402000000132');
    expect((await short.register(3600)).status).toBe(403);
    const u = await ua('udp', platform.port);
    const wrongTo = await u.request(
      'REGISTER',
      [`Contact: <sip:${DEVICE}@${DEVICE_IP}:${u.localPort}>`],
      Buffer.alloc(0),
      PLATFORM,
    );
    expect(wrongTo.status).toBe(403);
    expect(platform.listDevices()).toEqual([]);
  });

  it('missed keepalives make the device offline; its next MESSAGE gets 403', async () => {
    const { platform } = await startPlatform({
      keepaliveIntervalSec: 0.1,
      keepaliveTimeoutCount: 2,
      checkIntervalMs: 20,
    });
    const u = await ua('udp', platform.port);
    expect((await u.registerWithAuth(3600)).status).toBe(200);
    const lastKeepalive = Date.now(); // before the platform stamps it
    expect((await u.message(encodeManscdp(keepalive({ sn: 1, deviceId: DEVICE })))).status).toBe(200);
    const offline = await next<{ deviceId: string; reason: string }>(platform, 'offline', 5000);
    expect(offline).toEqual({ deviceId: DEVICE, reason: 'keepalive' });
    expect(Date.now() - lastKeepalive).toBeGreaterThanOrEqual(200);
    const late = await u.message(encodeManscdp(keepalive({ sn: 2, deviceId: DEVICE })));
    expect(late.status).toBe(403);
  });

  it('a registration that is not refreshed goes offline (fake clock, check() by hand)', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { platform } = await startPlatform({
      now: () => now,
      timers: { setInterval: () => 0, clearInterval: () => {} },
    });
    const u = await ua('udp', platform.port);
    expect((await u.registerWithAuth(3600)).status).toBe(200);
    const events: unknown[] = [];
    platform.on('offline', (e) => events.push(e));
    now += 120_000; // keepalives every 60 s would be due, but 3 are allowed to be missed
    platform.check();
    expect(events).toEqual([]);
    now += 90_000; // 210 s > 3 x 60 s
    platform.check();
    expect(events).toEqual([{ deviceId: DEVICE, reason: 'keepalive' }]);

    expect((await u.registerWithAuth(100)).status).toBe(200);
    now += 99_000;
    platform.check();
    expect(events).toHaveLength(1);
    now += 1_000;
    platform.check();
    expect(events[1]).toEqual({ deviceId: DEVICE, reason: 'expired' });
  });

  it('a malformed MANSCDP body gets 400 with a reason, is logged, and the platform keeps serving', async () => {
    const { platform, logs } = await startPlatform();
    const u = await ua('udp', platform.port);
    expect((await u.registerWithAuth(3600)).status).toBe(200);
    const bad = await u.message(
      Buffer.from('<?xml version="1.0" encoding="GB2312"?><Notify><CmdType>Keepalive</CmdType>', 'latin1'),
    );
    expect(bad.status).toBe(400);
    expect(bad.reason).toMatch(/MANSCDP malformed/);
    expect(logs.some((l) => l.msg.includes('bad MANSCDP'))).toBe(true);
    const shortId = await u.message(
      Buffer.from(
        '<?xml version="1.0"?><Notify><CmdType>Keepalive</CmdType><SN>1</SN><DeviceID>123</DeviceID><Status>OK</Status></Notify>',
      ),
    );
    expect(shortId.status).toBe(400);
    expect(shortId.reason).toMatch(/MANSCDP invalid/);
    const alive = next<{ sn: number }>(platform, 'keepalive');
    expect((await u.message(encodeManscdp(keepalive({ sn: 7, deviceId: DEVICE })))).status).toBe(200);
    expect((await alive).sn).toBe(7);
  });

  it('a GB2312 MANSCDP answer other than Keepalive comes out as a decoded message', async () => {
    const { platform } = await startPlatform();
    const u = await ua('udp', platform.port);
    expect((await u.registerWithAuth(3600)).status).toBe(200);
    const got = next<{ deviceId: string; message: { kind: string; CmdType: string; DeviceName?: string } }>(
      platform,
      'message',
    );
    const body = encodeManscdp(deviceInfoResponse({ sn: 3, deviceId: DEVICE, name: '执法记录仪一号' }), 'GB2312');
    expect(body.includes(Buffer.from('执法', 'utf8'))).toBe(false); // really GB2312 bytes
    expect((await u.message(body)).status).toBe(200);
    const m = await got;
    expect(m.deviceId).toBe(DEVICE);
    expect(m.message).toMatchObject({ kind: 'Response', CmdType: 'DeviceInfo', DeviceName: '执法记录仪一号' });
  });

  it('garbage and oversize datagrams are dropped with a log line; the next REGISTER works', async () => {
    const { platform, logs } = await startPlatform({ maxMessageBytes: 4096 });
    const u = await ua('udp', platform.port);
    u.sendRaw(randomBytes(300));
    u.sendRaw(Buffer.from('REGISTER sip:x SIP/2.0\r\nFrom: <sip:a@b>\r\n\r\n')); // no Via, To, Call-ID, CSeq
    u.sendRaw(Buffer.from('SIP/2.0 200 OK\r\n\r\n'));
    u.sendRaw(Buffer.alloc(5000, 0x41));
    u.sendRaw(Buffer.from('\r\n\r\n'));
    const ok = await u.registerWithAuth(3600);
    expect(ok.status).toBe(200);
    expect(logs.filter((l) => l.msg.includes('malformed datagram')).length).toBeGreaterThanOrEqual(3);
    expect(logs.some((l) => l.msg.includes('oversize datagram'))).toBe(true);
  });

  it('a retransmitted REGISTER gets the same answer, not a second registration', async () => {
    const { platform } = await startPlatform();
    const u = await ua('udp', platform.port);
    const first = await u.register(3600);
    expect(first.status).toBe(401);
    // Same bytes again (same branch): the same challenge comes back.
    const raw: Buffer[] = [];
    const sock = dgram.createSocket('udp4');
    await new Promise<void>((r) => sock.bind(0, DEVICE_IP, () => r()));
    const msg = Buffer.from(
      [
        `REGISTER sip:${PLATFORM}@${DOMAIN} SIP/2.0`,
        `Via: SIP/2.0/UDP ${DEVICE_IP}:${sock.address().port};rport;branch=z9hG4bKsame`,
        `From: <sip:${DEVICE}@${DOMAIN}>;tag=1`,
        `To: <sip:${DEVICE}@${DOMAIN}>`,
        'Call-ID: retrans',
        'CSeq: 1 REGISTER',
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n'),
    );
    const two = new Promise<void>((resolve) =>
      sock.on('message', (d) => {
        raw.push(d);
        if (raw.length === 2) resolve();
      }),
    );
    sock.send(msg, platform.port, '127.0.0.1');
    await new Promise((r) => sock.once('message', r));
    sock.send(msg, platform.port, '127.0.0.1');
    await two;
    sock.close();
    expect(raw[1]!.equals(raw[0]!)).toBe(true);
  });

  it('REGISTER and Keepalive over TCP', async () => {
    const { platform, logs } = await startPlatform();
    const u = await ua('tcp', platform.port);
    const registered = next<{ transport: string }>(platform, 'registered');
    expect((await u.registerWithAuth(3600)).status).toBe(200);
    expect((await registered).transport).toBe('tcp');
    const alive = next<{ sn: number }>(platform, 'keepalive');
    expect((await u.message(encodeManscdp(keepalive({ sn: 5, deviceId: DEVICE })))).status).toBe(200);
    expect((await alive).sn).toBe(5);
    // A stream without Content-Length is closed and logged; the platform still serves new connections.
    const bad = net.connect({ port: platform.port, host: '127.0.0.1' });
    bad.write('MESSAGE sip:x SIP/2.0\r\nVia: SIP/2.0/TCP 1.2.3.4\r\n\r\n');
    await once(bad, 'close');
    expect(logs.some((l) => l.msg.includes('tcp stream dropped'))).toBe(true);
    const huge = net.connect({ port: platform.port, host: '127.0.0.1' });
    huge.write(`MESSAGE sip:x SIP/2.0\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(1000)}`);
    await once(huge, 'close');
    expect(logs.filter((l) => l.msg.includes('tcp stream dropped')).map((l) => (l.obj as { why: string }).why)).toEqual(
      ['no Content-Length', 'message too large'],
    );
    const again = await ua('tcp', platform.port);
    expect((await again.registerWithAuth(3600)).status).toBe(200);
  });
});
