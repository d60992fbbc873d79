/**
 * RTP receivers of one GB/T 28181-2016 live stream (9.2; Appendix C: MPEG-2 PS over RTP): UDP, TCP
 * passive (RFC 4571 framing, the device connects to us) and TCP active (we connect to the device).
 * Each takes only the expected SSRC, puts packets back in order and emits the access units of the
 * program stream.
 */
import dgram from 'node:dgram';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import {
  parseRtp,
  PsDemuxer,
  PsError,
  RtpReassembler,
  RtpTcpFramer,
  type ProgramStreamMap,
  type AccessUnit,
  type ReassemblyEvent,
  type RtpGap,
} from '@bwc/gb28181/ps';
import type { MediaLog } from './flv-packets';
import type { PortAllocator } from './ports';

export interface ReceiverOptions {
  /** The SSRC of the SDP's y= line; null takes the first one seen. */
  ssrc: number | null;
  /** 'timeout' after this long without an accepted packet. Default 10,000 ms. */
  timeoutMs?: number;
  /** Larger packets are dropped. Default 16,384 bytes (≤ 65,535). */
  maxPacketBytes?: number;
  /** Accepted packets beyond these rates are dropped (floods). Defaults 5,000 packets/s, 4 MiB/s. */
  maxPacketsPerSec?: number;
  maxBytesPerSec?: number;
  /** RtpReassembler's reorder window (default 16) and largest frame (default 4 MiB). */
  reorderWindow?: number;
  maxFrameBytes?: number;
  /** Address to bind (UDP, TCP passive). Default 0.0.0.0. */
  host?: string;
  log?: MediaLog;
}

export type DropReason = 'ssrc' | 'malformed' | 'size' | 'rate' | 'demux' | 'refused';

export interface ReceiverEvents {
  unit: [AccessUnit];
  gap: [RtpGap];
  /** nothing accepted for timeoutMs; again after packets came back and stopped again */
  timeout: [];
  /** TCP: the device's connection */
  connected: [{ address: string; port: number }];
  disconnected: [string];
  closed: [string];
}

export type Transport = 'udp' | 'tcp-passive' | 'tcp-active';

/** How often (at most) one drop reason is logged; the count in between goes with the next line. */
const DROP_LOG_MS = 5000;

export abstract class RtpReceiver extends EventEmitter<ReceiverEvents> {
  abstract readonly transport: Transport;
  readonly stats = {
    packets: 0,
    bytes: 0,
    frames: 0,
    units: 0,
    gaps: 0,
    dropped: { ssrc: 0, malformed: 0, size: 0, rate: 0, demux: 0, refused: 0 } as Record<DropReason, number>,
  };
  /** the local port (UDP, TCP passive), the remote one (TCP active) */
  port = 0;
  closed = false;
  protected readonly maxPacket: number;
  private readonly reassembler: RtpReassembler;
  private readonly demuxer = new PsDemuxer();
  /** the last program stream map of the PS (null until one came) */
  get psm(): ProgramStreamMap | null {
    return this.demuxer.psm;
  }
  private readonly expected: number | null;
  private readonly timeoutMs: number;
  private timer: NodeJS.Timeout | null = null;
  private lastPacket = performance.now();
  private timedOut = false;
  private window = { start: performance.now(), packets: 0, bytes: 0 };
  private readonly dropLog = new Map<DropReason, { at: number; count: number }>();

  constructor(protected readonly opts: ReceiverOptions) {
    super();
    this.expected = opts.ssrc;
    this.maxPacket = Math.min(opts.maxPacketBytes ?? 16384, 0xffff);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.reassembler = new RtpReassembler({
      ...(opts.ssrc === null ? {} : { ssrc: opts.ssrc }),
      reorderWindow: opts.reorderWindow ?? 16,
      maxFrameBytes: opts.maxFrameBytes ?? 4 * 1024 * 1024,
    });
  }

  /** The SSRC taken (the expected one, or the first seen). */
  get ssrc(): number | null {
    return this.expected ?? this.locked;
  }

  private locked: number | null = null;

  protected armTimeout(): void {
    const check = () => {
      if (this.closed) return;
      const idle = performance.now() - this.lastPacket;
      if (idle >= this.timeoutMs) {
        this.timer = null;
        this.timedOut = true;
        this.emit('timeout');
        return;
      }
      this.timer = setTimeout(check, this.timeoutMs - idle + 1);
      this.timer.unref();
    };
    this.lastPacket = performance.now();
    this.timer = setTimeout(check, this.timeoutMs);
    this.timer.unref();
  }

