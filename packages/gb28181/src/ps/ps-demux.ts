import { PsError } from './errors.js';
import { isKeyframe, splitAnnexB } from './nal.js';

/** Codecs GB28181-2016 Appendix C names, by PSM stream_type (ISO/IEC 13818-1 table 2-34). */
export type PsCodec = 'h264' | 'h265' | 'g711a' | 'g711u' | 'aac' | 'unknown';

export const STREAM_TYPE: Record<Exclude<PsCodec, 'unknown'>, number> = {
  h264: 0x1b,
  h265: 0x24,
  g711a: 0x90,
  g711u: 0x91,
  aac: 0x0f,
};

export function codecOfStreamType(streamType: number): PsCodec {
  for (const [codec, t] of Object.entries(STREAM_TYPE)) if (t === streamType) return codec as PsCodec;
  return 'unknown';
}

export const START_PACK = 0xba;
export const START_SYSTEM = 0xbb;
export const START_PSM = 0xbc;
export const START_END = 0xb9;

export const isVideoStreamId = (id: number): boolean => id >= 0xe0 && id <= 0xef;
export const isAudioStreamId = (id: number): boolean => id >= 0xc0 && id <= 0xdf;

/** A frame of one elementary stream. pts/dts in 90 kHz units (33 bits), null when not sent. */
export interface AccessUnit {
  kind: 'video' | 'audio';
  codec: PsCodec;
  streamId: number;
  pts: number | null;
  dts: number | null;
  data: Buffer;
  keyframe: boolean;
}

/** Pack header (2.5.3.3). scr in 90 kHz units, scrExtension in 27 MHz ticks (0-299). */
export interface PackHeader {
  scr: number;
  scrExtension: number;
  /** units of 50 bytes/s */
  muxRate: number;
  length: number;
}

/** System header (2.5.3.5). */
export interface SystemHeader {
  rateBound: number;
  audioBound: number;
  videoBound: number;
  streams: { streamId: number; bufferBoundScale: number; bufferSizeBound: number }[];
  length: number;
}

/** Program stream map (2.5.4). */
export interface ProgramStreamMap {
  version: number;
  streams: { streamType: number; streamId: number; codec: PsCodec }[];
  /** CRC_32 as sent matched the computed one (many devices send a wrong one; not enforced) */
  crcValid: boolean;
  length: number;
}

/** PES packet (2.4.3.6), MPEG-2 syntax. `payload` is a view into the input. */
export interface PesPacket {
  streamId: number;
  pts: number | null;
  dts: number | null;
  payload: Buffer;
  length: number;
}

function need(buf: Buffer, off: number, n: number, what: string): void {
  if (off + n > buf.length)
    throw new PsError('ps-truncated', `${what} needs ${n} bytes at ${off}, ${buf.length - off} left`);
}

function startCode(buf: Buffer, off: number, code: number, what: string): void {
  need(buf, off, 4, what);
  if (buf[off] !== 0 || buf[off + 1] !== 0 || buf[off + 2] !== 1 || buf[off + 3] !== code) {
    throw new PsError('ps-start-code', `${what}: no start code 0x000001${code.toString(16)} at ${off}`);
  }
}

export function parsePackHeader(buf: Buffer, off = 0): PackHeader {
  startCode(buf, off, START_PACK, 'pack header');
  need(buf, off, 5, 'pack header');
  const b4 = buf[off + 4]!;
  if (b4 >> 4 === 0b0010) throw new PsError('ps-mpeg1', 'MPEG-1 pack header');
  if (b4 >> 6 !== 0b01) throw new PsError('ps-marker', `pack header marker bits ${b4 >> 6}`);
  need(buf, off, 14, 'pack header');
  const b = (i: number): number => buf[off + i]!;
  const scr =
    ((b(4) >> 3) & 7) * 2 ** 30 +
    (((b(4) & 3) << 13) | (b(5) << 5) | (b(6) >> 3)) * 2 ** 15 +
    (((b(6) & 3) << 13) | (b(7) << 5) | (b(8) >> 3));
  const length = 14 + (b(13) & 7);
  need(buf, off, length, 'pack stuffing');
  return {
    scr,
    scrExtension: ((b(8) & 3) << 7) | (b(9) >> 1),
    muxRate: (b(10) << 14) | (b(11) << 6) | (b(12) >> 2),
    length,
  };
}

