import { EventEmitter } from 'node:events';
import type { AccessUnit } from '@bwc/gb28181/ps';
import type { AvPacket } from '../../media/live-stream';
import { FlvPacketizer, type MediaLog } from './flv-packets';
import type { RtpReceiver } from './receiver';

export interface GbMediaSessionOptions {
  /** where the FLV bodies go: the gateway's LiveStream.push */
  onPacket(packet: AvPacket): void;
  g711?: 'aac' | 'drop';
  log?: MediaLog;
}

/** What the PS carries, from its stream map (or an audio unit before any map). */
export interface GbTracks {
  audio: boolean;
  video: boolean;
}

export interface GbMediaSessionEvents {
  /** once: the first stream map, or the first audio unit if it comes before one */
  tracks: [GbTracks];
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
  /** null until the stream map (or an audio unit) came */
  tracks: GbTracks | null = null;
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
    receiver.on('unit', (u) => {
      if (!this.tracks) this.findTracks(u);
      this.packetizer.push(u);
    });
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

  private findTracks(u: AccessUnit): void {
    const psm = this.receiver.psm;
    if (psm) {
      this.tracks = {
        // stream ids of ISO/IEC 13818-1 table 2-18: 0xc0-0xdf audio, 0xe0-0xef video
        audio: psm.streams.some((s) => s.streamId >= 0xc0 && s.streamId <= 0xdf),
        video: psm.streams.some((s) => s.streamId >= 0xe0 && s.streamId <= 0xef),
      };
    } else if (u.kind === 'audio') this.tracks = { audio: true, video: false };
    else return;
    this.emit('tracks', this.tracks);
  }

  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closed = true;
    this.receiver.close(reason);
    this.packetizer.close();
    this.emit('closed', reason);
  }
}
