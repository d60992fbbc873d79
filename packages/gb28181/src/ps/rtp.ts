import { PsError } from './errors.js';

/** GB28181-2016 Appendix C: PS over RTP uses dynamic payload type 96. */
export const RTP_PT_PS = 96;

/** One RTP packet (RFC 3550 section 5.1). `payload` is a view into the input, padding removed. */
export interface RtpPacket {
  version: 2;
  padding: boolean;
  marker: boolean;
  payloadType: number;
  sequence: number;
  timestamp: number;
  ssrc: number;
  csrc: number[];
  /** header extension (section 5.3.1), when the X bit is set */
  extension: { profile: number; data: Buffer } | null;
  payload: Buffer;
}

/** Parse one RTP packet; throws PsError on anything that does not fit the layout. */
export function parseRtp(buf: Buffer): RtpPacket {
  if (buf.length < 12) throw new PsError('rtp-truncated', `${buf.length} bytes, header needs 12`);
  const b0 = buf[0]!;
  const b1 = buf[1]!;
  const version = b0 >> 6;
  if (version !== 2) throw new PsError('rtp-version', `version ${version}`);
  const padding = (b0 & 0x20) !== 0;
  const hasExtension = (b0 & 0x10) !== 0;
  const cc = b0 & 0x0f;
  let off = 12;
  if (buf.length < off + cc * 4) throw new PsError('rtp-truncated', `${cc} CSRC past the end`);
  const csrc: number[] = [];
  for (let i = 0; i < cc; i++, off += 4) csrc.push(buf.readUInt32BE(off));
  let extension: RtpPacket['extension'] = null;
  if (hasExtension) {
    if (buf.length < off + 4) throw new PsError('rtp-truncated', 'extension header past the end');
    const profile = buf.readUInt16BE(off);
    const words = buf.readUInt16BE(off + 2);
    off += 4;
    if (buf.length < off + words * 4) throw new PsError('rtp-truncated', `extension of ${words} words past the end`);
    extension = { profile, data: buf.subarray(off, off + words * 4) };
    off += words * 4;
  }
  let end = buf.length;
  if (padding) {
    const pad = buf[buf.length - 1]!;
    if (pad === 0 || pad > end - off)
      throw new PsError('rtp-padding', `padding ${pad} with ${end - off} bytes after the header`);
    end -= pad;
  }
  return {
    version: 2,
    padding,
    marker: (b1 & 0x80) !== 0,
    payloadType: b1 & 0x7f,
    sequence: buf.readUInt16BE(2),
    timestamp: buf.readUInt32BE(4),
    ssrc: buf.readUInt32BE(8),
    csrc,
    extension,
    payload: buf.subarray(off, end),
  };
}

export interface RtpHeaderFields {
  marker: boolean;
  payloadType: number;
  sequence: number;
  timestamp: number;
  ssrc: number;
}

/** A plain RTP packet: 12-byte header, no CSRC, extension or padding. */
export function buildRtp(h: RtpHeaderFields, payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + payload.length);
  out[0] = 0x80;
  out[1] = (h.marker ? 0x80 : 0) | (h.payloadType & 0x7f);
  out.writeUInt16BE(h.sequence & 0xffff, 2);
  out.writeUInt32BE(h.timestamp >>> 0, 4);
  out.writeUInt32BE(h.ssrc >>> 0, 8);
  payload.copy(out, 12);
  return out;
}

/** RFC 4571 framing: the packet with its 16-bit big-endian length in front. */
export function frameRtpTcp(packet: Buffer): Buffer {
  if (packet.length === 0 || packet.length > 0xffff) {
    throw new PsError('rtp-too-long', `${packet.length} bytes cannot be framed`);
  }
  const out = Buffer.allocUnsafe(2 + packet.length);
  out.writeUInt16BE(packet.length, 0);
  packet.copy(out, 2);
  return out;
}

/**
 * Splits a TCP byte stream of RFC 4571 frames into packets, across chunk boundaries. A length of 0
 * or over `maxPacket` loses the framing for good: push throws PsError and so does every later push
 * (the connection should be closed).
 */
export class RtpTcpFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private failed: PsError | null = null;

  constructor(private readonly maxPacket = 0xffff) {}

  /** Complete packets of this chunk (and the bytes held before it). */
  push(chunk: Buffer): Buffer[] {
    if (this.failed) throw this.failed;
    if (chunk.length) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
    }
    // joined only once a packet is complete: a packet in many small chunks is copied once
    if (this.pendingBytes < 2 || this.pendingBytes < 2 + this.check(this.peekLength())) return [];
    const buf = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    const out: Buffer[] = [];
    let off = 0;
    while (buf.length - off >= 2) {
      const len = this.check(buf.readUInt16BE(off));
      if (buf.length - off - 2 < len) break;
      // a copy, so that a held packet does not pin the whole chunk
      out.push(Buffer.from(buf.subarray(off + 2, off + 2 + len)));
      off += 2 + len;
    }
    const rest = buf.subarray(off);
    this.pending = rest.length ? [rest] : [];
    this.pendingBytes = rest.length;
    return out;
  }

  private peekLength(): number {
    const first = this.pending[0]!;
    return first.length >= 2 ? first.readUInt16BE(0) : (first[0]! << 8) | this.pending[1]![0]!;
  }

  private check(len: number): number {
    if (len === 0 || len > this.maxPacket) {
      this.failed = new PsError(
        len === 0 ? 'rtp-empty' : 'rtp-too-long',
        `framed length ${len}, limit ${this.maxPacket}`,
      );
      this.pending = [];
      this.pendingBytes = 0;
      throw this.failed;
    }
    return len;
  }

  /** Bytes of an unfinished frame held for the next chunk. */
  get buffered(): number {
    return this.pendingBytes;
  }
}
