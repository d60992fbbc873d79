import { createServer, type Server, type Socket } from 'node:net';
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaKeys } from './keys';
import { LiveStream, type AvPacket, type StreamSink, type StreamTap } from './live-stream';

const require = createRequire(import.meta.url);

/** node-media-server's RTMP protocol state machine (src/protocol/rtmp.js), used as a library. */
interface RtmpProtocol {
  onConnectCallback: (req: { app: string; name: string; host: string; query: Record<string, unknown> }) => void;
  onPlayCallback: () => void;
  onPushCallback: () => void;
  onPacketCallback: (packet: AvPacket) => void;
  onOutputCallback: (buffer: Buffer) => void;
  parserData(buffer: Buffer): string | null;
}
const Rtmp = require('node-media-server/src/protocol/rtmp.js') as new () => RtmpProtocol;

/** The RTMP application devices publish to: rtmp://host:port/live/<device id>?key=<publish key> */
export const RTMP_APP = 'live';

/** What the gateway knows of a publisher (the ops centre's list, kicking). */
export interface PublisherInfo {
  deviceId: number;
  address: string;
  startedAt: number;
  bytesIn: number;
  bitrate: number;
  viewers: ViewerSink[];
}

/** A viewer's way out with who it is (the ops centre lists and kicks viewers). */
export interface ViewerSink extends StreamSink {
  readonly id: number;
  readonly userId: number;
  readonly address: string;
  /** 'record': the server's own SOS recording (sos-recorder.ts) */
  readonly protocol: 'ws' | 'http' | 'record';
  readonly since: number;
  bytesOut: number;
}

/** What the live service follows: a publish began or ended, a stream's viewer count changed. */
export interface GatewayListener {
  published(deviceId: number): void;
  unpublished(deviceId: number): void;
  viewersChanged(deviceId: number, viewers: number): void;
}

/** A stream key: a body camera's device id, or a namespaced string ('gb:<channel id>') of a keyed stream. */
export type StreamKey = number | string;

/** Why a viewer of a keyed stream is refused (media.module.ts answers it). */
export interface KeyedRefusal {
  status: number;
  code: number;
  key: string;
  params?: Record<string, string | number>;
}

/**
 * Who may watch a keyed stream of one namespace: the id in the path (`/live/<ns>-<id>.flv`) and the
 * play token give the user, or a refusal.
 */
export type KeyedAdmit = (id: string, token: string) => Promise<{ userId: number } | KeyedRefusal>;

/** A stream the server feeds itself (GB28181 channels), apart from the devices' RTMP publishes. */
export interface KeyedStream {
  stream: LiveStream;
  /** told when its viewer count changes (the owner's idle stop) */
  viewersChanged(viewers: number): void;
}

/**
 * The live media gateway (issue 13 section 1): devices publish H.264/AAC over RTMP with a signed
 * publish key that works once and expires; each stream keeps its GOP cache (live-stream.ts); viewers
 * read FLV over HTTP or websocket (media.module.ts) with a play token checked against the user's
 * unit scope. RTMP play is refused: viewers always go through the checked FLV outputs.
 */
export class MediaGateway {
  readonly streams = new Map<number, { stream: LiveStream; socket: Socket; address: string; endReason?: string }>();
  private server: Server | null = null;
  /** the port really listened on (RTMP_PORT 0: a free one, tests) */
  port: number | null = null;
  /** the live service (live.service.ts): starts, stops and idle timeouts */
  listener: GatewayListener | null = null;
  /** told of each publish after the listener (continuous-recorder.ts) */
  readonly onPublish: ((deviceId: number) => void)[] = [];
  /** streams the server feeds itself, by namespaced key ('gb:<channel id>'); never device ids */
  readonly keyed = new Map<string, KeyedStream>();
  /** viewer checks of keyed streams, by namespace ('gb') */
  readonly keyedAdmit = new Map<string, KeyedAdmit>();
  /** viewers waiting for a device that was told to publish */
  private readonly waiting = new Map<number, Set<(published: boolean) => void>>();

  constructor(
    readonly keys: MediaKeys,
    private readonly log: FastifyBaseLogger,
  ) {}