  /** Counts the timeout from now again (a paused playback resumed): silence from here on ends it. */
  restartTimeout(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timedOut = false;
    this.armTimeout();
  }

  /** One RTP packet (a datagram, or one RFC 4571 frame). */
  protected packet(buf: Buffer): void {
    if (this.closed) return;
    if (buf.length > this.maxPacket) return this.drop('size', `${buf.length} bytes`);
    let rtp;
    try {
      rtp = parseRtp(buf);
    } catch (e) {
      if (!(e instanceof PsError)) throw e;
      return this.drop('malformed', e.message);
    }
    const want = this.expected ?? this.locked;
    if (want !== null && rtp.ssrc !== want) return this.drop('ssrc', `SSRC ${rtp.ssrc}, expected ${want}`);
    this.locked ??= rtp.ssrc;
    const now = performance.now();
    const w = this.window;
    if (now - w.start >= 1000) this.window = { start: now, packets: 0, bytes: 0 };
    this.window.packets++;
    this.window.bytes += buf.length;
    if (
      this.window.packets > (this.opts.maxPacketsPerSec ?? 5000) ||
      this.window.bytes > (this.opts.maxBytesPerSec ?? 4 * 1024 * 1024)
    ) {
      return this.drop('rate', `over ${this.opts.maxPacketsPerSec ?? 5000} packets/s or the byte limit`);
    }
    this.stats.packets++;
    this.stats.bytes += buf.length;
    this.lastPacket = now;
    if (this.timedOut) {
      this.timedOut = false;
      this.armTimeout();
    }
    this.events(this.reassembler.push(rtp));
  }

  private events(events: ReassemblyEvent[]): void {
    for (const ev of events) {
      if (ev.type === 'gap') {
        this.stats.gaps += ev.gap.count;
        this.emit('gap', ev.gap);
        continue;
      }
      this.stats.frames++;
      const r = this.demuxer.push(ev.frame.data);
      for (const err of r.errors) this.drop('demux', err.message);
      // each RTP frame ends a PS frame: the held video unit goes out now
      for (const unit of [...r.units, ...this.demuxer.flush()]) {
        this.stats.units++;
        this.emit('unit', unit);
        if (this.closed) return;
      }
    }
  }

  protected drop(reason: DropReason, detail: string): void {
    this.stats.dropped[reason]++;
    const now = performance.now();
    const last = this.dropLog.get(reason);
    if (last && now - last.at < DROP_LOG_MS) {
      last.count++;
      return;
    }
    this.dropLog.set(reason, { at: now, count: 0 });
    this.opts.log?.warn(
      {
        transport: this.transport,
        port: this.port,
        reason,
        detail,
        since: last?.count ?? 0,
        total: this.stats.dropped[reason],
      },
      'GB media: RTP dropped',
    );
  }

  /** Stops receiving and frees the port. */
  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.shutdown();
    this.emit('closed', reason);
  }

  protected abstract shutdown(): void;
}

/** Binds one port of the range, trying others while the ones taken are busy (another program). */
async function bindFromRange<T>(
  ports: PortAllocator,
  bind: (port: number) => Promise<T>,
): Promise<{ port: number; handle: T }> {
  const tries = Math.min(ports.free, 16);
  for (let i = 0; i < tries; i++) {
    const port = ports.take();
    if (port === null) break;
    try {
      return { port, handle: await bind(port) };
    } catch (e) {
      ports.release(port);
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    }
  }
  throw new Error(`no free media port in ${ports.min}-${ports.max}`);
}

/** RTP over UDP on a port of the range. */
export class UdpRtpReceiver extends RtpReceiver {
  readonly transport = 'udp';
  private socket: dgram.Socket | null = null;

  private constructor(
    opts: ReceiverOptions,
    private readonly ports: PortAllocator,
  ) {
    super(opts);
  }

  static async open(ports: PortAllocator, opts: ReceiverOptions): Promise<UdpRtpReceiver> {
    const r = new UdpRtpReceiver(opts, ports);
    const { port, handle } = await bindFromRange(
      ports,
      (p) =>
        new Promise<dgram.Socket>((resolve, reject) => {
          const s = dgram.createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
          s.once('error', (e) => {
            s.close();
            reject(e);
          });
          s.bind(p, opts.host ?? '0.0.0.0', () => {
            s.removeAllListeners('error');
            resolve(s);
          });
        }),
    );
    r.port = port;
    r.socket = handle;
    handle.on('message', (msg) => r.packet(msg));
    handle.on('error', (e) => r.close(`socket error: ${e.message}`));
    r.armTimeout();
    return r;
  }

