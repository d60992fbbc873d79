import { createServer, type Server, type Socket } from 'node:net';
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaKeys } from './keys';
import { LiveStream, type AvPacket, type StreamSink } from './live-stream';

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

/** What the gateway knows of a publisher or a viewer (the ops centre's list, kicking). */
export interface PublisherInfo {
  deviceId: number;
  address: string;
  startedAt: number;
  bytesIn: number;
  bitrate: number;
  viewers: number;
}

/**
 * The live media gateway (issue 13 section 1): devices publish H.264/AAC over RTMP with a signed
 * publish key that works once and expires; each stream keeps its GOP cache (live-stream.ts); viewers
 * read FLV over HTTP or websocket (media.module.ts) with a play token checked against the user's
 * unit scope. RTMP play is refused: viewers always go through the checked FLV outputs.
 */
export class MediaGateway {
  readonly streams = new Map<number, { stream: LiveStream; socket: Socket; address: string }>();
  private server: Server | null = null;
  /** the port really listened on (RTMP_PORT 0: a free one, tests) */
  port: number | null = null;

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
      if (current?.stream === publishing) this.streams.delete(publishing.deviceId);
      publishing.end('ended');
      this.log.info({ device: publishing.deviceId }, 'media gateway: publish ended');
    });
  }

  /** A viewer joins a device's stream; false when the device is not publishing. */
  watch(deviceId: number, sink: StreamSink): boolean {
    const entry = this.streams.get(deviceId);
    if (!entry) return false;
    entry.stream.join(sink);
    return true;
  }

  unwatch(deviceId: number, sink: StreamSink): void {
    this.streams.get(deviceId)?.stream.leave(sink);
  }

  publishers(): PublisherInfo[] {
    return [...this.streams.values()].map(({ stream, address }) => ({
      deviceId: stream.deviceId,
      address,
      startedAt: stream.startedAt,
      bytesIn: stream.bytesIn,
      bitrate: stream.bitrate,
      viewers: stream.viewers.size,
    }));
  }

  /** Stop a device's publish (kick, stop command): its viewers are closed. */
  kick(deviceId: number): boolean {
    const entry = this.streams.get(deviceId);
    if (!entry) return false;
    entry.socket.destroy();
    return true;
  }

  async close(): Promise<void> {
    for (const { socket } of this.streams.values()) socket.destroy();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}
