/** Test helpers: ffmpeg-made media, muxed to PS and RTP as a GB28181 device sends it. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { mpegCrc32, PsMuxer, RtpPacketizer, splitH264AccessUnits } from '@bwc/gb28181/ps';
import { mulberry32 } from '@bwc/protocol';
import { FFMPEG, FFPROBE } from '../../evidence/ingest/media-tools';
import type { AvPacket } from '../../media/live-stream';
import { parseAdts } from './adts';

const require = createRequire(import.meta.url);
const Flv = require('node-media-server/src/protocol/flv.js') as {
  createHeader(hasAudio: boolean, hasVideo: boolean): Buffer;
  createMessage(packet: AvPacket): Buffer;
};

export function ffmpeg(args: string[]): void {
  const r = spawnSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
}

export function hasEncoder(name: string): boolean {
  return spawnSync(FFMPEG, ['-hide_banner', '-encoders']).stdout.toString().includes(` ${name} `);
}

/** A fixed-seed generator, so that every run shuffles the same way. */
export const rng = mulberry32;

export interface TestMedia {
  h264: Buffer[];
  h265: Buffer[] | null;
  /** ADTS frames, 16 kHz mono */
  aac: Buffer[];
  /** 8 kHz A-law, 3 s */
  alaw: Buffer;
}

