/**
 * H.264 / H.265 parameter sets: just enough of the SPS to build the decoder configuration records
 * FLV carries (ISO/IEC 14496-15 5.3.3.1 AVCDecoderConfigurationRecord, 8.3.3.1
 * HEVCDecoderConfigurationRecord) and to name the picture size.
 */

export type MediaErrorCode = 'sps-truncated' | 'sps-invalid' | 'adts-invalid' | 'adts-truncated';

/** Bad bytes in a parameter set or audio header; everything here throws only this. */
export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'MediaError';
  }
}

/** Largest parameter set taken (they are tens of bytes; a bigger one is not a parameter set). */
const MAX_PARAMETER_SET = 4096;

/** RBSP of a NAL unit: emulation prevention bytes (00 00 03) removed (H.264 7.4.1, H.265 7.4.2). */
export function unescapeRbsp(nal: Buffer): Buffer {
  if (nal.length > MAX_PARAMETER_SET) throw new MediaError('sps-invalid', `${nal.length} bytes`);
  const out = Buffer.allocUnsafe(nal.length);
  let n = 0;
  let zeros = 0;
  for (const b of nal) {
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    zeros = b === 0 ? zeros + 1 : 0;
    out[n++] = b;
  }
  return out.subarray(0, n);
}

/** Exp-Golomb bit reader (H.264 9.1) over an RBSP. */
class Bits {
  private pos = 0;

  constructor(private readonly buf: Buffer) {}

  bit(): number {
    if (this.pos >= this.buf.length * 8) throw new MediaError('sps-truncated', 'parameter set ends early');
    const v = (this.buf[this.pos >> 3]! >> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return v;
  }

  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }

  skip(n: number): void {
    if (this.pos + n > this.buf.length * 8) throw new MediaError('sps-truncated', 'parameter set ends early');
    this.pos += n;
  }

  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) {
      if (++zeros > 31) throw new MediaError('sps-invalid', 'Exp-Golomb code over 32 bits');
    }
    return 2 ** zeros - 1 + this.bits(zeros);
  }

  se(): number {
    const k = this.ue();
    return k % 2 ? (k + 1) / 2 : -k / 2;
  }
}

export interface H264Sps {
  profile: number;
  constraints: number;
  level: number;
  chromaFormat: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
  width: number;
  height: number;
}

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** H.264 7.3.2.1.1 seq_parameter_set_data, from the NAL unit (header byte included). */
export function parseH264Sps(nal: Buffer): H264Sps {
  if (nal.length < 4 || (nal[0]! & 0x1f) !== 7) throw new MediaError('sps-invalid', 'not an H.264 SPS');
  const r = new Bits(unescapeRbsp(nal).subarray(1));
  const profile = r.bits(8);
  const constraints = r.bits(8);
  const level = r.bits(8);
  r.ue(); // seq_parameter_set_id
  let chromaFormat = 1;
  let bitDepthLuma = 8;
  let bitDepthChroma = 8;
  if (HIGH_PROFILES.has(profile)) {
    chromaFormat = r.ue();
    if (chromaFormat > 3) throw new MediaError('sps-invalid', `chroma_format_idc ${chromaFormat}`);
    if (chromaFormat === 3) r.skip(1);
    bitDepthLuma = 8 + r.ue();
    bitDepthChroma = 8 + r.ue();
    r.skip(1); // qpprime_y_zero_transform_bypass_flag
    if (r.bit()) {
      for (let i = 0; i < (chromaFormat === 3 ? 12 : 8); i++) {
        if (!r.bit()) continue;
        // scaling_list(): delta_scale until next_scale is 0
        let last = 8;
        let next = 8;
        for (let j = 0; j < (i < 6 ? 16 : 64) && next !== 0; j++) {
          next = (last + r.se() + 256) % 256;
          if (next !== 0) last = next;
        }
      }
    }
  }
  r.ue(); // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType === 0) r.ue();
  else if (pocType === 1) {
    r.skip(1);
    r.se();
    r.se();
    const n = r.ue();
    if (n > 255) throw new MediaError('sps-invalid', `${n} ref frames in POC cycle`);
    for (let i = 0; i < n; i++) r.se();
  }
  r.ue(); // max_num_ref_frames
  r.skip(1);
  const widthMbs = r.ue() + 1;
  const heightUnits = r.ue() + 1;
  const frameMbsOnly = r.bit();
  if (!frameMbsOnly) r.skip(1);
  r.skip(1); // direct_8x8_inference_flag
  let crop = [0, 0, 0, 0];
  if (r.bit()) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
  const subW = chromaFormat === 1 || chromaFormat === 2 ? 2 : 1;
  const subH = chromaFormat === 1 ? 2 : 1;
  const cropX = chromaFormat === 0 ? 1 : subW;
  const cropY = (chromaFormat === 0 ? 1 : subH) * (2 - frameMbsOnly);
  const width = widthMbs * 16 - cropX * (crop[0]! + crop[1]!);
  const height = (2 - frameMbsOnly) * heightUnits * 16 - cropY * (crop[2]! + crop[3]!);
  if (width <= 0 || height <= 0) throw new MediaError('sps-invalid', `picture ${width}x${height}`);
  return { profile, constraints, level, chromaFormat, bitDepthLuma, bitDepthChroma, width, height };
}