  protected shutdown(): void {
    this.socket?.close();
    this.socket = null;
    this.ports.release(this.port);
  }
}

/** RTP over TCP (RFC 4571 framing) on one connection. */
abstract class TcpRtpReceiver extends RtpReceiver {
  protected conn: net.Socket | null = null;

  /** Takes a connection's bytes; a framing error ends it. */
  protected attach(socket: net.Socket): void {
    this.conn = socket;
    socket.setNoDelay(true);
    const framer = new RtpTcpFramer(this.maxPacket);
    this.emit('connected', { address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 });
    socket.on('data', (chunk: Buffer) => {
      let packets: Buffer[];
      try {
        packets = framer.push(chunk);
      } catch (e) {
        if (!(e instanceof PsError)) throw e;
        this.drop('malformed', e.message);
        socket.destroy();
        return;
      }
      for (const p of packets) this.packet(p);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      if (this.conn !== socket) return;
      this.conn = null;
      if (!this.closed) this.lost('the device closed the connection');
    });
  }

  protected abstract lost(reason: string): void;
}

export interface TcpPassiveOptions extends ReceiverOptions {
  /** Only connections from this address (the device's media address) are taken. */
  allowFrom?: string;
}

/**
 * TCP passive (SDP a=setup:passive): we listen on a port of the range and the device connects.
 * One connection at a time; others are refused. When it closes, the device may connect again.
 */
export class TcpPassiveRtpReceiver extends TcpRtpReceiver {
  readonly transport = 'tcp-passive';
  private server: net.Server | null = null;

  private constructor(
    private readonly popts: TcpPassiveOptions,
    private readonly ports: PortAllocator,
  ) {
    super(popts);
  }

  static async open(ports: PortAllocator, opts: TcpPassiveOptions): Promise<TcpPassiveRtpReceiver> {
    const r = new TcpPassiveRtpReceiver(opts, ports);
    const { port, handle } = await bindFromRange(
      ports,
      (p) =>
        new Promise<net.Server>((resolve, reject) => {
          const s = net.createServer((socket) => r.accept(socket));
          s.once('error', reject);
          s.listen(p, opts.host ?? '0.0.0.0', () => {
            s.removeAllListeners('error');
            resolve(s);
          });
        }),
    );
    r.port = port;
    r.server = handle;
    handle.maxConnections = 8;
    handle.on('error', (e) => r.close(`listen error: ${e.message}`));
    r.armTimeout();
    return r;
  }

  private accept(socket: net.Socket): void {
    const from = socket.remoteAddress ?? '';
    const allow = this.popts.allowFrom;
    if (this.closed || this.conn || (allow && from !== allow && from !== `::ffff:${allow}`)) {
      this.drop('refused', this.conn ? `second connection from ${from}` : `connection from ${from}`);
      socket.destroy();
      return;
    }
    this.attach(socket);
  }

  protected lost(reason: string): void {
    this.emit('disconnected', reason);
  }

  protected shutdown(): void {
    this.conn?.destroy();
    this.conn = null;
    this.server?.close();
    this.server = null;
    this.ports.release(this.port);
  }
}

export interface TcpActiveOptions extends ReceiverOptions {
  /** The device's media address and port (its SDP answer). */
  remote: { host: string; port: number };
  /** How long to keep trying to connect (the device may listen a moment after its answer). Default 5,000 ms. */
  connectTimeoutMs?: number;
}

/** TCP active (SDP a=setup:active): we connect to the device's port; losing the connection closes the receiver. */
export class TcpActiveRtpReceiver extends TcpRtpReceiver {
  readonly transport = 'tcp-active';

  constructor(private readonly aopts: TcpActiveOptions) {
    super(aopts);
    this.port = aopts.remote.port;
    this.armTimeout();
    this.dial(performance.now() + (aopts.connectTimeoutMs ?? 5000));
  }

  private dial(deadline: number): void {
    if (this.closed) return;
    const socket = net.connect({ host: this.aopts.remote.host, port: this.aopts.remote.port });
    const failed = (e: Error) => {
      socket.destroy();
      if (this.closed) return;
      if (performance.now() >= deadline) this.close(`cannot connect to the device: ${e.message}`);
      else setTimeout(() => this.dial(deadline), 200).unref();
    };
    socket.once('error', failed);
    socket.once('connect', () => {
      socket.removeListener('error', failed);
      if (this.closed) return void socket.destroy();
      this.attach(socket);
    });
  }

  protected lost(reason: string): void {
    this.emit('disconnected', reason);
    this.close(reason);
  }

  protected shutdown(): void {
    this.conn?.destroy();
    this.conn = null;
  }
}