  async listen(port: number, host: string): Promise<number> {
    const server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  private accept(socket: Socket): void {
    const address = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    const rtmp = new Rtmp();
    let publishing: LiveStream | null = null;
    let deviceId = 0;
    let key = '';
    const refuse = (why: string) => {
      this.log.warn({ address, device: deviceId || undefined, why }, 'media gateway: RTMP refused');
      socket.destroy();
    };
    rtmp.onConnectCallback = (req) => {
      deviceId = /^\d{1,12}$/.test(req.name) && req.app === RTMP_APP ? Number(req.name) : 0;
      key = typeof req.query.key === 'string' ? req.query.key : '';
    };
    rtmp.onPlayCallback = () => refuse('RTMP play is not offered: viewers use the FLV outputs with a play token');
    // packets that come while the key is being checked (metadata, sequence headers) are kept
    let held: AvPacket[] | null = null;
    rtmp.onPushCallback = () => {
      if (!deviceId) return refuse(`stream path must be /${RTMP_APP}/<device id>`);
      held = [];
      this.keys.usePublishKey(deviceId, key).then(
        (refusal) => {
          const waiting = held ?? [];
          held = null;
          if (refusal) return refuse(`publish key ${refusal}`);
          if (socket.destroyed) return;
          const before = this.streams.get(deviceId);
          if (before) {
            // the device reconnected: the newest publish wins
            this.log.info({ device: deviceId }, 'media gateway: a new publish replaces the running one');
            before.stream.end('replaced');
            before.socket.destroy();
          }
          publishing = new LiveStream(deviceId);
          this.streams.set(deviceId, { stream: publishing, socket, address });
          for (const packet of waiting) publishing.push(packet);
          this.log.info({ device: deviceId, address }, 'media gateway: publishing');
          this.listener?.published(deviceId);
          for (const hook of this.onPublish) hook(deviceId);
          this.resolveWaiting(deviceId, true);
        },
        (err: unknown) => {
          this.log.error({ err, device: deviceId }, 'media gateway: publish key not checked');
          socket.destroy();
        },
      );
    };
    rtmp.onPacketCallback = (packet) => {
      if (held) {
        // a publisher that floods before it is admitted is cut off
        if (held.length > 1024) return refuse('too much data before the publish key was checked');
        held.push(packet);
      } else publishing?.push(packet);
    };
    rtmp.onOutputCallback = (buffer) => {
      if (!socket.destroyed) socket.write(buffer);
    };
    socket.on('data', (data: Buffer) => {
      let err: string | null;
      try {
        err = rtmp.parserData(data);
      } catch (e) {
        err = (e as Error).message;
      }
      if (err) refuse(`bad RTMP data: ${err}`);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      if (!publishing) return;
      const current = this.streams.get(publishing.deviceId);
      const replaced = current?.stream !== publishing;
      if (!replaced) this.streams.delete(publishing.deviceId);
      // the viewers' close reason: why it ended when the gateway ended it (kick), else 'ended'
      publishing.end((!replaced && current?.endReason) || 'ended');
      this.log.info({ device: publishing.deviceId }, 'media gateway: publish ended');
      if (!replaced) this.listener?.unpublished(publishing.deviceId);
    });
  }

  /** Register a keyed stream (its owner pushes the packets); an existing one under the key is ended. */
  addKeyed(key: string, viewersChanged: (viewers: number) => void): LiveStream {
    this.keyed.get(key)?.stream.end('replaced');
    const stream = new LiveStream(0);
    this.keyed.set(key, { stream, viewersChanged });
    return stream;
  }

  /** End a keyed stream: its viewers are closed with `reason`. */
  removeKeyed(key: string, stream: LiveStream, reason: string): void {
    if (this.keyed.get(key)?.stream === stream) this.keyed.delete(key);
    stream.end(reason);
  }

  /** A viewer joins a device's (or a keyed) stream; false when it is not publishing. */
  watch(deviceId: StreamKey, sink: ViewerSink): boolean {
    if (typeof deviceId === 'string') {
      const keyed = this.keyed.get(deviceId);
      if (!keyed) return false;
      keyed.stream.join(sink);
      keyed.viewersChanged(keyed.stream.viewers.size);
      return true;
    }
    const entry = this.streams.get(deviceId);
    if (!entry) return false;
    entry.stream.join(sink);
    this.listener?.viewersChanged(deviceId, entry.stream.viewers.size);
    return true;
  }

  unwatch(deviceId: StreamKey, sink: ViewerSink): void {
    if (typeof deviceId === 'string') {
      const keyed = this.keyed.get(deviceId);
      if (!keyed) return;
      keyed.stream.leave(sink);
      keyed.viewersChanged(keyed.stream.viewers.size);
      return;
    }
    const entry = this.streams.get(deviceId);
    if (!entry) return;
    // (a viewer that stopped taking data was already dropped by the stream: count again anyway)
    entry.stream.leave(sink);
    this.listener?.viewersChanged(deviceId, entry.stream.viewers.size);
  }

  /** A recorder taps a device's stream (not a viewer); false when the device is not publishing. */
  tap(deviceId: number, tap: StreamTap): boolean {
    const entry = this.streams.get(deviceId);
    if (!entry) return false;
    entry.stream.tap(tap);
    return true;
  }

  untap(deviceId: number, tap: StreamTap): void {
    this.streams.get(deviceId)?.stream.untap(tap);
  }

  /**
   * Wait until the device publishes (a viewer that came while it starts): true once it does,
   * false after `ms` or when `aborted` (the viewer left).
   */
  waitForPublish(deviceId: number, ms: number, aborted?: AbortSignal): Promise<boolean> {
    if (this.streams.has(deviceId)) return Promise.resolve(true);
    return new Promise((resolve) => {
      let set = this.waiting.get(deviceId);
      if (!set) this.waiting.set(deviceId, (set = new Set()));
      const done = (published: boolean) => {
        clearTimeout(timer);
        set.delete(done);
        if (!set.size && this.waiting.get(deviceId) === set) this.waiting.delete(deviceId);
        aborted?.removeEventListener('abort', onAbort);
        resolve(published);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      set.add(done);
      aborted?.addEventListener('abort', onAbort);
    });
  }

  private resolveWaiting(deviceId: number, published: boolean): void {
    for (const done of [...(this.waiting.get(deviceId) ?? [])]) done(published);
  }

  /** Viewers waiting for the device to publish (they count as viewers for the idle timeout). */
  waitingViewers(deviceId: number): number {
    return this.waiting.get(deviceId)?.size ?? 0;
  }

  publishers(): PublisherInfo[] {
    return [...this.streams.values()].map(({ stream, address }) => ({
      deviceId: stream.deviceId,
      address,
      startedAt: stream.startedAt,
      bytesIn: stream.bytesIn,
      bitrate: stream.bitrate,
      viewers: [...stream.viewers] as ViewerSink[],
    }));
  }

  /** Close one viewer of a device's stream (ops centre); false when there is no such viewer. */
  kickViewer(deviceId: number, viewerId: number): boolean {
    const entry = this.streams.get(deviceId);
    const viewer = [...(entry?.stream.viewers ?? [])].find((v) => (v as ViewerSink).id === viewerId) as
      ViewerSink | undefined;
    if (!entry || !viewer) return false;
    entry.stream.leave(viewer);
    viewer.close('kicked');
    this.listener?.viewersChanged(deviceId, entry.stream.viewers.size);
    return true;
  }

  /**
   * Stop a device's publish (kick, stop command): its viewers are closed with `reason` ('offline':
   * the device went offline, and players wait for it to come back; anything else ends them).
   */
  kick(deviceId: number, reason = 'stopped'): boolean {
    const entry = this.streams.get(deviceId);
    if (!entry) return false;
    entry.endReason = reason;
    entry.socket.destroy();
    return true;
  }

  async close(): Promise<void> {
    for (const deviceId of [...this.waiting.keys()]) this.resolveWaiting(deviceId, false);
    for (const { socket } of this.streams.values()) socket.destroy();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}
