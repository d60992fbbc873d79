import { EventEmitter } from 'node:events';
import type { AvPacket } from '../../media/live-stream';
import { FlvPacketizer, type MediaLog } from './flv-packets';
import type { RtpReceiver } from './receiver';

export interface GbMediaSessionOptions {
  /** where the FLV bodies go: the gateway's LiveStream.push */
  onPacket(packet: AvPacket): void;
  g711?: 'aac' | 'drop';
  log?: MediaLog;
}

export interface GbMediaSessionEvents {
  /** nothing came for the receiver's timeout (the owner usually closes the session and sends BYE) */
  timeout: [];
  closed: [string];
}

/**
 * One GB28181 live stream: a receiver (UDP, TCP passive or TCP active) feeding a FlvPacketizer.
 * Units are handed on as they come; the only copies are the FLV bodies themselves.
 */
export class GbMediaSession extends EventEmitter<GbMediaSessionEvents> {
  readonly packetizer: FlvPacketizer;
  readonly startedAt = Date.now();
  private closed = false;

  constructor(
    readonly receiver: RtpReceiver,
    opts: GbMediaSessionOptions,
  ) {
    super();
    this.packetizer = new FlvPacketizer({
      onPacket: opts.onPacket,
      ...(opts.g711 ? { g711: opts.g711 } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    });
    receiver.on('unit', (u) => this.packetizer.push(u));
    receiver.on('timeout', () => this.emit('timeout'));
    receiver.on('closed', (reason) => this.close(reason));
  }

  /** bytes: RTP bytes taken; frames: video/audio frames out; gaps: RTP packets lost; dropped: by reason. */
  get counters(): {
    bytes: number;
    packets: number;
    videoFrames: number;
    audioFrames: number;
    gaps: number;
    dropped: Record<string, number>;
  } {
    const r = this.receiver.stats;
    const p = this.packetizer.stats;
    return {
      bytes: r.bytes,
      packets: r.packets,
      videoFrames: p.videoFrames,
      audioFrames: p.audioFrames,
      gaps: r.gaps,
      dropped: { ...r.dropped, units: p.dropped },
    };
  }

  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closed = true;
    this.receiver.close(reason);
    this.packetizer.close();
    this.emit('closed', reason);
  }
}
