/**
 * UDP and TCP on one port for the SIP platform. Datagrams are one message each; TCP is framed by
 * Content-Length (RFC 3261 18.3). Anything unparseable or over the size limit is dropped and logged.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { parseSip, type SipMessage } from '@bwc/gb28181/sip';

/** Receive buffer of the UDP socket (the kernel caps it at net.core.rmem_max). */
const UDP_RECEIVE_BUFFER = 4 * 1024 * 1024;

export type SipTransportName = 'udp' | 'tcp';

export interface SipRemote {
  transport: SipTransportName;
  address: string;
  port: number;
}

export interface SipLog {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

export interface TransportOptions {
  host: string;
  /** 0 = any free port (the same number for UDP and TCP). */
  port: number;
  udp: boolean;
  tcp: boolean;
  maxMessageBytes: number;
  maxTcpConnections: number;
  log: SipLog;
  onMessage(message: SipMessage, remote: SipRemote, reply: (text: string) => void): void;
}

const HEAD_END = '\r\n\r\n';

const write = (socket: net.Socket, bytes: Buffer) =>
  new Promise<void>((resolve, reject) => socket.write(bytes, (err) => (err ? reject(err) : resolve())));

export class SipTransport {
  private udp?: dgram.Socket;
  private tcp?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** Open TCP connections by remote address and port, for requests the platform sends. */
  private readonly byRemote = new Map<string, net.Socket>();
  port = 0;

  constructor(private readonly o: TransportOptions) {}

  async start(): Promise<void> {
    // With port 0 the UDP port is chosen first and TCP must get the same number; retry on a clash.
    for (let attempt = 0; ; attempt++) {
      try {
        if (this.o.udp) this.port = await this.bindUdp(this.o.port);
        if (this.o.tcp) this.port = await this.listenTcp(this.o.udp ? this.port : this.o.port);
        return;
      } catch (err) {
        await this.stop();
        if (this.o.port !== 0 || attempt >= 5) throw err;
      }
    }
  }

  async stop(): Promise<void> {
    const udp = this.udp;
    const tcp = this.tcp;
    this.udp = undefined;
    this.tcp = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.byRemote.clear();
    if (udp) await new Promise<void>((r) => udp.close(() => r()));
    if (tcp) await new Promise<void>((r) => tcp.close(() => r()));
  }

