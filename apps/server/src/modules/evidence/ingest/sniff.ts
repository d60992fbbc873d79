import { open } from 'node:fs/promises';
import { EVIDENCE_CLASSES, type EvidenceClass } from '@bwc/protocol';

/** Bytes read from the start of a file to tell its real type. */
export const SNIFF_BYTES = 512;

const ascii = (b: Buffer, at: number, text: string) => b.subarray(at, at + text.length).toString('latin1') === text;
const ASF = Buffer.from([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]);
/** QuickTime/ISO-BMFF top-level boxes a file may start with */
const QT_BOXES = ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'];

/**
 * The classes a file's first bytes fit (a small table of magic numbers, no library: only the
 * formats of EVIDENCE_CLASSES matter). ASF and ISO-BMFF hold video or audio; empty when unknown.
 */
export function sniffClasses(b: Buffer): EvidenceClass[] {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return ['image'];
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return ['image'];
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return ['image'];
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'AVI ')) return ['video'];
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return ['audio'];
  if (b.length >= 8 && b.subarray(0, 8).equals(ASF)) return ['video', 'audio'];
  if (b.length >= 8 && QT_BOXES.some((box) => ascii(b, 4, box))) {
    // an ISO-BMFF audio brand (M4A, M4B) is audio; any other is taken as video
    const brand = ascii(b, 4, 'ftyp') ? b.subarray(8, 12).toString('latin1') : '';
    return /^M4[AB] $/.test(brand) ? ['audio'] : ['video', 'audio'];
  }
  // MPEG program stream (pack header) or elementary video stream (sequence header)
  if (b.length >= 4 && b[0] === 0 && b[1] === 0 && b[2] === 1 && (b[3] === 0xba || b[3] === 0xb3)) return ['video'];
  // MPEG transport stream: sync byte every 188 bytes
  if (b.length >= 377 && b[0] === 0x47 && b[188] === 0x47 && b[376] === 0x47) return ['video'];
  if (ascii(b, 0, 'ID3') || ascii(b, 0, 'ADIF')) return ['audio'];
  // MPEG audio frame (mp3) or ADTS (aac): 11 or 12 sync bits
  if (b.length >= 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0) return ['audio'];
  return [];
}

/** The class of a file name's extension, or null when evidence does not take it. */
export function classOfExt(ext: string): EvidenceClass | null {
  for (const [name, c] of Object.entries(EVIDENCE_CLASSES) as [
    EvidenceClass,
    (typeof EVIDENCE_CLASSES)[EvidenceClass],
  ][])
    if ((c.exts as readonly string[]).includes(ext)) return name;
  return null;
}

/** Lower-case extension without the dot ('' when none). */
export function extOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** Whether the file's first bytes are of its extension's class. */
export async function contentFitsClass(file: string, cls: EvidenceClass): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return sniffClasses(buf.subarray(0, bytesRead)).includes(cls);
  } finally {
    await fh.close();
  }
}

export const MIME_BY_EXT: Record<string, string> = {
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mpg: 'video/mpeg',
  wmv: 'video/x-ms-wmv',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  wma: 'audio/x-ms-wma',
  aac: 'audio/aac',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};
