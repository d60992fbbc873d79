import { MediaError } from './h26x';

/** One AAC frame of an ADTS stream (ISO/IEC 13818-7 6.2, 14496-3 1.A.2). */
export interface AdtsFrame {
  /** audioObjectType (profile + 1) */
  objectType: number;
  frequencyIndex: number;
  sampleRate: number;
  channels: number;
  /** the raw AAC frame, a view into the input */
  raw: Buffer;
  /** header + raw */
  length: number;
}

export const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** The ADTS frame at `off`; throws MediaError when the header is wrong or the frame is cut. */
export function parseAdts(buf: Buffer, off = 0): AdtsFrame {
  if (buf.length - off < 7) throw new MediaError('adts-truncated', `${buf.length - off} bytes, header needs 7`);
  if (buf[off] !== 0xff || (buf[off + 1]! & 0xf6) !== 0xf0)
    throw new MediaError('adts-invalid', `no syncword at ${off}`);
  const protectionAbsent = buf[off + 1]! & 1;
  const objectType = (buf[off + 2]! >> 6) + 1;
  const frequencyIndex = (buf[off + 2]! >> 2) & 0xf;
  const channels = ((buf[off + 2]! & 1) << 2) | (buf[off + 3]! >> 6);
  const length = ((buf[off + 3]! & 3) << 11) | (buf[off + 4]! << 3) | (buf[off + 5]! >> 5);
  const header = protectionAbsent ? 7 : 9;
  const sampleRate = AAC_RATES[frequencyIndex];
  if (sampleRate === undefined) throw new MediaError('adts-invalid', `sampling_frequency_index ${frequencyIndex}`);
  if (length <= header) throw new MediaError('adts-invalid', `frame_length ${length}`);
  if (buf.length - off < length)
    throw new MediaError('adts-truncated', `frame of ${length} bytes cut at ${buf.length - off}`);
  return { objectType, frequencyIndex, sampleRate, channels, raw: buf.subarray(off + header, off + length), length };
}

/** AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1) of an ADTS frame: 2 bytes. */
export function audioSpecificConfig(f: AdtsFrame): Buffer {
  return Buffer.from([
    (f.objectType << 3) | (f.frequencyIndex >> 1),
    ((f.frequencyIndex & 1) << 7) | (f.channels << 3),
  ]);
}

/** Splits an ADTS byte stream that comes in arbitrary chunks (ffmpeg's stdout) into frames. */
export class AdtsSplitter {
  private pending: Buffer = Buffer.alloc(0);

  /** Complete frames; bytes that are not ADTS are skipped to the next syncword (counted in `skipped`). */
  push(chunk: Buffer): AdtsFrame[] {
    const buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const out: AdtsFrame[] = [];
    let off = 0;
    while (off < buf.length) {
      try {
        const f = parseAdts(buf, off);
        out.push(f);
        off += f.length;
      } catch (e) {
        if (!(e instanceof MediaError) || e.code === 'adts-truncated') break;
        const next = buf.indexOf(0xff, off + 1);
        this.skipped += (next < 0 ? buf.length : next) - off;
        off = next < 0 ? buf.length : next;
      }
    }
    this.pending = Buffer.from(buf.subarray(off));
    return out;
  }

  skipped = 0;
}
