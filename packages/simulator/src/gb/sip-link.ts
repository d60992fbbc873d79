/**
 * The simulated devices' SIP sockets. Over UDP all devices of a hub share one socket: requests
 * reach a device by the user part of their Request-URI (the device or one of its channels),
 * responses by the user of their From (the device itself). Over TCP each device has its own
 * connection to the platform, framed by Content-Length (RFC 3261 18.3).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { parseSip, uriUser, type SipMessage } from '@bwc/gb28181/sip';

export type GbTransport = 'udp' | 'tcp';

/** One device's way to the platform. */
export interface SipLink {
  readonly transport: GbTransport;
  /** the address and port the platform sees (for Via and Contact) */
  readonly local: { host: string; port: number };
  send(text: string): void;
  /**
   * Sends a response to `rq`: over UDP back to where it came from (RFC 3581 symmetric response;
   * the top Via if unknown), over TCP on the connection.
   */
  respond(text: string, rq: SipMessage): void;
  close(): void;
}

function viaTarget(rq: SipMessage): { host: string; port: number } | null {
  const via = rq.headers.via?.[0];
  if (!via?.host) return null;
  const received = via.params.received;
  const rport = Number(via.params.rport);
  return {
    host: typeof received === 'string' && received ? received : via.host,
    port: Number.isInteger(rport) && rport > 0 ? rport : (via.port ?? 5060),
  };
}

export type SipHandler = (m: SipMessage) => void;

const MAX_MESSAGE = 65_535;

/** One UDP socket for many devices. */
export class UdpHub {
  private socket: dgram.Socket | null = null;
  private readonly routes = new Map<string, SipHandler>();
  /** where each request came from, for its responses */
  private readonly sources = new WeakMap<SipMessage, { host: string; port: number }>();
  /** datagrams no device took (unknown user, not SIP) */
  dropped = 0;
  port = 0;

  constructor(private readonly host = '127.0.0.1') {}

  async start(port = 0): Promise<void> {
    if (this.socket) return;
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, this.host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.on('error', () => {}); // ICMP unreachable and the like: the transaction times out
    socket.on('message', (data, rinfo) => this.onDatagram(data, rinfo));
    // Thousands of devices: room for bursts of answers.
    socket.setRecvBufferSize(4 * 1024 * 1024);
    this.socket = socket;
    this.port = socket.address().port;
  }

  async stop(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }

  /**
   * Routes messages for `users` (the device id and its channel ids) to `handler`. The socket tells
   * devices apart by these ids only: a device repeating another's channel id needs a hub of its own.
   */
  link(users: string[], handler: SipHandler, server: { host: string; port: number }): SipLink {
    for (const u of users) {
      const taken = this.routes.get(u);
      if (taken && taken !== handler)
        throw new Error(`${u} belongs to another device on this socket: a device repeating it needs a hub of its own`);
    }
    for (const u of users) this.routes.set(u, handler);
    return {
      transport: 'udp',
      local: { host: this.host, port: this.port },
      send: (text) => this.sendTo(text, server.host, server.port),
      respond: (text, rq) => {
        const to = this.sources.get(rq) ?? viaTarget(rq) ?? server;
        this.sendTo(text, to.host, to.port);
      },
      close: () => {
        for (const u of users) if (this.routes.get(u) === handler) this.routes.delete(u);
      },
    };
  }

  sendTo(text: string, host: string, port: number): void {
    this.socket?.send(Buffer.from(text, 'latin1'), port, host);
  }

  private onDatagram(data: Buffer, rinfo: dgram.RemoteInfo): void {
    if (data.length > MAX_MESSAGE) return void this.dropped++;
    const m = parseSip(data.toString('latin1'));
    if (!m) return void this.dropped++;
    const user =
      m.method !== undefined ? uriUser(m.uri ?? '') || uriUser(m.headers.to!.uri) : uriUser(m.headers.from!.uri);
    const handler = this.routes.get(user);
    if (!handler) return void this.dropped++;
    if (m.method !== undefined) this.sources.set(m, { host: rinfo.address, port: rinfo.port });
    handler(m);
  }
}

/** One device's TCP connection to the platform. `onClose` is called once when it ends. */
export async function connectTcp(
  server: { host: string; port: number },
  localHost: string,
  onMessage: SipHandler,
  onClose: () => void,
): Promise<SipLink> {
  const socket = net.connect({ host: server.host, port: server.port, localAddress: localHost });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.removeAllListeners('error');
  socket.on('error', () => {});
  socket.once('close', onClose);
  socket.setNoDelay(true);
  let buf = '';
  socket.on('data', (chunk: Buffer) => {
    buf += chunk.toString('latin1');
    for (;;) {
      buf = buf.replace(/^(\r\n)+/, '');
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buf.length > MAX_MESSAGE) socket.destroy();
        return;
      }
      const head = buf.slice(0, end + 4);
      const len = /^(?:content-length|l)[ \t]*:[ \t]*(\d{1,9})[ \t]*$/im.exec(head);
      if (!len || head.length + Number(len[1]) > MAX_MESSAGE) return void socket.destroy();
      const total = head.length + Number(len[1]);
      if (buf.length < total) return;
      const m = parseSip(buf.slice(0, total));
      buf = buf.slice(total);
      if (m) onMessage(m);
    }
  });
  return {
    transport: 'tcp',
    local: { host: socket.localAddress ?? localHost, port: socket.localPort ?? 0 },
    send: (text) => {
      if (!socket.destroyed) socket.write(Buffer.from(text, 'latin1'));
    },
    respond: (text) => {
      if (!socket.destroyed) socket.write(Buffer.from(text, 'latin1'));
    },
    close: () => socket.destroy(),
  };
}
