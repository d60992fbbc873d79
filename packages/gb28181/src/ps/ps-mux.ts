import { PsError } from './errors.js';
import { isKeyframe, type VideoCodec } from './nal.js';
import { mpegCrc32, STREAM_TYPE, START_PACK, START_PSM, START_SYSTEM } from './ps-demux.js';
import { buildRtp, RTP_PT_PS } from './rtp.js';

export type AudioCodec = 'g711a' | 'g711u';

export const VIDEO_STREAM_ID = 0xe0;
export const AUDIO_STREAM_ID = 0xc0;

export interface PsMuxerOptions {
  video: VideoCodec;
  audio?: AudioCodec | null;
  /** Largest PES payload; a bigger frame is split over several PES packets (PTS on the first). */
  maxPesPayload?: number;
  /** program_mux_rate in units of 50 bytes/s */
  muxRate?: number;
}

/** 5-byte time stamp of 2.4.3.7 with its 4-bit prefix and marker bits. */
function writeTimestamp(out: Buffer, p: number, prefix: number, ts: number): void {
  const t = ((ts % 2 ** 33) + 2 ** 33) % 2 ** 33;
  const hi = Math.floor(t / 2 ** 30) & 7;
  const mid = Math.floor(t / 2 ** 15) & 0x7fff;
  const lo = t & 0x7fff;
  out[p] = (prefix << 4) | (hi << 1) | 1;
  out[p + 1] = mid >> 7;
  out[p + 2] = ((mid & 0x7f) << 1) | 1;
  out[p + 3] = lo >> 7;
  out[p + 4] = ((lo & 0x7f) << 1) | 1;
}

/**
 * Builds the PS of GB28181-2016 Appendix C: per frame one pack (pack header; system header and
 * program stream map before a video keyframe; then the PES packets). Time stamps in 90 kHz.
 */
export class PsMuxer {
  private readonly maxPes: number;
  private readonly muxRate: number;
  private psmVersion = 0;

  constructor(private readonly opts: PsMuxerOptions) {
    this.maxPes = Math.min(opts.maxPesPayload ?? 0xffff - 13, 0xffff - 13);
    if (this.maxPes < 1) throw new PsError('ps-length', `maxPesPayload ${opts.maxPesPayload}`);
    this.muxRate = (opts.muxRate ?? 6106) & 0x3fffff; // ~2.4 Mbit/s, advisory for a receiver
  }

  /** One video access unit (Annex-B) as one pack. */
  video(data: Buffer, pts: number, dts: number = pts, keyframe = isKeyframe(this.opts.video, data)): Buffer {
    if (!data.length) throw new PsError('ps-length', 'empty video access unit');
    const parts = [this.packHeader(dts)];
    if (keyframe) parts.push(this.systemHeader(), this.psm());
    for (let at = 0; at < data.length; at += this.maxPes) {
      const first = at === 0;
      parts.push(
        this.pes(
          VIDEO_STREAM_ID,
          data.subarray(at, at + this.maxPes),
          first ? pts : null,
          first && dts !== pts ? dts : null,
        ),
      );
    }
    return Buffer.concat(parts);
  }

  /** One audio frame (G.711 bytes) as one pack. */
  audio(data: Buffer, pts: number): Buffer {
    if (!this.opts.audio) throw new PsError('ps-marker', 'muxer made without audio');
    if (!data.length) throw new PsError('ps-length', 'empty audio frame');
    const parts = [this.packHeader(pts)];
    for (let at = 0; at < data.length; at += this.maxPes) {
      parts.push(this.pes(AUDIO_STREAM_ID, data.subarray(at, at + this.maxPes), at === 0 ? pts : null, null));
    }
    return Buffer.concat(parts);
  }

  packHeader(scr: number): Buffer {
    const out = Buffer.alloc(14);
    out.writeUInt32BE(0x100 | START_PACK, 0);
    const t = ((scr % 2 ** 33) + 2 ** 33) % 2 ** 33;
    const hi = Math.floor(t / 2 ** 30) & 7;
    const mid = Math.floor(t / 2 ** 15) & 0x7fff;
    const lo = t & 0x7fff;
    const ext = 0;
    out[4] = 0x40 | (hi << 3) | 0x04 | (mid >> 13);
    out[5] = (mid >> 5) & 0xff;
    out[6] = ((mid & 0x1f) << 3) | 0x04 | (lo >> 13);
    out[7] = (lo >> 5) & 0xff;
    out[8] = ((lo & 0x1f) << 3) | 0x04 | (ext >> 7);
    out[9] = ((ext & 0x7f) << 1) | 1;
    out[10] = (this.muxRate >> 14) & 0xff;
    out[11] = (this.muxRate >> 6) & 0xff;
    out[12] = ((this.muxRate & 0x3f) << 2) | 0x03;
    out[13] = 0xf8; // reserved, no stuffing
    return out;
  }

