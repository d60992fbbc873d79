/**
 * Opus in Ogg (RFC 3533 pages, RFC 7845 Opus mapping): the recorded bursts and the files the
 * simulator and the tests make. Plain Uint8Array, so it runs in Node and in browsers alike.
 *
 * Granule positions count 48 kHz samples from the start of the stream, pre-skip included: the
 * playable length is the last page's granule less the pre-skip. A page's granule is the position
 * at the end of the last packet that ends on it.
 */

export interface OpusHead {
  version: number;
  channels: number;
  /** samples (48 kHz) the decoder drops at the start */
  preSkip: number;
  /** the sample rate of the source, informative only */
  inputSampleRate: number;
  /** Q7.8 dB */
  outputGain: number;
  mappingFamily: number;
}

export interface OggOpusWriterOptions {
  /** the logical stream's serial number (uint32) */
  serial: number;
  /** samples (48 kHz) to drop at the start; libopus's encoder delay is 312 at 48 kHz */
  preSkip?: number;
  channels?: 1 | 2;
  /** the encoder named in OpusTags */
  vendor?: string;
}

export interface OggOpusStream {
  head: OpusHead;
  packets: Uint8Array[];
  /** the granule position of the last page (-1 when no page ended a packet) */
  granule: number;
}

const OGG_PAGE_HEADER_BYTES = 27;
const MAX_SEGMENTS = 255;
const FLAG_CONTINUED = 0x01;
const FLAG_BOS = 0x02;
const FLAG_EOS = 0x04;
const SAMPLES_PER_SECOND = 48_000;
/** A page is closed once it holds this many samples (the recommended at most one second per page). */
const PAGE_SAMPLES = SAMPLES_PER_SECOND;
/** The longest Opus packet, 120 ms of 2.5 ms frames at most 1275 bytes each: it always fits in one page. */
const OPUS_PACKET_MAX_BYTES = 48 * 1275;
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const CAPTURE = ascii('OggS');
const OPUS_HEAD = ascii('OpusHead');
const OPUS_TAGS = ascii('OpusTags');

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32: polynomial 0x04c11db7, not reflected, initial value and final xor 0. */
export function oggCrc32(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ bytes[i]!) & 0xff]!) >>> 0;
  return crc;
}

function startsWith(bytes: Uint8Array, magic: Uint8Array): boolean {
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The lacing values of one packet: 255 for every full segment, then the remainder (0 when it divides). */
function lacing(size: number): number[] {
  return [...Array<number>(Math.floor(size / 255)).fill(255), size % 255];
}

/**
 * An Ogg Opus stream written as the packets come: `header()` first, then `packet()` per Opus
 * packet, `end()` last; each returns the bytes of the pages it completed, to append to the file.
 * A page closes when it holds a second of audio or 255 segments, and the last packet always stays
 * back until the next one (or `end()`), so that the last page, which carries the end-of-stream
 * flag, is never empty.
 */
export class OggOpusWriter {
  private readonly serial: number;
  private readonly preSkip: number;
  private readonly channels: number;
  private readonly vendor: string;
  private sequence = 0;
  private granule = 0;
  private pending: Uint8Array[] = [];
  private pendingSegments = 0;
  private pendingSamples = 0;
  private ended = false;

  constructor(options: OggOpusWriterOptions) {
    this.serial = options.serial >>> 0;
    this.preSkip = options.preSkip ?? 312;
    this.channels = options.channels ?? 1;
    this.vendor = options.vendor ?? 'bwc';
  }

  /** The identification page (OpusHead, beginning of stream) and the comment page (OpusTags). */
  header(): Uint8Array {
    const head = new Uint8Array(19);
    head.set(OPUS_HEAD);
    const view = new DataView(head.buffer);
    view.setUint8(8, 1);
    view.setUint8(9, this.channels);
    view.setUint16(10, this.preSkip, true);
    view.setUint32(12, SAMPLES_PER_SECOND, true);
    view.setInt16(16, 0, true);
    view.setUint8(18, 0);

    const vendor = new TextEncoder().encode(this.vendor);
    const tags = new Uint8Array(8 + 4 + vendor.length + 4);
    tags.set(OPUS_TAGS);
    new DataView(tags.buffer).setUint32(8, vendor.length, true);
    tags.set(vendor, 12);
    // the user comment count after the vendor stays 0

    return concat([this.page([head], FLAG_BOS, 0), this.page([tags], 0, 0)]);
  }

  /** Add one Opus packet of `samples` 48 kHz samples (960 = 20 ms); the bytes of a page it closed, if any. */
  packet(opus: Uint8Array, samples = 960): Uint8Array {
    if (this.ended) throw new Error('OggOpusWriter: packet after end');
    if (opus.length > OPUS_PACKET_MAX_BYTES) throw new RangeError(`Opus packet of ${opus.length} bytes`);
    const segments = lacing(opus.length).length;
    const full = this.pendingSamples >= PAGE_SAMPLES || this.pendingSegments + segments > MAX_SEGMENTS;
    const out = full ? this.flush(0) : new Uint8Array(0);
    this.pending.push(opus);
    this.pendingSegments += segments;
    this.pendingSamples += samples;
    return out;
  }

  /**
   * The last page, flagged end of stream. `trimSamples` drops that many samples from the end of
   * the last packet (RFC 7845 end trimming), so that the stream lasts exactly what was captured.
   */
  end(trimSamples = 0): Uint8Array {
    if (this.ended) throw new Error('OggOpusWriter: ended twice');
    this.ended = true;
    this.pendingSamples -= trimSamples;
    return this.flush(FLAG_EOS);
  }

  private flush(flags: number): Uint8Array {
    this.granule += this.pendingSamples;
    const page = this.page(this.pending, flags, this.granule);
    this.pending = [];
    this.pendingSegments = 0;
    this.pendingSamples = 0;
    return page;
  }

  /** One page of whole packets. */
  private page(packets: Uint8Array[], flags: number, granule: number): Uint8Array {
    const table = packets.flatMap((p) => lacing(p.length));
    const body = concat(packets);
    const out = new Uint8Array(OGG_PAGE_HEADER_BYTES + table.length + body.length);
    const view = new DataView(out.buffer);
    out.set(CAPTURE);
    view.setUint8(4, 0);
    view.setUint8(5, flags);
    view.setUint32(6, granule % 2 ** 32, true);
    view.setUint32(10, Math.floor(granule / 2 ** 32), true);
    view.setUint32(14, this.serial, true);
    view.setUint32(18, this.sequence++, true);
    view.setUint8(26, table.length);
    out.set(table, OGG_PAGE_HEADER_BYTES);
    out.set(body, OGG_PAGE_HEADER_BYTES + table.length);
    view.setUint32(22, oggCrc32(out), true);
    return out;
  }
}

/** Frame lengths of the 32 TOC configurations (RFC 6716 section 3.1), in 48 kHz samples. */
const TOC_FRAME_SAMPLES = [
  ...[480, 960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 1920, 2880], // SILK: 10, 20, 40, 60 ms
  ...[480, 960, 480, 960], // hybrid: 10, 20 ms
  ...[120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960], // CELT: 2.5, 5, 10, 20 ms
];

/** How many 48 kHz samples an Opus packet decodes to, from its TOC byte (0 for an empty packet). */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code < 3 ? 2 : (packet[1] ?? 0) & 0x3f;
  return TOC_FRAME_SAMPLES[toc >> 3]! * frames;
}

