/**
 * A raw-socket GB28181 device UA for the platform's tests (not used by the server): it registers with
 * digest, sends MESSAGE/NOTIFY/BYE, and queues the requests the platform sends so a test can answer,
 * ignore or check each one byte by byte.
 */
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { once } from 'node:events';
import net from 'node:net';

export interface Parsed {
  raw: string;
  /** Date.now() when it arrived */
  at: number;
  method?: string;
  uri?: string;
  status?: number;
  reason?: string;
  /** first value of each header, lower-case names */
  headers: Map<string, string>;
  /** every header line as sent */
  lines: string[];
  body: Buffer;
}

export function parseMessage(text: string): Parsed {
  const end = text.indexOf('\r\n\r\n');
  const head = text.slice(0, end);
  const lines = head.split('\r\n');
  const start = lines[0]!;
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    const name = line.slice(0, i).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(i + 1).trim());
  }
  const body = Buffer.from(text.slice(end + 4), 'latin1');
  const res = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(start);
  const at = Date.now();
  if (res) return { raw: text, at, status: Number(res[1]), reason: res[2], headers, lines: lines.slice(1), body };
  const req = /^([A-Z]+) (\S+) SIP\/2\.0$/.exec(start);
  if (!req) throw new Error(`not SIP: ${start}`);
  return { raw: text, at, method: req[1], uri: req[2], headers, lines: lines.slice(1), body };
}

/** The value of `;name=` in a header value. */
export const param = (value: string | undefined, name: string) =>
  value ? new RegExp(`;\\s*${name}=([^;>\\s]+)`, 'i').exec(value)?.[1] : undefined;

export class TestDevice {
  private udp?: dgram.Socket;
  private tcp?: net.Socket;
  private buf = '';
  private readonly responses = new Map<string, (r: Parsed) => void>();
  private readonly inbox: Parsed[] = [];
  private readonly inboxWaiters: Array<() => void> = [];
  localPort = 0;
  private cseq = 0;
  readonly tag = randomBytes(4).toString('hex');
  readonly callId = randomBytes(8).toString('hex');

  constructor(
    readonly transport: 'udp' | 'tcp',
    readonly platformPort: number,
    readonly o: { deviceId: string; platformId: string; domain: string; password: string; ip: string },
  ) {}

  async open(): Promise<void> {
    if (this.transport === 'udp') {
      this.udp = dgram.createSocket('udp4');
      this.udp.on('message', (d) => this.deliver(d.toString('latin1')));
      await new Promise<void>((r) => this.udp!.bind(0, this.o.ip, () => r()));
      this.localPort = this.udp.address().port;
      return;
    }
    const socket = net.connect({ port: this.platformPort, host: '127.0.0.1', localAddress: this.o.ip });
    await once(socket, 'connect');
    this.localPort = socket.localPort!;
    this.adopt(socket);
  }