  systemHeader(): Buffer {
    const streams: [number, number, number][] = [[VIDEO_STREAM_ID, 1, 1024]]; // id, scale, size bound (1024 x 1 KiB)
    if (this.opts.audio) streams.push([AUDIO_STREAM_ID, 0, 32]); // 32 x 128 bytes
    const out = Buffer.alloc(12 + 3 * streams.length);
    out.writeUInt32BE(0x100 | START_SYSTEM, 0);
    out.writeUInt16BE(out.length - 6, 4);
    out[6] = 0x80 | ((this.muxRate >> 15) & 0x7f);
    out[7] = (this.muxRate >> 7) & 0xff;
    out[8] = ((this.muxRate & 0x7f) << 1) | 1;
    out[9] = ((this.opts.audio ? 1 : 0) << 2) | 0x00; // audio_bound, fixed 0, CSPS 0
    out[10] = 0xe0 | 1; // audio lock, video lock, marker, video_bound 1
    out[11] = 0x7f; // packet_rate_restriction 0, reserved
    streams.forEach(([id, scale, size], i) => {
      const p = 12 + 3 * i;
      out[p] = id;
      out[p + 1] = 0xc0 | (scale << 5) | (size >> 8);
      out[p + 2] = size & 0xff;
    });
    return out;
  }

  psm(): Buffer {
    const entries: [number, number][] = [[STREAM_TYPE[this.opts.video], VIDEO_STREAM_ID]];
    if (this.opts.audio) entries.push([STREAM_TYPE[this.opts.audio], AUDIO_STREAM_ID]);
    const mapLen = 4 * entries.length;
    const out = Buffer.alloc(6 + 2 + 2 + 2 + mapLen + 4);
    out.writeUInt32BE(0x100 | START_PSM, 0);
    out.writeUInt16BE(out.length - 6, 4);
    out[6] = 0x80 | 0x60 | (this.psmVersion & 0x1f); // current_next, reserved, version
    out[7] = 0xff; // reserved, marker
    out.writeUInt16BE(0, 8); // program_stream_info_length
    out.writeUInt16BE(mapLen, 10);
    entries.forEach(([type, id], i) => {
      out[12 + 4 * i] = type;
      out[13 + 4 * i] = id;
      out.writeUInt16BE(0, 14 + 4 * i);
    });
    out.writeUInt32BE(mpegCrc32(out.subarray(0, out.length - 4)), out.length - 4);
    return out;
  }

  pes(streamId: number, payload: Buffer, pts: number | null, dts: number | null): Buffer {
    const hdl = pts === null ? 0 : dts === null ? 5 : 10;
    const out = Buffer.alloc(9 + hdl + payload.length);
    out.writeUInt32BE(0x100 | streamId, 0);
    out.writeUInt16BE(3 + hdl + payload.length, 4);
    out[6] = 0x80 | (pts !== null ? 0x04 : 0); // '10', data_alignment_indicator on a frame start
    out[7] = pts === null ? 0 : dts === null ? 0x80 : 0xc0;
    out[8] = hdl;
    if (pts !== null) writeTimestamp(out, 9, dts === null ? 0b0010 : 0b0011, pts);
    if (pts !== null && dts !== null) writeTimestamp(out, 14, 0b0001, dts);
    payload.copy(out, 9 + hdl);
    return out;
  }
}

export interface RtpPacketizerOptions {
  ssrc: number;
  payloadType?: number;
  /** first sequence number (random by default) */
  sequence?: number;
  /** largest RTP payload */
  maxPayload?: number;
}

/** Splits PS packs into RTP packets of one SSRC: 90 kHz timestamp, marker on a frame's last packet. */
export class RtpPacketizer {
  private seq: number;
  private readonly maxPayload: number;

  constructor(private readonly opts: RtpPacketizerOptions) {
    this.seq = (opts.sequence ?? Math.floor(Math.random() * 0x10000)) & 0xffff;
    this.maxPayload = opts.maxPayload ?? 1400;
    if (this.maxPayload < 1) throw new PsError('rtp-too-long', `maxPayload ${opts.maxPayload}`);
  }

  /** The RTP packets of one frame (a pack or several); `timestamp` in 90 kHz units. */
  packetize(frame: Buffer, timestamp: number): Buffer[] {
    const out: Buffer[] = [];
    for (let at = 0; at < frame.length; at += this.maxPayload) {
      const last = at + this.maxPayload >= frame.length;
      out.push(
        buildRtp(
          {
            marker: last,
            payloadType: this.opts.payloadType ?? RTP_PT_PS,
            sequence: this.seq,
            timestamp: timestamp % 2 ** 32,
            ssrc: this.opts.ssrc,
          },
          frame.subarray(at, at + this.maxPayload),
        ),
      );
      this.seq = (this.seq + 1) & 0xffff;
    }
    return out;
  }

  /** Sequence number of the next packet. */
  get nextSequence(): number {
    return this.seq;
  }
}
