import type { RtpPacket } from './rtp.js';

/** The payloads of one RTP timestamp, in sequence order: one or more whole PS packs. */
export interface RtpFrame {
  ssrc: number;
  timestamp: number;
  firstSequence: number;
  lastSequence: number;
  data: Buffer;
}

/** Sequence numbers that never came; the frame(s) they belonged to were dropped. */
export interface RtpGap {
  /** first missing sequence number */
  from: number;
  count: number;
}

export type ReassemblyEvent = { type: 'frame'; frame: RtpFrame } | { type: 'gap'; gap: RtpGap };

export interface ReassemblerOptions {
  /** Only this SSRC; by default the first one seen. */
  ssrc?: number;
  /** Packets held while waiting for a missing one before it is given up. */
  reorderWindow?: number;
  /** Largest frame; a bigger one is dropped (counted in `stats.oversize`). */
  maxFrameBytes?: number;
  /** Whether a payload begins a frame; by default: it starts with a PS pack header (00 00 01 BA). */
  isFrameStart?: (payload: Buffer) => boolean;
}

const startsWithPackHeader = (b: Buffer): boolean =>
  b.length >= 4 && b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0xba;

/** Signed distance a - b in 16-bit sequence space. */
function seqDiff(a: number, b: number): number {
  const d = (a - b) & 0xffff;
  return d >= 0x8000 ? d - 0x10000 : d;
}

/**
 * Puts the RTP packets of one SSRC back in sequence order (holding up to `reorderWindow` packets)
 * and joins payloads into frames: a frame ends at its marker bit or where the timestamp changes.
 * A missing packet is reported as a gap and every packet that may belong to its frame is dropped
 * until a frame boundary is certain (a marker, a timestamp change, or a new timestamp whose first
 * payload starts with a pack header): a broken frame is never glued.
 */
export class RtpReassembler {
  readonly stats = { packets: 0, late: 0, duplicate: 0, otherSsrc: 0, oversize: 0, framesDropped: 0 };
  private ssrc: number | undefined;
  private readonly window: number;
  private readonly maxFrameBytes: number;
  private readonly isFrameStart: (payload: Buffer) => boolean;
  private expected: number | null = null;
  /** a packet was taken in order */
  private started = false;
  private held = new Map<number, RtpPacket>();
  /** frame being joined */
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private ts = 0;
  private firstSeq = 0;
  private lastSeq = 0;
  /** after a gap: packets of this timestamp are dropped; null when in sync */
  private dropTs: number | null = null;
  /** at the start and after a gap, before the next packet: it must begin a frame to be taken */
  private lostSync = true;

  constructor(opts: ReassemblerOptions = {}) {
    this.ssrc = opts.ssrc;
    this.window = Math.max(0, opts.reorderWindow ?? 16);
    this.maxFrameBytes = opts.maxFrameBytes ?? 8 * 1024 * 1024;
    this.isFrameStart = opts.isFrameStart ?? startsWithPackHeader;
  }

  push(p: RtpPacket): ReassemblyEvent[] {
    const out: ReassemblyEvent[] = [];
    this.ssrc ??= p.ssrc;
    if (p.ssrc !== this.ssrc) {
      this.stats.otherSsrc++;
      return out;
    }
    this.stats.packets++;
    if (this.expected === null) this.expected = p.sequence;
    if (this.started && seqDiff(p.sequence, this.expected) < 0) {
      this.stats.late++;
      return out;
    }
    if (this.held.has(p.sequence)) {
      this.stats.duplicate++;
      return out;
    }
    this.held.set(p.sequence, p);
    if (!this.started) {
      // the first packets may come out of order too: a few are held to find the lowest number
      if (this.held.size < Math.max(1, Math.min(this.window, 8))) return out;
      this.begin();
    }
    this.drain(out);
    while (this.held.size > this.window) {
      this.skipToHeld(out);
      this.drain(out);
    }
    return out;
  }

  /** End of stream: whatever is held is taken (gaps reported) and a complete last frame emitted. */
  flush(): ReassemblyEvent[] {
    const out: ReassemblyEvent[] = [];
    if (!this.started && this.held.size) this.begin();
    this.drain(out);
    while (this.held.size > 0) {
      this.skipToHeld(out);
      this.drain(out);
    }
    if (this.parts.length && this.dropTs === null) this.emit(out);
    this.parts = [];
    this.partsBytes = 0;
    return out;
  }

  private begin(): void {
    const first = this.expected!;
    let lowest = 0;
    for (const s of this.held.keys()) lowest = Math.min(lowest, seqDiff(s, first));
    this.expected = (first + lowest) & 0xffff;
    this.started = true;
  }

  private drain(out: ReassemblyEvent[]): void {
    while (this.expected !== null) {
      const p = this.held.get(this.expected);
      if (!p) return;
      this.held.delete(this.expected);
      this.expected = (this.expected + 1) & 0xffff;
      this.take(p, out);
    }
  }

  /** The expected packet is given up: report the run of missing numbers up to the nearest held one. */
  private skipToHeld(out: ReassemblyEvent[]): void {
    if (this.expected === null) return;
    let nearest = Infinity;
    for (const s of this.held.keys()) {
      const d = seqDiff(s, this.expected);
      // behind the expected number (held numbers spread over more than half the space): late
      if (d <= 0) {
        this.held.delete(s);
        this.stats.late++;
      } else nearest = Math.min(nearest, d);
    }
    if (nearest === Infinity) return;
    out.push({ type: 'gap', gap: { from: this.expected, count: nearest } });
    this.expected = (this.expected + nearest) & 0xffff;
    // the frame being joined lost its tail, or the next packets lost their head
    if (this.parts.length) this.stats.framesDropped++;
    this.dropTs = this.parts.length ? this.ts : null;
    this.parts = [];
    this.partsBytes = 0;
    this.lostSync = true;
  }

  private take(p: RtpPacket, out: ReassemblyEvent[]): void {
    if (this.lostSync) {
      // the first packet past a gap: a new frame if its timestamp is new and it starts one (a pack
      // header); else its frame may have lost its head and is dropped
      this.lostSync = false;
      if (p.timestamp !== this.dropTs && this.isFrameStart(p.payload)) this.dropTs = null;
      else {
        if (p.timestamp !== this.dropTs) this.stats.framesDropped++;
        this.dropTs = p.timestamp;
      }
    }
    if (this.dropTs !== null) {
      if (p.timestamp === this.dropTs) {
        if (p.marker) this.dropTs = null;
        return;
      }
      this.dropTs = null;
    }
    if (this.parts.length && p.timestamp !== this.ts) this.emit(out);
    if (!this.parts.length) {
      this.ts = p.timestamp;
      this.firstSeq = p.sequence;
    }
    this.lastSeq = p.sequence;
    if (this.partsBytes + p.payload.length > this.maxFrameBytes) {
      this.stats.oversize++;
      this.stats.framesDropped++;
      this.parts = [];
      this.partsBytes = 0;
      this.dropTs = p.marker ? null : p.timestamp;
      return;
    }
    this.parts.push(p.payload);
    this.partsBytes += p.payload.length;
    if (p.marker) this.emit(out);
  }

  private emit(out: ReassemblyEvent[]): void {
    const data = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partsBytes);
    out.push({
      type: 'frame',
      frame: { ssrc: this.ssrc!, timestamp: this.ts, firstSequence: this.firstSeq, lastSequence: this.lastSeq, data },
    });
    this.parts = [];
    this.partsBytes = 0;
  }
}
