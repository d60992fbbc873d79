/** Annex-B byte streams (H.264 Annex B, H.265 Annex B): start codes, NAL types, keyframes. */

export type VideoCodec = 'h264' | 'h265';

/** NAL units of an Annex-B buffer, start codes removed (views into `es`). */
export function splitAnnexB(es: Buffer): Buffer[] {
  const starts: { at: number; len: number }[] = [];
  for (let i = 0; i + 2 < es.length; i++) {
    if (es[i] === 0 && es[i + 1] === 0 && es[i + 2] === 1) {
      const four = i > 0 && es[i - 1] === 0;
      starts.push({ at: four ? i - 1 : i, len: four ? 4 : 3 });
      i += 2;
    }
  }
  const out: Buffer[] = [];
  for (let k = 0; k < starts.length; k++) {
    const begin = starts[k]!.at + starts[k]!.len;
    const end = k + 1 < starts.length ? starts[k + 1]!.at : es.length;
    if (end > begin) out.push(es.subarray(begin, end));
  }
  return out;
}

export const h264NalType = (nal: Buffer): number => (nal[0] ?? 0) & 0x1f;
export const h265NalType = (nal: Buffer): number => ((nal[0] ?? 0) >> 1) & 0x3f;

/** H.264: an IDR slice (5) or SPS (7); H.265: an IRAP picture (16-21) or VPS (32). */
export function isKeyframe(codec: VideoCodec, es: Buffer): boolean {
  for (const nal of splitAnnexB(es)) {
    if (codec === 'h264') {
      const t = h264NalType(nal);
      if (t === 5 || t === 7) return true;
    } else {
      const t = h265NalType(nal);
      if ((t >= 16 && t <= 21) || t === 32) return true;
    }
  }
  return false;
}

/**
 * Splits an H.264 Annex-B stream into access units (ITU-T H.264 7.4.1.2.3): a new one starts at
 * an AUD, SPS, PPS, SEI or types 14-18 after a slice, or at a slice whose first_mb_in_slice is 0
 * (ue(v) 0 is a single 1 bit) after a slice. Enough for streams of one slice group without
 * redundant pictures, as encoders make them.
 */
export function splitH264AccessUnits(es: Buffer): Buffer[] {
  const nals: { at: number; type: number; firstMb0: boolean }[] = [];
  for (let i = 0; i + 3 < es.length; i++) {
    if (es[i] === 0 && es[i + 1] === 0 && es[i + 2] === 1) {
      const at = i > 0 && es[i - 1] === 0 ? i - 1 : i;
      nals.push({ at, type: es[i + 3]! & 0x1f, firstMb0: ((es[i + 4] ?? 0) & 0x80) !== 0 });
      i += 2;
    }
  }
  const out: Buffer[] = [];
  let auStart = -1;
  let sawSlice = false;
  for (const n of nals) {
    const slice = n.type === 1 || n.type === 5;
    const boundary =
      auStart < 0 ||
      (sawSlice && (n.type === 9 || n.type === 7 || n.type === 8 || n.type === 6 || (n.type >= 14 && n.type <= 18))) ||
      (sawSlice && slice && n.firstMb0);
    if (boundary) {
      if (auStart >= 0) out.push(es.subarray(auStart, n.at));
      auStart = n.at;
      sawSlice = false;
    }
    if (slice) sawSlice = true;
  }
  if (auStart >= 0) out.push(es.subarray(auStart));
  return out;
}