  /** Use this TCP connection from now on (e.g. one the platform opened to our Contact). */
  adopt(socket: net.Socket): void {
    this.tcp = socket;
    this.buf = '';
    socket.on('data', (d: Buffer) => {
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

  close(): void {
    this.udp?.close();
    this.tcp?.destroy();
  }

  private deliver(text: string): void {
    const m = parseMessage(text);
    if (m.status !== undefined) {
      const key = `${param(m.headers.get('via'), 'branch')}`;
      this.responses.get(key)?.(m);
      return;
    }
    this.inbox.push(m);
    this.inboxWaiters.splice(0).forEach((w) => w());
  }

  /** The next request from the platform (in arrival order), optionally of one method; others stay queued. */
  async nextRequest(method?: string, ms = 5000): Promise<Parsed> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = this.inbox.findIndex((m) => !method || m.method === method);
      if (i >= 0) return this.inbox.splice(i, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${method ?? 'request'} from the platform in ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.inboxWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Requests received and not taken yet. */
  get pending(): Parsed[] {
    return [...this.inbox];
  }

  send(text: string | Buffer): void {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
    if (this.udp) this.udp.send(bytes, this.platformPort, '127.0.0.1');
    else this.tcp!.write(bytes);
  }

  /** A response to `rq` with Via/From/To/Call-ID/CSeq copied (To tag added). */
  respond(
    rq: Parsed,
    status: number,
    reason: string,
    extra: { headers?: string[]; body?: Buffer; toTag?: string } = {},
  ): void {
    const copy = (name: string) => rq.lines.filter((l) => l.toLowerCase().startsWith(`${name}:`));
    const to = rq.headers.get('to')!;
    const body = extra.body ?? Buffer.alloc(0);
    const head = [
      `SIP/2.0 ${status} ${reason}`,
      ...copy('via'),
      ...copy('from'),
      `To: ${to}${param(to, 'tag') || status === 100 ? '' : `;tag=${extra.toTag ?? this.tag}`}`,
      ...copy('call-id'),
      ...copy('cseq'),
      ...(extra.headers ?? []),
      `Content-Length: ${body.length}`,
      '',
      '',
    ].join('\r\n');
    this.send(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  }

  /** A request to the platform; resolves with its final answer. */
  request(
    method: string,
    headers: string[],
    body: Buffer = Buffer.alloc(0),
    o: { to?: string; uri?: string; callId?: string; fromTag?: string; cseq?: number } = {},
  ): Promise<Parsed> {
    const branch = `z9hG4bK${randomBytes(6).toString('hex')}`;
    const head = [
      `${method} ${o.uri ?? `sip:${this.o.platformId}@${this.o.domain}`} SIP/2.0`,
      `Via: SIP/2.0/${this.transport.toUpperCase()} ${this.o.ip}:${this.localPort};rport;branch=${branch}`,
      `From: <sip:${this.o.deviceId}@${this.o.domain}>;tag=${o.fromTag ?? this.tag}`,
      `To: ${o.to ?? `<sip:${this.o.platformId}@${this.o.domain}>`}`,
      `Call-ID: ${o.callId ?? this.callId}`,
      `CSeq: ${o.cseq ?? ++this.cseq} ${method}`,
      'Max-Forwards: 70',
      ...headers,
      `Content-Length: ${body.length}`,
      '',
      '',
    ].join('\r\n');
    const answer = new Promise<Parsed>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), 5000);
      this.responses.set(branch, (r) => {
        if (r.status! < 200) return;
        clearTimeout(timer);
        this.responses.delete(branch);
        resolve(r);
      });
    });
    this.send(Buffer.concat([Buffer.from(head, 'latin1'), body]));
    return answer;
  }

  message(body: Buffer): Promise<Parsed> {
    return this.request('MESSAGE', ['Content-Type: Application/MANSCDP+xml'], body, {
      callId: randomBytes(8).toString('hex'),
    });
  }

  /** REGISTER, 401, REGISTER with the digest; the final answer. */
  async register(expires = 3600, contactPort = this.localPort): Promise<Parsed> {
    const contact = `Contact: <sip:${this.o.deviceId}@${this.o.ip}:${contactPort}>`;
    const to = `<sip:${this.o.deviceId}@${this.o.domain}>`;
    const first = await this.request('REGISTER', [contact, `Expires: ${expires}`], undefined, { to });
    if (first.status !== 401) return first;
    const www = first.headers.get('www-authenticate')!;
    const nonce = /nonce="([^"]+)"/.exec(www)![1]!;
    const realm = /realm="([^"]+)"/.exec(www)![1]!;
    const uri = `sip:${this.o.platformId}@${this.o.domain}`;
    const md5 = (s: string) => createHash('md5').update(s).digest('hex');
    const cnonce = randomBytes(4).toString('hex');
    const ha1 = md5(`${this.o.deviceId}:${realm}:${this.o.password}`);
    const response = md5(`${ha1}:${nonce}:00000001:${cnonce}:auth:${md5(`REGISTER:${uri}`)}`);
    const auth = `Authorization: Digest username="${this.o.deviceId}",realm="${realm}",nonce="${nonce}",uri="${uri}",response="${response}",algorithm=MD5,qop=auth,nc=00000001,cnonce="${cnonce}"`;
    return this.request('REGISTER', [contact, `Expires: ${expires}`, auth], undefined, { to });
  }
}