function readHead(packet: Uint8Array): OpusHead {
  if (!startsWith(packet, OPUS_HEAD) || packet.length < 19) throw new Error('Ogg Opus: no OpusHead');
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  return {
    version: view.getUint8(8),
    channels: view.getUint8(9),
    preSkip: view.getUint16(10, true),
    inputSampleRate: view.getUint32(12, true),
    outputGain: view.getInt16(16, true),
    mappingFamily: view.getUint8(18),
  };
}

/**
 * The Opus packets of an Ogg Opus file (its first logical stream), in order, packets spanning
 * pages joined. Throws on a broken page (capture pattern, CRC, truncation) or a missing OpusHead.
 */
export function readOggOpusPackets(bytes: Uint8Array): OggOpusStream {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const packets: Uint8Array[] = [];
  let serial: number | null = null;
  let granule = -1;
  let partial: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    if (at + OGG_PAGE_HEADER_BYTES > bytes.length || !startsWith(bytes.subarray(at), CAPTURE))
      throw new Error(`Ogg: no page at byte ${at}`);
    const count = view.getUint8(at + 26);
    const table = bytes.subarray(at + OGG_PAGE_HEADER_BYTES, at + OGG_PAGE_HEADER_BYTES + count);
    const bodyAt = at + OGG_PAGE_HEADER_BYTES + count;
    const end = bodyAt + table.reduce((n, v) => n + v, 0);
    if (table.length < count || end > bytes.length) throw new Error(`Ogg: page at byte ${at} is cut short`);
    const page = bytes.slice(at, end);
    const stored = view.getUint32(at + 22, true);
    new DataView(page.buffer).setUint32(22, 0, true);
    if (oggCrc32(page) !== stored) throw new Error(`Ogg: bad CRC in the page at byte ${at}`);

    const pageSerial = view.getUint32(at + 14, true);
    serial ??= pageSerial;
    if (pageSerial === serial) {
      // a page that does not continue a packet starts a new one, whatever the last page left open
      if (!(view.getUint8(at + 5) & FLAG_CONTINUED)) partial = [];
      let from = bodyAt;
      for (const size of table) {
        partial.push(bytes.subarray(from, from + size));
        from += size;
        if (size < 255) {
          packets.push(concat(partial));
          partial = [];
        }
      }
      const low = view.getUint32(at + 6, true);
      const high = view.getInt32(at + 10, true);
      if (!(low === 0xffffffff && high === -1)) granule = high * 2 ** 32 + low;
    }
    at = end;
  }
  const [head, tags, ...audio] = packets;
  const opusHead = readHead(head ?? new Uint8Array(0));
  if (!tags || !startsWith(tags, OPUS_TAGS)) throw new Error('Ogg Opus: no OpusTags');
  return { head: opusHead, packets: audio, granule };
}