  private bindUdp(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = dgram.createSocket(net.isIPv6(this.o.host) ? 'udp6' : 'udp4');
      socket.once('error', reject);
      socket.bind(port, this.o.host, () => {
        socket.off('error', reject);
        socket.on('error', (err) => this.o.log.warn({ err }, 'gb28181 sip: udp socket error'));
        socket.on('message', (data, rinfo) => this.onDatagram(socket, data, rinfo));
        // thousands of devices registering at once: the kernel's default buffer (208 KiB) dropped
        // REGISTERs from 1,400/s on (bench/gb-register.ts), each costing the device a retransmission
        socket.setRecvBufferSize(UDP_RECEIVE_BUFFER);
        this.udp = socket;
        resolve(socket.address().port);
      });
    });
  }

  private onDatagram(socket: dgram.Socket, data: Buffer, rinfo: dgram.RemoteInfo): void {
    const remote: SipRemote = { transport: 'udp', address: rinfo.address, port: rinfo.port };
    if (data.length > this.o.maxMessageBytes) {
      this.o.log.warn({ remote, bytes: data.length }, 'gb28181 sip: oversize datagram dropped');
      return;
    }
    const text = data.toString('latin1');
    if (/^\s*$/.test(text)) return; // keep-alive CRLFs (RFC 5626)
    const message = parseSip(text);
    if (!message) {
      this.o.log.warn({ remote, bytes: data.length }, 'gb28181 sip: malformed datagram dropped');
      return;
    }
    this.deliver(message, remote, (out) =>
      socket.send(Buffer.from(out, 'latin1'), rinfo.port, rinfo.address, (err) => {
        if (err) this.o.log.warn({ err, remote }, 'gb28181 sip: udp send failed');
      }),
    );
  }

  private listenTcp(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = net.createServer((socket) => this.onConnection(socket));
      server.maxConnections = this.o.maxTcpConnections;
      server.once('error', reject);
      server.listen(port, this.o.host, () => {
        server.off('error', reject);
        server.on('error', (err) => this.o.log.warn({ err }, 'gb28181 sip: tcp server error'));
        this.tcp = server;
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  }

  /**
   * Sends a message the platform starts (a request, or an ACK). UDP goes from our port to `remote`;
   * TCP over the open connection from `remote`, else over a new connection to `connectTo` (the
   * device's Contact) or `remote`. Rejects when there is no socket or the connection fails.
   */
  async send(remote: SipRemote, text: string, connectTo?: { address: string; port: number }): Promise<void> {
    const bytes = Buffer.from(text, 'latin1');
    if (remote.transport === 'udp') {
      const udp = this.udp;
      if (!udp) throw new Error('udp transport is not running');
      await new Promise<void>((resolve, reject) =>
        udp.send(bytes, remote.port, remote.address, (err) => (err ? reject(err) : resolve())),
      );
      return;
    }
    const target = connectTo ?? remote;
    const existing = [
      this.byRemote.get(`${remote.address}|${remote.port}`),
      this.byRemote.get(`${target.address}|${target.port}`),
    ].find((s) => s && s.writable);
    if (existing) {
      try {
        return await write(existing, bytes);
      } catch (err) {
        // the peer closed it meanwhile: one new connection
        this.o.log.warn({ err, remote }, 'gb28181 sip: tcp write failed, reconnecting');
        existing.destroy();
      }
    }
    await write(await this.connect(target), bytes);
  }

  private async connect(target: { address: string; port: number }): Promise<net.Socket> {
    if (!this.tcp) throw new Error('tcp transport is not running');
    if (this.sockets.size >= this.o.maxTcpConnections) throw new Error('too many tcp connections');
    const socket = net.connect({ host: target.address, port: target.port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.removeAllListeners('error');
    this.onConnection(socket);
    return socket;
  }

  private onConnection(socket: net.Socket): void {
    const remote: SipRemote = { transport: 'tcp', address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 };
    const key = `${remote.address}|${remote.port}`;
    this.sockets.add(socket);
    this.byRemote.set(key, socket);
    socket.on('close', () => {
      this.o.log.info?.({ remote }, 'gb28181 sip: tcp connection closed');
      this.sockets.delete(socket);
      if (this.byRemote.get(key) === socket) this.byRemote.delete(key);
    });
    socket.on('error', (err) => this.o.log.warn({ err, remote }, 'gb28181 sip: tcp socket error'));
    const reply = (out: string) => {
      if (!socket.destroyed) socket.write(Buffer.from(out, 'latin1'));
    };
    let buf = '';
    const drop = (why: string) => {
      this.o.log.warn({ remote, why }, 'gb28181 sip: tcp stream dropped');
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      buf += chunk.toString('latin1');
      for (;;) {
        buf = buf.replace(/^(\r\n)+/, '');
        const end = buf.indexOf(HEAD_END);
        if (end < 0) {
          if (buf.length > this.o.maxMessageBytes) drop('header too long');
          return;
        }
        const head = buf.slice(0, end + HEAD_END.length);
        const lengthMatch = /^(?:content-length|l)[ \t]*:[ \t]*(\d{1,9})[ \t]*$/im.exec(head);
        if (!lengthMatch) return drop('no Content-Length');
        const total = head.length + Number(lengthMatch[1]);
        if (total > this.o.maxMessageBytes) return drop('message too large');
        if (buf.length < total) return;
        const text = buf.slice(0, total);
        buf = buf.slice(total);
        const message = parseSip(text);
        if (!message) {
          this.o.log.warn({ remote, bytes: text.length }, 'gb28181 sip: malformed message dropped');
          continue;
        }
        this.deliver(message, remote, reply);
      }
    });
  }

  private deliver(message: SipMessage, remote: SipRemote, reply: (text: string) => void): void {
    try {
      this.o.onMessage(message, remote, reply);
    } catch (err) {
      this.o.log.warn({ err, remote }, 'gb28181 sip: handler failed');
    }
  }
}