/** AVCDecoderConfigurationRecord (ISO/IEC 14496-15 5.3.3.1), NAL lengths in 4 bytes. */
export function avcDecoderConfigurationRecord(sps: Buffer[], pps: Buffer[]): Buffer {
  const info = parseH264Sps(sps[0]!);
  const parts: Buffer[] = [Buffer.from([1, info.profile, info.constraints, info.level, 0xff, 0xe0 | sps.length])];
  for (const s of sps) parts.push(u16(s.length), s);
  parts.push(Buffer.from([pps.length]));
  for (const p of pps) parts.push(u16(p.length), p);
  if (HIGH_PROFILES.has(info.profile)) {
    parts.push(
      Buffer.from([0xfc | info.chromaFormat, 0xf8 | (info.bitDepthLuma - 8), 0xf8 | (info.bitDepthChroma - 8), 0]),
    );
  }
  return Buffer.concat(parts);
}

export interface H265Sps {
  /** general_profile_space(2) tier(1) profile_idc(5) */
  profileByte: number;
  profile: number;
  tier: number;
  compatibility: number;
  /** general constraint indicator flags, 48 bits */
  constraints: Buffer;
  level: number;
  maxSubLayers: number;
  temporalIdNested: number;
  chromaFormat: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
  width: number;
  height: number;
}

/** H.265 7.3.2.2 seq_parameter_set_rbsp up to the bit depths, from the NAL unit (2 header bytes). */
export function parseH265Sps(nal: Buffer): H265Sps {
  if (nal.length < 16 || ((nal[0]! >> 1) & 0x3f) !== 33) throw new MediaError('sps-invalid', 'not an H.265 SPS');
  const rbsp = unescapeRbsp(nal).subarray(2);
  const r = new Bits(rbsp);
  r.skip(4); // sps_video_parameter_set_id
  const maxSubLayers = r.bits(3) + 1;
  const temporalIdNested = r.bit();
  // profile_tier_level(1, maxSubLayers - 1): the 12 general bytes start at byte 1
  if (rbsp.length < 13) throw new MediaError('sps-truncated', 'profile_tier_level ends early');
  const profileByte = rbsp[1]!;
  const compatibility = rbsp.readUInt32BE(2);
  const constraints = Buffer.from(rbsp.subarray(6, 12));
  const level = rbsp[12]!;
  r.skip(96);
  const subProfile: number[] = [];
  const subLevel: number[] = [];
  for (let i = 0; i < maxSubLayers - 1; i++) {
    subProfile.push(r.bit());
    subLevel.push(r.bit());
  }
  if (maxSubLayers > 1) for (let i = maxSubLayers - 1; i < 8; i++) r.skip(2);
  for (let i = 0; i < maxSubLayers - 1; i++) {
    if (subProfile[i]) r.skip(88);
    if (subLevel[i]) r.skip(8);
  }
  r.ue(); // sps_seq_parameter_set_id
  const chromaFormat = r.ue();
  if (chromaFormat > 3) throw new MediaError('sps-invalid', `chroma_format_idc ${chromaFormat}`);
  if (chromaFormat === 3) r.skip(1);
  let width = r.ue();
  let height = r.ue();
  if (r.bit()) {
    const subW = chromaFormat === 1 || chromaFormat === 2 ? 2 : 1;
    const subH = chromaFormat === 1 ? 2 : 1;
    width -= subW * (r.ue() + r.ue());
    height -= subH * (r.ue() + r.ue());
  }
  const bitDepthLuma = 8 + r.ue();
  const bitDepthChroma = 8 + r.ue();
  if (width <= 0 || height <= 0 || bitDepthLuma > 16 || bitDepthChroma > 16) {
    throw new MediaError('sps-invalid', `picture ${width}x${height}, ${bitDepthLuma} bits`);
  }
  return {
    profileByte,
    profile: profileByte & 0x1f,
    tier: (profileByte >> 5) & 1,
    compatibility,
    constraints,
    level,
    maxSubLayers,
    temporalIdNested,
    chromaFormat,
    bitDepthLuma,
    bitDepthChroma,
    width,
    height,
  };
}

/** HEVCDecoderConfigurationRecord (ISO/IEC 14496-15 8.3.3.1), NAL lengths in 4 bytes; arrays VPS, SPS, PPS. */
export function hevcDecoderConfigurationRecord(vps: Buffer[], sps: Buffer[], pps: Buffer[]): Buffer {
  const info = parseH265Sps(sps[0]!);
  const head = Buffer.alloc(23);
  head[0] = 1;
  head[1] = info.profileByte;
  head.writeUInt32BE(info.compatibility, 2);
  info.constraints.copy(head, 6);
  head[12] = info.level;
  head.writeUInt16BE(0xf000, 13); // min_spatial_segmentation_idc 0
  head[15] = 0xfc; // parallelismType 0
  head[16] = 0xfc | info.chromaFormat;
  head[17] = 0xf8 | (info.bitDepthLuma - 8);
  head[18] = 0xf8 | (info.bitDepthChroma - 8);
  head.writeUInt16BE(0, 19); // avgFrameRate unknown
  head[21] = (info.maxSubLayers << 3) | (info.temporalIdNested << 2) | 3;
  head[22] = 3; // numOfArrays
  const parts: Buffer[] = [head];
  for (const [type, nals] of [
    [32, vps],
    [33, sps],
    [34, pps],
  ] as const) {
    parts.push(Buffer.from([0x80 | type]), u16(nals.length));
    for (const n of nals) parts.push(u16(n.length), n);
  }
  return Buffer.concat(parts);
}

function u16(n: number): Buffer {
  const b = Buffer.allocUnsafe(2);
  b.writeUInt16BE(n, 0);
  return b;
}