/** 3 s of testsrc: H.264 640x360 and H.265 320x240 at 25 fps, a keyframe each second, no B-frames. */
export function makeMedia(dir: string): TestMedia {
  const src = ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-t', '3', '-pix_fmt', 'yuv420p'];
  // noise: inter frames of several RTP packets
  ffmpeg([
    ...src,
    '-vf',
    'noise=alls=6:allf=t',
    '-c:v',
    'libx264',
    '-qp',
    '24',
    '-g',
    '25',
    '-sc_threshold',
    '0',
    '-bf',
    '0',
    '-f',
    'h264',
    join(dir, 'v.h264'),
  ]);
  const h264 = splitH264AccessUnits(readFileSync(join(dir, 'v.h264')));
  let h265: Buffer[] | null = null;
  if (hasEncoder('libx265')) {
    // an access unit delimiter (type 35) opens each frame: that is how they are split here
    const params = 'keyint=25:min-keyint=25:scenecut=0:bframes=0:aud=1:log-level=error';
    const small = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-t', '2', '-pix_fmt', 'yuv420p'];
    ffmpeg([...small, '-c:v', 'libx265', '-x265-params', params, '-f', 'hevc', join(dir, 'v.hevc')]);
    const es = readFileSync(join(dir, 'v.hevc'));
    const starts: number[] = [];
    for (let i = 1; i + 4 < es.length; i++) {
      if (es[i] === 0 && es[i + 1] === 0 && es[i + 2] === 1 && ((es[i + 3]! >> 1) & 0x3f) === 35)
        starts.push(es[i - 1] === 0 ? i - 1 : i);
    }
    h265 = starts.map((at, k) => es.subarray(at, starts[k + 1] ?? es.length));
  }
  const sine = (rate: number) => ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${rate}`, '-t', '3'];
  ffmpeg([...sine(16000), '-c:a', 'aac', '-ac', '1', '-f', 'adts', join(dir, 'a.aac')]);
  ffmpeg([...sine(8000), '-c:a', 'pcm_alaw', '-f', 'alaw', join(dir, 'a.alaw')]);
  const adts = readFileSync(join(dir, 'a.aac'));
  const aac: Buffer[] = [];
  for (let off = 0; off < adts.length;) {
    const f = parseAdts(adts, off);
    aac.push(adts.subarray(off, off + f.length));
    off += f.length;
  }
  return { h264, h265, aac, alaw: readFileSync(join(dir, 'a.alaw')) };
}

export interface Pack {
  kind: 'video' | 'audio';
  /** 90 kHz */
  ts: number;
  pack: Buffer;
}

/** The PSM of a pack with its audio entry's stream type changed (PsMuxer writes only G.711), CRC recomputed. */
function withAudioType(pack: Buffer, streamType: number): Buffer {
  const at = pack.indexOf(Buffer.from([0, 0, 1, 0xbc]));
  if (at < 0) return pack;
  const len = 6 + pack.readUInt16BE(at + 4);
  pack[at + 16] = streamType;
  pack.writeUInt32BE(mpegCrc32(pack.subarray(at, at + len - 4)), at + len - 4);
  return pack;
}

/**
 * Video at 25 fps from 90 kHz time 1 s (PTS `ptsOffset` after DTS: a composition time), audio frames
 * interleaved in time order: AAC (1024 samples at 16 kHz) or A-law (40 ms, 320 bytes).
 */
export function muxStream(
  video: Buffer[],
  codec: 'h264' | 'h265',
  audio: { codec: 'aac'; frames: Buffer[] } | { codec: 'g711a'; bytes: Buffer } | null,
  ptsOffset = 7200,
): Pack[] {
  const mux = new PsMuxer({ video: codec, audio: audio ? 'g711a' : null });
  const audioFrames: { ts: number; data: Buffer }[] = [];
  if (audio?.codec === 'aac') audio.frames.forEach((f, i) => audioFrames.push({ ts: 90_000 + i * 5760, data: f }));
  if (audio?.codec === 'g711a') {
    for (let i = 0; i * 320 < audio.bytes.length; i++) {
      audioFrames.push({ ts: 90_000 + i * 3600, data: audio.bytes.subarray(i * 320, i * 320 + 320) });
    }
  }
  const out: Pack[] = [];
  let a = 0;
  video.forEach((au, i) => {
    const dts = 90_000 + i * 3600;
    while (a < audioFrames.length && audioFrames[a]!.ts < dts) {
      const f = audioFrames[a++]!;
      out.push({ kind: 'audio', ts: f.ts, pack: mux.audio(f.data, f.ts) });
    }
    const pack = mux.video(au, dts + ptsOffset, dts);
    out.push({ kind: 'video', ts: dts, pack: audio?.codec === 'aac' ? withAudioType(pack, 0x0f) : pack });
  });
  for (const f of audioFrames.slice(a)) out.push({ kind: 'audio', ts: f.ts, pack: mux.audio(f.data, f.ts) });
  return out;
}

/** RTP packets of the packs: [pack index, packet]. */
export function rtpOf(packs: Pack[], ssrc: number, sequence = 65000): { pack: number; pkt: Buffer }[] {
  const rtp = new RtpPacketizer({ ssrc, sequence, maxPayload: 1400 });
  return packs.flatMap((p, i) => rtp.packetize(p.pack, p.ts).map((pkt) => ({ pack: i, pkt })));
}

/** The packets as an FLV file (node-media-server's flv.js, as live-stream.ts makes tags). */
export function flvFile(packets: AvPacket[], hasAudio: boolean): Buffer {
  return Buffer.concat([Flv.createHeader(hasAudio, true), ...packets.map((p) => Flv.createMessage(p))]);
}

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  sample_rate?: string;
  channels?: number;
  nb_read_frames?: string;
  profile?: string;
}

/** ffprobe's streams of a file, every frame decoded and counted. */
export function probe(file: string): ProbedStream[] {
  const r = spawnSync(FFPROBE, ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', file]);
  if (r.status !== 0) throw new Error(`ffprobe: ${r.stderr.toString()}`);
  return (JSON.parse(r.stdout.toString()) as { streams: ProbedStream[] }).streams;
}

/** ffprobe's decode errors of a file (stderr at level error). */
export function decodeErrors(file: string): string {
  const r = spawnSync(FFPROBE, ['-v', 'error', '-count_frames', '-show_streams', file]);
  return r.stderr.toString();
}
