import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import {
  buildRtp,
  frameRtpTcp,
  isKeyframe,
  mpegCrc32,
  parsePackHeader,
  parsePes,
  parsePsm,
  parseRtp,
  parseSystemHeader,
  PsDemuxer,
  PsError,
  PsMuxer,
  RtpPacketizer,
  RtpReassembler,
  RtpTcpFramer,
  splitH264AccessUnits,
  type AccessUnit,
  type ReassemblyEvent,
} from './index';
import { rng } from './testing';

const require = createRequire(import.meta.url);
const FFMPEG = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const FFPROBE = (require('@ffprobe-installer/ffprobe') as { path: string }).path;

function ffmpeg(args: string[]): void {
  const r = spawnSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
}

function hasEncoder(name: string): boolean {
  return spawnSync(FFMPEG, ['-hide_banner', '-encoders']).stdout.toString().includes(` ${name} `);
}

let dir: string;
let h264: Buffer;
let alaw: Buffer;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gb-ps-'));
  // 3 s at 25 fps, a keyframe each second; a low quantiser, so that a keyframe spans several PES
  // packets (4000 bytes) and many RTP packets
  const encoder = hasEncoder('libx264') ? ['-c:v', 'libx264', '-qp', '6'] : ['-c:v', 'h264', '-b:v', '8M'];
  const video = ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-t', '3', ...encoder];
  ffmpeg([...video, '-g', '25', '-bf', '0', '-f', 'h264', join(dir, 'v.h264')]);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=8000',
    '-t',
    '3',
    '-c:a',
    'pcm_alaw',
    '-f',
    'alaw',
    join(dir, 'a.alaw'),
  ]);
  h264 = readFileSync(join(dir, 'v.h264'));
  alaw = readFileSync(join(dir, 'a.alaw'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Expected {
  kind: 'video' | 'audio';
  pts: number;
  dts: number;
  data: Buffer;
  keyframe: boolean;
}

/** The test's stream: video frames at 25 fps (DTS 2 frames before PTS) and 40 ms A-law frames between them. */
function sources(): { frames: Expected[]; packs: Buffer[] } {
  const mux = new PsMuxer({ video: 'h264', audio: 'g711a', maxPesPayload: 4000 });
  const aus = splitH264AccessUnits(h264);
  const frames: Expected[] = [];
  const packs: Buffer[] = [];
  aus.forEach((au, i) => {
    const dts = 90_000 + i * 3600;
    const pts = dts + 7200;
    frames.push({ kind: 'video', pts, dts, data: au, keyframe: isKeyframe('h264', au) });
    packs.push(mux.video(au, pts, dts));
    const a = alaw.subarray(i * 320, i * 320 + 320);
    if (a.length) {
      frames.push({ kind: 'audio', pts: dts + 1800, dts: dts + 1800, data: a, keyframe: true });
      packs.push(mux.audio(a, dts + 1800));
    }
  });
  return { frames, packs };
}

/** RTP of the packs: [frame index, packet] in sending order. */
function packetize(
  packs: Buffer[],
  frames: Expected[],
  ssrc: number,
  sequence: number,
): { frame: number; pkt: Buffer }[] {
  const rtp = new RtpPacketizer({ ssrc, sequence, maxPayload: 1400 });
  return packs.flatMap((pack, i) => rtp.packetize(pack, frames[i]!.dts).map((pkt) => ({ frame: i, pkt })));
}

/** Through RFC 4571 framing in random chunk sizes, the reassembler and the demuxer. */
function receive(
  packets: Buffer[],
  seed: number,
): { units: AccessUnit[]; events: ReassemblyEvent[]; reasm: RtpReassembler } {
  const rand = rng(seed);
  const stream = Buffer.concat(packets.map(frameRtpTcp));
  const framer = new RtpTcpFramer(1500);
  const reasm = new RtpReassembler({ reorderWindow: 16 });
  const demux = new PsDemuxer();
  const events: ReassemblyEvent[] = [];
  for (let at = 0; at < stream.length;) {
    const n = 1 + Math.floor(rand() * 3000);
    for (const p of framer.push(stream.subarray(at, at + n))) events.push(...reasm.push(parseRtp(p)));
    at += n;
  }
  expect(framer.buffered).toBe(0);
  events.push(...reasm.flush());
  const units: AccessUnit[] = [];
  for (const ev of events) {
    if (ev.type !== 'frame') continue;
    const r = demux.push(ev.frame.data);
    expect(r.errors).toEqual([]);
    units.push(...r.units, ...demux.flush());
  }
  return { units, events, reasm };
}

/** Shuffled within blocks of 8 (displacement under the reorder window of 16). */
function shuffle<T>(items: T[], seed: number): T[] {
  const rand = rng(seed);
  const out = [...items];
  for (let b = 0; b < out.length; b += 8) {
    for (let i = Math.min(b + 7, out.length - 1); i > b; i--) {
      const j = b + Math.floor(rand() * (i - b + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
  }
  return out;
}

function same(units: AccessUnit[], frames: Expected[]): void {
  expect(units.length).toBe(frames.length);
  units.forEach((u, i) => {
    const f = frames[i]!;
    expect({ kind: u.kind, pts: u.pts, dts: u.dts, keyframe: u.keyframe, codec: u.codec, i }).toEqual({
      kind: f.kind,
      pts: f.pts,
      dts: f.dts,
      keyframe: f.keyframe,
      codec: f.kind === 'video' ? 'h264' : 'g711a',
      i,
    });
    expect(u.data.equals(f.data)).toBe(true);
  });
}

describe('ffmpeg H.264 -> PS muxer -> RTP over TCP -> reassembler -> PS demuxer', () => {
  it('the source has what the test needs', () => {
    const aus = splitH264AccessUnits(h264);
    expect(aus.length).toBe(75);
    expect(Buffer.concat(aus).equals(h264)).toBe(true);
    expect(aus.filter((a) => isKeyframe('h264', a)).length).toBe(3);
    // a keyframe spans several PES packets (4000 bytes) and RTP packets
    expect(aus[0]!.length).toBeGreaterThan(8000);
  });

  it('in order: every frame, with its time stamps and bytes', () => {
    const { frames, packs } = sources();
    const pkts = packetize(packs, frames, 0x12345678, 65_000);
    const { units, events } = receive(
      pkts.map((p) => p.pkt),
      1,
    );
    expect(events.filter((e) => e.type === 'gap')).toEqual([]);
    same(units, frames);
  });

  // the dropped packet: the first, a middle and the last (marker) packet of a keyframe's RTP frame
  it.each([
    ['first', 0],
    ['middle', 3],
    ['last', -1],
  ] as const)(
    'shuffled, the %s packet of a keyframe lost: that frame is dropped and reported, the others come whole',
    (_, which) => {
      const { frames, packs } = sources();
      const pkts = packetize(packs, frames, 0xcafe, 65_500); // the sequence wraps
      const lostFrame = frames.findIndex((f, i) => i > 0 && f.keyframe && f.kind === 'video');
      const ofFrame = pkts.map((p, i) => ({ ...p, i })).filter((p) => p.frame === lostFrame);
      expect(ofFrame.length).toBeGreaterThan(4);
      const lost = ofFrame.at(which)!;
      const sent = shuffle(
        pkts.filter((p) => p !== pkts[lost.i]),
        which + 7,
      );
      expect(sent.map((p) => p.frame)).not.toEqual([...sent.map((p) => p.frame)].sort((a, b) => a - b));
      const { units, events, reasm } = receive(
        sent.map((p) => p.pkt),
        which + 11,
      );
      const lostSeq = parseRtp(lost.pkt).sequence;
      expect(events.filter((e) => e.type === 'gap').map((e) => e.type === 'gap' && e.gap)).toEqual([
        { from: lostSeq, count: 1 },
      ]);
      expect(reasm.stats.framesDropped).toBe(1);
      same(
        units,
        frames.filter((_, i) => i !== lostFrame),
      );
    },
  );

  it('packets of another SSRC, late and duplicate packets are left out', () => {
    const { frames, packs } = sources();
    const pkts = packetize(packs.slice(0, 20), frames, 7, 100).map((p) => p.pkt);
    const stranger = packetize(packs.slice(0, 2), frames, 8, 100).map((p) => p.pkt);
    expect(pkts.length).toBeGreaterThan(30);
    // pkts[10] again, after the reorder window has passed it
    const sent = [...pkts.slice(0, 30), pkts[10]!, ...stranger, ...pkts.slice(30)];
    const { units, reasm } = receive(sent, 3);
    expect(reasm.stats.duplicate + reasm.stats.late).toBe(1);
    expect(reasm.stats.otherSsrc).toBe(stranger.length);
    same(units, frames.slice(0, 20));
  });
});

describe('ffmpeg as an independent PS producer', () => {
  it('its MPEG-2 PS (vob) gives the same H.264 bytes, frame count, keyframes and PTS as ffprobe', () => {
    const vob = join(dir, 'v.vob');
    ffmpeg(['-r', '25', '-f', 'h264', '-i', join(dir, 'v.h264'), '-c:v', 'copy', '-f', 'vob', vob]);
    const probe = spawnSync(FFPROBE, [
      '-v',
      'error',
      '-select_streams',
      'v',
      '-show_entries',
      'packet=pts,flags',
      '-of',
      'json',
      vob,
    ]);
    const packets = (JSON.parse(probe.stdout.toString()) as { packets: { pts?: number; flags: string }[] }).packets;
    const demux = new PsDemuxer();
    const r = demux.push(readFileSync(vob));
    expect(r.errors).toEqual([]);
    const units = [...r.units, ...demux.flush()];
    expect(units.every((u) => u.kind === 'video' && u.codec === 'h264')).toBe(true);
    // ffmpeg packs frames into 2 KiB packs: PES boundaries are not frame boundaries, so the frames
    // are counted in the joined stream
    const es = Buffer.concat(units.map((u) => u.data));
    expect(es.equals(h264)).toBe(true);
    const aus = splitH264AccessUnits(es);
    expect(aus.length).toBe(packets.length);
    expect(aus.filter((a) => isKeyframe('h264', a)).length).toBe(packets.filter((p) => p.flags.startsWith('K')).length);
    const ptsOfProbe = new Set(packets.map((p) => p.pts).filter((p) => p !== undefined));
    const ours = units.map((u) => u.pts).filter((p) => p !== null);
    expect(ours.length).toBeGreaterThan(10);
    for (const pts of ours) expect(ptsOfProbe.has(pts)).toBe(true);
  });
});

describe('ffmpeg H.265', () => {
  it('libx265 frames through the muxer, RTP and back: codec h265 from the PSM, bytes, and the keyframes ffprobe sees', () => {
    const file = join(dir, 'v.hevc');
    // an access unit delimiter (NAL type 35) opens each frame, which is how the test splits them
    const x265 = 'keyint=10:min-keyint=10:scenecut=0:aud=1:log-level=error';
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=25',
      '-t',
      '1.2',
      '-c:v',
      'libx265',
      '-x265-params',
      x265,
      '-f',
      'hevc',
      file,
    ]);
    const es = readFileSync(file);
    const starts: number[] = [];
    for (let i = 0; i + 4 < es.length; i++) {
      if (es[i] === 0 && es[i + 1] === 0 && es[i + 2] === 1 && ((es[i + 3]! >> 1) & 0x3f) === 35)
        starts.push(es[i - 1] === 0 ? i - 1 : i);
    }
    const aus = starts.map((at, k) => es.subarray(at, starts[k + 1] ?? es.length));
    const probe = spawnSync(FFPROBE, ['-v', 'error', '-show_entries', 'packet=flags', '-of', 'json', file]);
    const packets = (JSON.parse(probe.stdout.toString()) as { packets: { flags: string }[] }).packets;
    expect(aus.length).toBe(packets.length);
    const mux = new PsMuxer({ video: 'h265' });
    const rtp = new RtpPacketizer({ ssrc: 265, sequence: 1, maxPayload: 1400 });
    const reasm = new RtpReassembler();
    const demux = new PsDemuxer();
    const units: AccessUnit[] = [];
    const events = aus.flatMap((au, i) =>
      rtp.packetize(mux.video(au, i * 3600), i * 3600).flatMap((p) => reasm.push(parseRtp(p))),
    );
    events.push(...reasm.flush());
    for (const ev of events) if (ev.type === 'frame') units.push(...demux.push(ev.frame.data).units, ...demux.flush());
    expect(units.length).toBe(aus.length);
    expect(units.every((u, i) => u.codec === 'h265' && u.pts === i * 3600 && u.data.equals(aus[i]!))).toBe(true);
    expect(units.map((u) => u.keyframe)).toEqual(packets.map((p) => p.flags.startsWith('K')));
    expect(demux.psm?.streams).toEqual([{ streamType: 0x24, streamId: 0xe0, codec: 'h265' }]);
  });
});

/** A PSM laid out by hand from ISO/IEC 13818-1 2.5.4.1: H.265 on 0xE0, G.711 mu-law on 0xC0. */
function handPsm(): Buffer {
  const body = [
    0x80 | 0x01, // current_next_indicator 1, version 1
    0xff, // reserved, marker
    0x00,
    0x00, // program_stream_info_length
    0x00,
    0x0a, // elementary_stream_map_length: 4 + (4 + 2) bytes
    0x24,
    0xe0,
    0x00,
    0x00, // H.265
    0x91,
    0xc0,
    0x00,
    0x02,
    0x0a,
    0x00, // G.711 mu-law with a 2-byte descriptor
  ];
  const head = Buffer.from([0, 0, 1, 0xbc, 0, body.length + 4, ...body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(mpegCrc32(head));
  return Buffer.concat([head, crc]);
}

describe('the parts by hand', () => {
  it('CRC-32/MPEG-2 of "123456789" is 0x0376E6E7', () => {
    expect(mpegCrc32(Buffer.from('123456789'))).toBe(0x0376e6e7);
  });

  it('an H.265 stream type is recognised from a hand-built PSM, and H.265 keyframes', () => {
    const psm = parsePsm(handPsm());
    expect(psm).toMatchObject({ version: 1, crcValid: true, length: 26 });
    expect(psm.streams).toEqual([
      { streamType: 0x24, streamId: 0xe0, codec: 'h265' },
      { streamType: 0x91, streamId: 0xc0, codec: 'g711u' },
    ]);
    const mux = new PsMuxer({ video: 'h265' });
    const vps = Buffer.from([0, 0, 0, 1, 0x40, 0x01, 0x0c, 0x01, 0xff]); // VPS (32)
    const idr = Buffer.from([0, 0, 0, 1, 0x26, 0x01, 0xaf, 0x00]); // IDR_W_RADL (19)
    const trail = Buffer.from([0, 0, 0, 1, 0x02, 0x01, 0xd0, 0x00]); // TRAIL_R (1)
    const demux = new PsDemuxer();
    const key = Buffer.concat([vps, idr]);
    const r1 = demux.push(Buffer.concat([mux.packHeader(0), handPsm(), mux.pes(0xe0, key, 3600, null)]));
    const r2 = demux.push(
      Buffer.concat([
        mux.packHeader(3600),
        mux.pes(0xe0, trail, 7200, null),
        mux.pes(0xc0, Buffer.from([1, 2, 3]), 7200, null),
      ]),
    );
    const units = [...r1.units, ...r2.units, ...demux.flush()];
    expect([...r1.errors, ...r2.errors]).toEqual([]);
    expect(units.map((u) => [u.kind, u.codec, u.pts, u.keyframe])).toEqual([
      ['video', 'h265', 3600, true],
      ['audio', 'g711u', 7200, true],
      ['video', 'h265', 7200, false],
    ]);
    expect(units[0]!.data.equals(key)).toBe(true);
  });

  it('video PES packets of one frame are joined whether later ones repeat the PTS or carry none', () => {
    const mux = new PsMuxer({ video: 'h264' });
    const a = Buffer.from([0, 0, 0, 1, 0x65, 1, 2]);
    const b = Buffer.from([3, 4, 5]);
    const c = Buffer.from([6]);
    const next = Buffer.from([0, 0, 0, 1, 0x41, 9]);
    const demux = new PsDemuxer();
    const r = demux.push(
      Buffer.concat([
        mux.packHeader(0),
        mux.pes(0xe0, a, 3600, null),
        mux.pes(0xe0, b, 3600, null), // the same PTS again, as many cameras send it
        mux.pes(0xe0, c, null, null),
        mux.pes(0xbe, Buffer.alloc(8, 0xff), null, null), // padding stream: skipped
        mux.packHeader(3600),
        mux.pes(0xe0, next, 7200, null),
      ]),
    );
    expect(r.errors).toEqual([]);
    const units = [...r.units, ...demux.flush()];
    expect(units.map((u) => [u.pts, u.keyframe, u.data.toString('hex')])).toEqual([
      [3600, true, Buffer.concat([a, b, c]).toString('hex')],
      [7200, false, next.toString('hex')],
    ]);
  });

  it("the muxer's pack, system header and PES carry the fields the standard lays out", () => {
    const mux = new PsMuxer({ video: 'h264', audio: 'g711u' });
    const big = 2 ** 33 - 1; // 33-bit time stamps
    const pack = parsePackHeader(mux.packHeader(big));
    expect(pack).toEqual({ scr: big, scrExtension: 0, muxRate: 6106, length: 14 });
    const sys = parseSystemHeader(mux.systemHeader());
    expect(sys.streams.map((s) => s.streamId)).toEqual([0xe0, 0xc0]);
    expect([sys.rateBound, sys.audioBound, sys.videoBound]).toEqual([6106, 1, 1]);
    const pes = parsePes(mux.pes(0xe0, Buffer.from('abc'), big, 12345));
    expect(pes).toMatchObject({ streamId: 0xe0, pts: big, dts: 12345, length: 22 });
    expect(pes.payload.toString()).toBe('abc');
    expect(parsePsm(mux.psm()).crcValid).toBe(true);
    // a pack header with 3 stuffing bytes (ffmpeg does not write any)
    const stuffed = Buffer.concat([mux.packHeader(5), Buffer.from([0xff, 0xff, 0xff])]);
    stuffed[13] = 0xf8 | 3;
    expect(parsePackHeader(stuffed)).toMatchObject({ scr: 5, length: 17 });
  });

  it('RTP: CSRC, header extension and padding', () => {
    const pkt = Buffer.from([
      0xb2,
      0xe0,
      0x12,
      0x34,
      0,
      0,
      0x10,
      0,
      0xde,
      0xad,
      0xbe,
      0xef, // V2 P X CC=2, M, PT 96
      0,
      0,
      0,
      1,
      0,
      0,
      0,
      2, // CSRC
      0xbe,
      0xde,
      0,
      1,
      9,
      9,
      9,
      9, // extension, 1 word
      0xaa,
      0xbb, // payload
      0,
      0,
      3, // padding of 3
    ]);
    expect(parseRtp(pkt)).toEqual({
      version: 2,
      padding: true,
      marker: true,
      payloadType: 96,
      sequence: 0x1234,
      timestamp: 0x1000,
      ssrc: 0xdeadbeef,
      csrc: [1, 2],
      extension: { profile: 0xbede, data: Buffer.from([9, 9, 9, 9]) },
      payload: Buffer.from([0xaa, 0xbb]),
    });
    const bad = (b: Buffer, code: string): void => {
      expect(() => parseRtp(b)).toThrow(PsError);
      expect(() => parseRtp(b)).toThrow(code);
    };
    bad(pkt.subarray(0, 11), 'rtp-truncated');
    bad(pkt.subarray(0, 17), 'rtp-truncated'); // CSRC cut
    bad(pkt.subarray(0, 24), 'rtp-truncated'); // extension cut
    bad(Buffer.concat([Buffer.from([0x40]), pkt.subarray(1)]), 'rtp-version');
    const pad = Buffer.from(pkt);
    pad[pad.length - 1] = 40;
    bad(pad, 'rtp-padding');
    const plain = buildRtp(
      { marker: false, payloadType: 96, sequence: 65535, timestamp: 2 ** 32 - 1, ssrc: 1 },
      Buffer.from('x'),
    );
    expect(parseRtp(plain)).toMatchObject({
      marker: false,
      sequence: 65535,
      timestamp: 2 ** 32 - 1,
      ssrc: 1,
      payload: Buffer.from('x'),
    });
  });

  it('RFC 4571 framer: packets across chunks, one byte at a time, and a length over the limit', () => {
    const a = buildRtp({ marker: true, payloadType: 96, sequence: 1, timestamp: 0, ssrc: 1 }, Buffer.alloc(100, 1));
    const b = buildRtp({ marker: true, payloadType: 96, sequence: 2, timestamp: 0, ssrc: 1 }, Buffer.alloc(5, 2));
    const stream = Buffer.concat([frameRtpTcp(a), frameRtpTcp(b)]);
    const framer = new RtpTcpFramer(200);
    const got: Buffer[] = [];
    for (const byte of stream) got.push(...framer.push(Buffer.from([byte])));
    expect(got).toEqual([a, b]);
    expect(framer.buffered).toBe(0);
    const strict = new RtpTcpFramer(50);
    expect(strict.push(Buffer.from([0]))).toEqual([]);
    expect(() => strict.push(Buffer.from([101]))).toThrow('rtp-too-long');
    expect(() => strict.push(frameRtpTcp(b))).toThrow('rtp-too-long'); // framing is lost for good
    expect(() => new RtpTcpFramer().push(Buffer.from([0, 0]))).toThrow('rtp-empty');
  });
});