export function parseSystemHeader(buf: Buffer, off = 0): SystemHeader {
  startCode(buf, off, START_SYSTEM, 'system header');
  need(buf, off, 6, 'system header');
  const len = buf.readUInt16BE(off + 4);
  if (len < 6) throw new PsError('ps-length', `system header length ${len}`);
  need(buf, off, 6 + len, 'system header');
  const b = (i: number): number => buf[off + i]!;
  const streams: SystemHeader['streams'] = [];
  for (let p = off + 12; p + 3 <= off + 6 + len && (buf[p]! & 0x80) !== 0; p += 3) {
    streams.push({
      streamId: buf[p]!,
      bufferBoundScale: (buf[p + 1]! >> 5) & 1,
      bufferSizeBound: buf.readUInt16BE(p + 1) & 0x1fff,
    });
  }
  return {
    rateBound: ((b(6) & 0x7f) << 15) | (b(7) << 7) | (b(8) >> 1),
    audioBound: b(9) >> 2,
    videoBound: b(10) & 0x1f,
    streams,
    length: 6 + len,
  };
}

/** CRC-32 of ISO/IEC 13818-1 Annex A: polynomial 0x04C11DB7, initial all ones, no reflection. */
export function mpegCrc32(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) {
    crc ^= byte << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

export function parsePsm(buf: Buffer, off = 0): ProgramStreamMap {
  startCode(buf, off, START_PSM, 'program stream map');
  need(buf, off, 6, 'program stream map');
  const len = buf.readUInt16BE(off + 4);
  if (len < 10) throw new PsError('ps-length', `program stream map length ${len}`);
  need(buf, off, 6 + len, 'program stream map');
  const end = off + 6 + len - 4; // CRC_32 follows
  const version = buf[off + 6]! & 0x1f;
  const infoLen = buf.readUInt16BE(off + 8);
  let p = off + 10 + infoLen;
  if (p + 2 > end) throw new PsError('ps-length', `program_stream_info_length ${infoLen} past the map`);
  const mapLen = buf.readUInt16BE(p);
  p += 2;
  if (p + mapLen > end) throw new PsError('ps-length', `elementary_stream_map_length ${mapLen} past the map`);
  const mapEnd = p + mapLen;
  const streams: ProgramStreamMap['streams'] = [];
  while (p + 4 <= mapEnd) {
    const streamType = buf[p]!;
    const streamId = buf[p + 1]!;
    const esInfoLen = buf.readUInt16BE(p + 2);
    p += 4 + esInfoLen;
    if (p > mapEnd) throw new PsError('ps-length', `elementary_stream_info_length ${esInfoLen} past the map`);
    streams.push({ streamType, streamId, codec: codecOfStreamType(streamType) });
  }
  const crcValid = mpegCrc32(buf.subarray(off, end)) === buf.readUInt32BE(end);
  return { version, streams, crcValid, length: 6 + len };
}

/** 33-bit time stamp of 2.4.3.7 (marker bits not enforced: devices get them wrong). */
function readTimestamp(buf: Buffer, p: number): number {
  return (
    ((buf[p]! >> 1) & 7) * 2 ** 30 +
    ((buf[p + 1]! << 7) | (buf[p + 2]! >> 1)) * 2 ** 15 +
    ((buf[p + 3]! << 7) | (buf[p + 4]! >> 1))
  );
}

/** Stream ids whose PES packets carry no optional header (2.4.3.7). */
const NO_PES_HEADER = new Set([0xbc, 0xbe, 0xbf, 0xf0, 0xf1, 0xf2, 0xf8, 0xff]);

export function parsePes(buf: Buffer, off = 0): PesPacket {
  need(buf, off, 6, 'PES packet');
  if (buf[off] !== 0 || buf[off + 1] !== 0 || buf[off + 2] !== 1 || buf[off + 3]! < 0xbd) {
    throw new PsError('ps-start-code', `no PES start code at ${off}`);
  }
  const streamId = buf[off + 3]!;
  const len = buf.readUInt16BE(off + 4);
  if (len === 0) throw new PsError('ps-length', `PES of stream 0x${streamId.toString(16)} with length 0`);
  need(buf, off, 6 + len, 'PES packet');
  const end = off + 6 + len;
  if (NO_PES_HEADER.has(streamId))
    return { streamId, pts: null, dts: null, payload: buf.subarray(off + 6, end), length: 6 + len };
  if (len < 3) throw new PsError('ps-length', `PES length ${len} shorter than its header`);
  const f1 = buf[off + 6]!;
  if (f1 >> 6 !== 0b10) throw new PsError('ps-marker', `PES header marker bits ${f1 >> 6}`);
  const ptsDts = buf[off + 7]! >> 6;
  const hdl = buf[off + 8]!;
  const data = off + 9;
  if (data + hdl > end) throw new PsError('ps-length', `PES_header_data_length ${hdl} past the packet`);
  if (ptsDts === 1) throw new PsError('ps-marker', 'PTS_DTS_flags 01 (forbidden)');
  let pts: number | null = null;
  let dts: number | null = null;
  if (ptsDts >= 2) {
    if (hdl < (ptsDts === 3 ? 10 : 5))
      throw new PsError('ps-length', `PES_header_data_length ${hdl} too short for its time stamps`);
    pts = readTimestamp(buf, data);
    if (ptsDts === 3) dts = readTimestamp(buf, data + 5);
  }
  return { streamId, pts, dts, payload: buf.subarray(data + hdl, end), length: 6 + len };
}

/** Without a PSM: an H.265 NAL header has 0 in the top bit of both bytes and temporal id + 1 >= 1. */
function sniffVideo(es: Buffer): PsCodec {
  const nal = splitAnnexB(es.subarray(0, 64))[0];
  if (!nal || nal.length < 2) return 'h264';
  const t = (nal[0]! >> 1) & 0x3f;
  const h265 =
    (nal[0]! & 0x81) === 0 && (nal[1]! & 0xf8) === 0 && (nal[1]! & 7) !== 0 && (t <= 21 || (t >= 32 && t <= 40));
  return h265 ? 'h265' : 'h264';
}

export interface DemuxResult {
  units: AccessUnit[];
  errors: PsError[];
}

export interface DemuxerOptions {
  /** Largest video access unit; a bigger one is dropped with a `ps-too-large` error. */
  maxAccessUnitBytes?: number;
}

interface PendingVideo {
  streamId: number;
  pts: number | null;
  dts: number | null;
  parts: Buffer[];
  bytes: number;
}

/**
 * MPEG-2 program stream demuxer (ISO/IEC 13818-1 2.5). Each push takes whole PS units (as the
 * RTP reassembler gives them: one or more packs). Video PES packets are joined per PTS: a PES with
 * a new PTS starts a new access unit, one without a PTS continues the current one; the last one is
 * held until the next PTS or `flush()`. Each audio PES is one access unit. Malformed input is
 * returned as errors, the video frame being joined is dropped, and the demuxer resumes at the next
 * pack header; it never throws.
 */
export class PsDemuxer {
  /** The last program stream map seen. */
  psm: ProgramStreamMap | null = null;
  private pending: PendingVideo | null = null;
  /** after an oversize unit: PES packets are dropped until one with a PTS */
  private skipping = false;
  private readonly maxAu: number;

  constructor(opts: DemuxerOptions = {}) {
    this.maxAu = opts.maxAccessUnitBytes ?? 8 * 1024 * 1024;
  }

  push(buf: Buffer): DemuxResult {
    const units: AccessUnit[] = [];
    const errors: PsError[] = [];
    let off = 0;
    while (off < buf.length) {
      try {
        off += this.unit(buf, off, units, errors);
      } catch (e) {
        if (!(e instanceof PsError)) throw e;
        errors.push(e);
        // the frame being joined may have lost a part
        if (this.pending) {
          this.pending = null;
          this.skipping = true;
        }
        const next = buf.indexOf(PACK_START, off + 1);
        if (next < 0) break;
        off = next;
      }
    }
    return { units, errors };
  }

  /** The held video access unit, if any. */
  flush(): AccessUnit[] {
    const out: AccessUnit[] = [];
    this.emitVideo(out);
    return out;
  }

  private codecOf(streamId: number): PsCodec | null {
    return this.psm?.streams.find((s) => s.streamId === streamId)?.codec ?? null;
  }

  /** Parses the unit at `off`; its length. */
  private unit(buf: Buffer, off: number, units: AccessUnit[], errors: PsError[]): number {
    need(buf, off, 4, 'start code');
    if (buf[off] !== 0 || buf[off + 1] !== 0 || buf[off + 2] !== 1) {
      throw new PsError('ps-resync', `no start code at ${off}`);
    }
    const code = buf[off + 3]!;
    if (code === START_PACK) return parsePackHeader(buf, off).length;
    if (code === START_SYSTEM) return parseSystemHeader(buf, off).length;
    if (code === START_END) return 4;
    if (code === START_PSM) {
      const psm = parsePsm(buf, off);
      this.psm = psm;
      return psm.length;
    }
    if (code < 0xbd) throw new PsError('ps-resync', `start code 0x000001${code.toString(16)} at ${off}`);
    const pes = parsePes(buf, off);
    if (isVideoStreamId(pes.streamId)) this.video(pes, units, errors);
    else if (isAudioStreamId(pes.streamId) && pes.payload.length) {
      units.push({
        kind: 'audio',
        codec: this.codecOf(pes.streamId) ?? 'unknown',
        streamId: pes.streamId,
        pts: pes.pts,
        dts: pes.dts ?? pes.pts,
        data: Buffer.from(pes.payload),
        keyframe: true,
      });
    }
    return pes.length;
  }

  private video(pes: PesPacket, units: AccessUnit[], errors: PsError[]): void {
    if (this.skipping) {
      if (pes.pts === null) return;
      this.skipping = false;
    }
    const p = this.pending;
    const newUnit = !p || p.streamId !== pes.streamId || (pes.pts !== null && pes.pts !== p.pts);
    if (newUnit) {
      this.emitVideo(units);
      this.pending = { streamId: pes.streamId, pts: pes.pts, dts: pes.dts ?? pes.pts, parts: [], bytes: 0 };
    }
    if (!pes.payload.length) return;
    const cur = this.pending!;
    if (cur.bytes + pes.payload.length > this.maxAu) {
      errors.push(new PsError('ps-too-large', `video access unit over ${this.maxAu} bytes dropped`));
      this.pending = null;
      this.skipping = true;
      return;
    }
    cur.parts.push(pes.payload);
    cur.bytes += pes.payload.length;
  }

  private emitVideo(out: AccessUnit[]): void {
    const p = this.pending;
    this.pending = null;
    if (!p || !p.bytes) return;
    const data = Buffer.concat(p.parts, p.bytes);
    const codec = this.codecOf(p.streamId) ?? sniffVideo(data);
    const keyframe = codec === 'h264' || codec === 'h265' ? isKeyframe(codec, data) : false;
    out.push({ kind: 'video', codec, streamId: p.streamId, pts: p.pts, dts: p.dts, data, keyframe });
  }
}

const PACK_START = Buffer.from([0, 0, 1, START_PACK]);
