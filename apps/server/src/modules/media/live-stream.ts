import { createRequire } from 'node:module';

/**
 * One device's live stream in the gateway: the FLV tags a new viewer needs before anything else
 * (metadata, audio and video sequence headers) and the group of pictures since the last keyframe
 * (GOP cache), so that a viewer who joins starts at a keyframe and sees a picture at once; then
 * every tag as it comes.
 *
 * The FLV tags are made by node-media-server's protocol code (`src/protocol/flv.js`), used as a
 * library: its server keeps process-wide state (one global context, its own HTTP server, its own
 * authentication), which the gateway does not want; its RTMP and FLV codecs are what it needs.
 */

const require = createRequire(import.meta.url);
const Flv = require('node-media-server/src/protocol/flv.js') as FlvCodec;

/** node-media-server's AVPacket (src/core/avpacket.js). */
export interface AvPacket {
  codec_id: number;
  /** 8 audio, 9 video, 18 script */
  codec_type: number;
  /**
   * 0 audio sequence header, 1 audio frame, 2 video sequence header, 3 video keyframe, 4 video
   * inter frame, 5 metadata
   */
  flags: number;
  pts: number;
  dts: number;
  size: number;
  data: Buffer;
}

interface FlvCodec {
  createHeader(hasAudio: boolean, hasVideo: boolean): Buffer;
  createMessage(packet: AvPacket): Buffer;
}

/** A viewer's way out: answers false once it cannot take more (closed). */
export interface StreamSink {
  write(chunk: Buffer): boolean;
  close(reason: string): void;
}

/**
 * A recorder's way in (continuous-recorder.ts): every FLV tag with its packet's flags (see AvPacket).
 * Taps are not viewers: they do not keep a stream alive nor show in the ops centre.
 */
export interface StreamTap {
  tag(tag: Buffer, flags: number): void;
  close(reason: string): void;
}

/** A GOP longer than this many tags is dropped (a publisher that never sends a keyframe). */
const GOP_MAX_TAGS = 4096;

export class LiveStream {
  readonly startedAt = Date.now();
  bytesIn = 0;
  private metadata: Buffer | null = null;
  private audioHeader: Buffer | null = null;
  private videoHeader: Buffer | null = null;
  private gop: { tag: Buffer; flags: number }[] | null = null;
  readonly viewers = new Set<StreamSink>();
  readonly taps = new Set<StreamTap>();
  /** bytes over the last complete second (bitrate) */
  private window = { start: Date.now(), bytes: 0, last: 0 };

  /**
   * Whether the FLV header viewers get names audio. Body cameras always do (the default); a GB
   * stream says what its device sends, so a player reading the header does not wait for audio.
   */
  hasAudio = true;

  constructor(readonly deviceId: number) {}

  static header(hasAudio = true): Buffer {
    return Flv.createHeader(hasAudio, true);
  }

  /** A packet from the publisher. */
  push(packet: AvPacket): void {
    const tag = Flv.createMessage(packet);
    this.bytesIn += packet.size;
    const nowMs = Date.now();
    if (nowMs - this.window.start >= 1000) this.window = { start: nowMs, bytes: 0, last: this.window.bytes };
    this.window.bytes += packet.size;
    switch (packet.flags) {
      case 0:
        this.audioHeader = tag;
        break;
      case 2:
        this.videoHeader = tag;
        break;
      case 3:
        this.gop = [{ tag, flags: packet.flags }];
        break;
      case 1:
      case 4:
        if (this.gop) this.gop.push({ tag, flags: packet.flags });
        if (this.gop && this.gop.length > GOP_MAX_TAGS) this.gop = null;
        break;
      case 5:
        this.metadata = tag;
        break;
    }
    for (const viewer of this.viewers) if (!viewer.write(tag)) this.viewers.delete(viewer);
    for (const tap of this.taps) tap.tag(tag, packet.flags);
  }

  /** A viewer joins: the FLV header, what it needs to decode, the GOP since the last keyframe. */
  join(viewer: StreamSink): void {
    const start = [
      LiveStream.header(this.hasAudio),
      this.metadata,
      this.audioHeader,
      this.videoHeader,
      ...(this.gop ?? []).map((g) => g.tag),
    ];
    for (const chunk of start) if (chunk && !viewer.write(chunk)) return;
    this.viewers.add(viewer);
  }

  leave(viewer: StreamSink): void {
    this.viewers.delete(viewer);
  }

  /** A tap joins: the tags a decoder needs, the GOP since the last keyframe, then every tag (no FLV header). */
  tap(tap: StreamTap): void {
    if (this.metadata) tap.tag(this.metadata, 5);
    if (this.audioHeader) tap.tag(this.audioHeader, 0);
    if (this.videoHeader) tap.tag(this.videoHeader, 2);
    for (const g of this.gop ?? []) tap.tag(g.tag, g.flags);
    this.taps.add(tap);
  }

  untap(tap: StreamTap): void {
    this.taps.delete(tap);
  }

  /** bits per second over the last complete second */
  get bitrate(): number {
    return this.window.last * 8;
  }

  /** The publisher went away: every viewer is told and closed. */
  end(reason: string): void {
    for (const viewer of this.viewers) viewer.close(reason);
    this.viewers.clear();
    for (const tap of this.taps) tap.close(reason);
    this.taps.clear();
  }
}
