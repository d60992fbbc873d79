/**
 * GB28181 live media on real bytes: ffmpeg-made H.264/H.265/AAC/A-law, muxed to PS and RTP as a
 * device sends them, over UDP (reordered, one packet lost), TCP passive and TCP active, to FLV
 * bodies that ffprobe decodes. Run: cd apps/server && npx vitest run src/modules/gb28181/media
 */
import dgram from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { frameRtpTcp, isKeyframe, type AccessUnit } from '@bwc/gb28181/ps';
import { LiveStream, type AvPacket } from '../../media/live-stream';
import { parseAdts } from './adts';
import { FLV_CODEC_AVC, FLV_CODEC_HVC1, FlvPacketizer } from './flv-packets';
import { parseH264Sps, parseH265Sps } from './h26x';
import { PortAllocator } from './ports';
import { TcpActiveRtpReceiver, TcpPassiveRtpReceiver, UdpRtpReceiver, type RtpReceiver } from './receiver';
import { GbMediaSession } from './session';
import { flvFile, makeMedia, muxStream, probe, rng, rtpOf, type TestMedia } from './test-media';

let dir: string;
let media: TestMedia;
const base = 41000 + Math.floor(Math.random() * 2000) * 10;
const ports = new PortAllocator(base, base + 9);
const sessions: GbMediaSession[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gb-media-'));
  media = makeMedia(dir);
});

afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

afterAll(() => {
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
});

function session(receiver: RtpReceiver): { s: GbMediaSession; packets: AvPacket[] } {
  const packets: AvPacket[] = [];
  const s = new GbMediaSession(receiver, { onPacket: (p) => packets.push(p) });
  sessions.push(s);
  return { s, packets };
}

/** Sends datagrams, yielding to the event loop every few so that the receiver keeps up. */
async function sendUdp(port: number, pkts: Buffer[]): Promise<void> {
  const sock = dgram.createSocket('udp4');
  for (let i = 0; i < pkts.length; i++) {
    await new Promise<void>((resolve, reject) =>
      sock.send(pkts[i]!, port, '127.0.0.1', (e) => (e ? reject(e) : resolve())),
    );
    if (i % 16 === 15) await new Promise((r) => setImmediate(r));
  }
  sock.close();
}

/** The bytes of RFC 4571 frames in random chunk sizes. */
function chunks(pkts: Buffer[], seed: number): Buffer[] {
  const stream = Buffer.concat(pkts.map(frameRtpTcp));
  const rand = rng(seed);
  const out: Buffer[] = [];
  for (let at = 0; at < stream.length;) {
    const n = 1 + Math.floor(rand() * 4000);
    out.push(stream.subarray(at, at + n));
    at += n;
  }
  return out;
}

async function writeAll(socket: net.Socket, parts: Buffer[]): Promise<void> {
  for (const p of parts) if (!socket.write(p)) await new Promise((r) => socket.once('drain', r));
}

const video = (ps: AvPacket[]) => ps.filter((p) => p.codec_type === 9);
const audio = (ps: AvPacket[]) => ps.filter((p) => p.codec_type === 8);

/** Per track: sequence header first, then a keyframe; DTS never going back; video DTS 40 ms apart. */
function checkOrder(ps: AvPacket[]): void {
  const v = video(ps);
  expect(v[0]!.flags).toBe(2);
  expect(v[1]!.flags).toBe(3);
  expect(v.slice(1).every((p) => p.flags === 3 || p.flags === 4)).toBe(true);
  for (let i = 2; i < v.length; i++) expect(v[i]!.dts).toBeGreaterThan(v[i - 1]!.dts);
  const a = audio(ps);
  if (a.length) {
    expect(a[0]!.flags).toBe(0);
    for (let i = 1; i < a.length; i++) expect(a[i]!.dts).toBeGreaterThanOrEqual(a[i - 1]!.dts);
  }
  for (const p of ps) expect(p.size).toBe(p.data.length);
}

/** SPS of an AVCDecoderConfigurationRecord in a sequence header body. */
function avcSps(body: Buffer): Buffer {
  expect(body.subarray(0, 5)).toEqual(Buffer.from([0x17, 0, 0, 0, 0]));
  const rec = body.subarray(5);
  expect(rec[0]).toBe(1);
  expect(rec[5]! & 0x1f).toBe(1);
  const sps = rec.subarray(8, 8 + rec.readUInt16BE(6));
  // profile, compatibility and level of the record are the SPS's
  expect([rec[1], rec[2], rec[3]]).toEqual([sps[1], sps[2], sps[3]]);
  return sps;
}

function writeFlv(name: string, ps: AvPacket[], hasAudio: boolean): string {
  const file = join(dir, name);
  writeFileSync(file, flvFile(ps, hasAudio));
  return file;
}

describe('H.264 + AAC', () => {
  it('over UDP, reordered with one packet lost: AVC sequence header, keyframe first, the frames less the lost one, and ffprobe decodes the FLV', async () => {
    const packs = muxStream(media.h264, 'h264', { codec: 'aac', frames: media.aac });
    const rtp = rtpOf(packs, 0x0a0b0c0d);
    // lose the middle packet of the inter frame 40 (3 packets or more at this size)
    const frame40 = packs.findIndex(
      (p, i) => p.kind === 'video' && packs.slice(0, i + 1).filter((q) => q.kind === 'video').length === 41,
    );
    const of40 = rtp.filter((r) => r.pack === frame40);
    expect(of40.length).toBeGreaterThanOrEqual(3);
    const lost = of40[1]!;
    const sent = rtp.filter((r) => r !== lost).map((r) => r.pkt);
    // swap neighbours in blocks (displacement under the reorder window)
    for (let i = 10; i + 1 < sent.length; i += 7) [sent[i], sent[i + 1]] = [sent[i + 1]!, sent[i]!];
    const receiver = await UdpRtpReceiver.open(ports, { ssrc: 0x0a0b0c0d, host: '127.0.0.1' });
    const { s, packets } = session(receiver);
    await sendUdp(receiver.port, sent);
    await vi.waitFor(() => expect(receiver.stats.packets).toBe(sent.length), { timeout: 10_000 });
    expect(s.counters.gaps).toBe(1);

    checkOrder(packets);
    const v = video(packets);
    expect(v[0]!.codec_id).toBe(FLV_CODEC_AVC);
    const sps = parseH264Sps(avcSps(v[0]!.data));
    expect(sps).toMatchObject({ width: 640, height: 360, profile: 100, chromaFormat: 1 });
    const frames = v.filter((p) => p.flags !== 2);
    expect(frames.length).toBe(media.h264.length - 1);
    expect(frames.filter((p) => p.flags === 3).length).toBe(media.h264.filter((au) => isKeyframe('h264', au)).length);
    // composition time 80 ms: PTS - DTS in the body and on the packet
    expect(frames.every((p) => p.data.readIntBE(2, 3) === 80 && p.pts - p.dts === 80)).toBe(true);
    expect(frames[1]!.dts - frames[0]!.dts).toBe(40);
    // one sequence header: the keyframes resend the same SPS/PPS
    expect(v.filter((p) => p.flags === 2).length).toBe(1);
    const a = audio(packets);
    // AudioSpecificConfig: AAC LC, 16 kHz (index 8), mono
    expect(a[0]!.data).toEqual(Buffer.from([0xaf, 0, (2 << 3) | (8 >> 1), (0 << 7) | (1 << 3)]));
    expect(a.filter((p) => p.flags === 1).length).toBe(media.aac.length);
    expect(a[2]!.dts - a[1]!.dts).toBe(64);
    expect(s.counters.videoFrames).toBe(frames.length);

    const streams = probe(writeFlv('udp.flv', packets, true));
    const vs = streams.find((x) => x.codec_type === 'video')!;
    expect(vs).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
    expect(Number(vs.nb_read_frames)).toBe(media.h264.length - 1);
    const as = streams.find((x) => x.codec_type === 'audio')!;
    expect(as).toMatchObject({ codec_name: 'aac', sample_rate: '16000', channels: 1 });
    expect(Number(as.nb_read_frames)).toBe(media.aac.length);
  });

  it('over TCP passive in random chunks: every frame', async () => {
    const packs = muxStream(media.h264, 'h264', { codec: 'aac', frames: media.aac });
    const rtp = rtpOf(packs, 7).map((r) => r.pkt);
    const receiver = await TcpPassiveRtpReceiver.open(ports, { ssrc: 7, host: '127.0.0.1' });
    const { packets } = session(receiver);
    const connected = new Promise((r) => receiver.once('connected', r));
    const sock = net.connect(receiver.port, '127.0.0.1');
    await connected;
    await writeAll(sock, chunks(rtp, 3));
    await vi.waitFor(() => expect(receiver.stats.packets).toBe(rtp.length), { timeout: 10_000 });
    sock.destroy();
    checkOrder(packets);
    expect(video(packets).filter((p) => p.flags !== 2).length).toBe(media.h264.length);
    expect(audio(packets).filter((p) => p.flags === 1).length).toBe(media.aac.length);
    expect(receiver.stats.gaps).toBe(0);
    const vs = probe(writeFlv('passive.flv', packets, true)).find((x) => x.codec_type === 'video')!;
    expect(Number(vs.nb_read_frames)).toBe(media.h264.length);
  });

  it('over TCP active (we connect to the device): every frame', async () => {
    const packs = muxStream(media.h264, 'h264', null);
    const rtp = rtpOf(packs, 99).map((r) => r.pkt);
    const device = net.createServer((sock) => void writeAll(sock, chunks(rtp, 5)));
    await new Promise<void>((r) => device.listen(0, '127.0.0.1', r));
    const port = (device.address() as net.AddressInfo).port;
    try {
      const receiver = new TcpActiveRtpReceiver({ ssrc: 99, remote: { host: '127.0.0.1', port } });
      const { packets } = session(receiver);
      await vi.waitFor(() => expect(receiver.stats.packets).toBe(rtp.length), { timeout: 10_000 });
      checkOrder(packets);
      expect(video(packets).filter((p) => p.flags !== 2).length).toBe(media.h264.length);
      expect(audio(packets)).toEqual([]);
      const streams = probe(writeFlv('active.flv', packets, false));
      expect(streams.map((x) => x.codec_name)).toEqual(['h264']);
      expect(Number(streams[0]!.nb_read_frames)).toBe(media.h264.length);
    } finally {
      device.close();
    }
  });
});

describe('H.265', () => {
  it('libx265 over UDP: Enhanced FLV hvc1 with an HEVCDecoderConfigurationRecord, and ffprobe decodes it', async ({
    skip,
  }) => {
    if (!media.h265) return skip('ffmpeg has no libx265');
    const h265 = media.h265;
    const rtp = rtpOf(muxStream(h265, 'h265', null, 0), 265).map((r) => r.pkt);
    const receiver = await UdpRtpReceiver.open(ports, { ssrc: 265, host: '127.0.0.1' });
    const { packets } = session(receiver);
    await sendUdp(receiver.port, rtp);
    await vi.waitFor(() => expect(receiver.stats.packets).toBe(rtp.length), { timeout: 10_000 });
    checkOrder(packets);
    const v = video(packets);
    expect(v.every((p) => p.codec_id === FLV_CODEC_HVC1 && p.data.subarray(1, 5).toString() === 'hvc1')).toBe(true);
    // sequence start: ex header, key frame, PacketTypeSequenceStart
    expect(v[0]!.data[0]).toBe(0x90);
    const rec = v[0]!.data.subarray(5);
    expect(rec[0]).toBe(1);
    expect(rec[22]).toBe(3);
    // arrays VPS, SPS, PPS, one NAL each; the SPS parses to the picture size
    let off = 23;
    const arrays: { type: number; nal: Buffer }[] = [];
    for (let i = 0; i < 3; i++) {
      const type = rec[off]! & 0x3f;
      expect(rec.readUInt16BE(off + 1)).toBe(1);
      const len = rec.readUInt16BE(off + 3);
      arrays.push({ type, nal: rec.subarray(off + 5, off + 5 + len) });
      off += 5 + len;
    }
    expect(arrays.map((a) => a.type)).toEqual([32, 33, 34]);
    const sps = parseH265Sps(arrays[1]!.nal);
    expect(sps).toMatchObject({ width: 320, height: 240, profile: 1, bitDepthLuma: 8 });
    expect(rec[1]! & 0x1f).toBe(sps.profile);
    expect(rec[12]).toBe(sps.level);
    const frames = v.slice(1);
    expect(frames.length).toBe(h265.length);
    expect(frames.filter((p) => p.flags === 3).length).toBe(h265.filter((au) => isKeyframe('h265', au)).length);
    // no composition time: PacketTypeCodedFramesX
    expect(frames.every((p) => p.data[0] === (p.flags === 3 ? 0x93 : 0xa3) && p.pts === p.dts)).toBe(true);
    const streams = probe(writeFlv('h265.flv', packets, false));
    expect(streams[0]).toMatchObject({ codec_name: 'hevc', width: 320, height: 240 });
    expect(Number(streams[0]!.nb_read_frames)).toBe(h265.length);
  });
});

describe('G.711', () => {
  it('A-law is transcoded to AAC through ffmpeg: 8 kHz mono AAC LC that ffprobe decodes, about as long as the input', async () => {
    const packs = muxStream(media.h264, 'h264', { codec: 'g711a', bytes: media.alaw });
    const rtp = rtpOf(packs, 711).map((r) => r.pkt);
    const receiver = await TcpPassiveRtpReceiver.open(ports, { ssrc: 711, host: '127.0.0.1' });
    const { s, packets } = session(receiver);
    const sock = net.connect(receiver.port, '127.0.0.1');
    await writeAll(sock, chunks(rtp, 9));
    await vi.waitFor(() => expect(receiver.stats.packets).toBe(rtp.length), { timeout: 10_000 });
    sock.destroy();
    await s.packetizer.drain();
    checkOrder(packets);
    const a = audio(packets);
    // AAC LC, 8 kHz (index 11), mono
    expect(a[0]!.data).toEqual(Buffer.from([0xaf, 0, (2 << 3) | (11 >> 1), (1 << 7) | (1 << 3)]));
    const frames = a.filter((p) => p.flags === 1);
    // 3 s at 8 kHz in 1024-sample frames, and the encoder's priming frame or so
    expect(frames.length).toBeGreaterThanOrEqual(Math.floor((3 * 8000) / 1024));
    expect(frames.length).toBeLessThanOrEqual(Math.ceil((3 * 8000) / 1024) + 2);
    expect(frames[1]!.dts - frames[0]!.dts).toBe(128);
    const streams = probe(writeFlv('g711.flv', packets, true));
    const as = streams.find((x) => x.codec_type === 'audio')!;
    expect(as).toMatchObject({ codec_name: 'aac', sample_rate: '8000', channels: 1 });
    expect(Number(as.nb_read_frames)).toBe(frames.length);
  });

  it('µ-law with a 1 s hole: silence fills it, so the AAC frames cover input and hole and stay on the device clock', async () => {
    const packets: AvPacket[] = [];
    const p = new FlvPacketizer({ onPacket: (x) => packets.push(x) });
    const unit = (i: number): AccessUnit => ({
      kind: 'audio',
      codec: 'g711u',
      streamId: 0xc0,
      pts: 90_000 + i * 3600,
      dts: 90_000 + i * 3600,
      // any byte is a µ-law code
      data: media.alaw.subarray((i % 75) * 320, (i % 75) * 320 + 320),
      keyframe: true,
    });
    // 2 s, a hole of 1 s (units 50-74 lost), 1 s
    for (let i = 0; i < 100; i++) if (i < 50 || i >= 75) p.push(unit(i));
    await p.drain();
    const frames = packets.filter((x) => x.codec_type === 8 && x.flags === 1);
    const expected = (4 * 8000) / 1024;
    expect(frames.length).toBeGreaterThanOrEqual(Math.floor(expected));
    expect(frames.length).toBeLessThanOrEqual(Math.ceil(expected) + 2);
    expect(frames.at(-1)!.dts).toBeGreaterThanOrEqual(3800);
    expect(packets[0]!.data).toEqual(Buffer.from([0xaf, 0, (2 << 3) | (11 >> 1), (1 << 7) | (1 << 3)]));
    p.close();
  });

  it('AAC comes out of a short input that is not ended (ffmpeg does not hold live audio to probe it)', async () => {
    const packets: AvPacket[] = [];
    const p = new FlvPacketizer({ onPacket: (x) => packets.push(x) });
    // 0.5 s of A-law in 20 ms units, then nothing more (a live stream keeps its pipe open)
    for (let i = 0; i < 25; i++)
      p.push({
        kind: 'audio',
        codec: 'g711a',
        streamId: 0xc0,
        pts: i * 1800,
        dts: i * 1800,
        data: media.alaw.subarray(i * 160, i * 160 + 160),
        keyframe: true,
      });
    await vi.waitFor(
      () => expect(packets.filter((x) => x.codec_type === 8 && x.flags === 1).length).toBeGreaterThan(0),
      {
        timeout: 5_000,
      },
    );
    expect(packets[0]!.flags).toBe(0);
    p.close();
  });

  it("'drop' leaves the audio out, with one log line", async () => {
    const packs = muxStream(media.h264.slice(0, 30), 'h264', { codec: 'g711a', bytes: media.alaw });
    const rtp = rtpOf(packs, 712).map((r) => r.pkt);
    const receiver = await UdpRtpReceiver.open(ports, { ssrc: 712, host: '127.0.0.1' });
    const lines: string[] = [];
    const packets: AvPacket[] = [];
    const s = new GbMediaSession(receiver, {
      onPacket: (p) => packets.push(p),
      g711: 'drop',
      log: { warn: (_o, msg) => lines.push(msg) },
    });
    sessions.push(s);
    await sendUdp(receiver.port, rtp);
    await vi.waitFor(() => expect(receiver.stats.packets).toBe(rtp.length), { timeout: 10_000 });
    expect(audio(packets)).toEqual([]);
    expect(video(packets).length).toBe(31);
    expect(lines).toEqual(['GB media: G.711 audio dropped (browsers cannot play it from FLV)']);
    expect(s.counters.dropped.units).toBe(packs.filter((p) => p.kind === 'audio').length);
  });
});

interface PlayerSample {
  isKeyframe?: boolean;
  dts: number;
  pts: number;
  cts?: number;
}

interface PlayerTrack {
  samples: PlayerSample[];
  length: number;
}

interface PlayerMeta {
  codec: string;
  originalCodec?: string;
  codecWidth?: number;
  codecHeight?: number;
  audioSampleRate?: number;
  channelCount?: number;
}

interface FlvDemuxerClass {
  probe(buf: ArrayBuffer): object;
  new (
    probe: object,
    config: object,
  ): {
    onError: (type: string, info: string) => void;
    onMediaInfo: () => void;
    onTrackMetadata: (type: string, meta: PlayerMeta) => void;
    onDataAvailable: (audio: PlayerTrack, video: PlayerTrack) => void;
    parseChunks(chunk: ArrayBuffer, byteStart: number): number;
  };
}

/** The console player's FLV demuxer (mpegts.js, the version apps/web uses) over a whole file. */
async function playerDemux(flv: Buffer): Promise<{
  meta: Record<string, PlayerMeta>;
  video: PlayerSample[];
  audio: PlayerSample[];
  errors: string[];
  consumed: number;
}> {
  // its AAC path picks workarounds by the browser's user agent: Chromium's
  vi.stubGlobal('self', { navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0.0.0 Safari/537.36' } });
  const spec = 'mpegts.js/src/demux/flv-demuxer.js';
  const FLVDemuxer = ((await import(spec)) as { default: FlvDemuxerClass }).default;
  const ab = flv.buffer.slice(flv.byteOffset, flv.byteOffset + flv.length) as ArrayBuffer;
  const d = new FLVDemuxer(FLVDemuxer.probe(ab), {});
  const out = {
    meta: {} as Record<string, PlayerMeta>,
    video: [] as PlayerSample[],
    audio: [] as PlayerSample[],
    errors: [] as string[],
    consumed: 0,
  };
  d.onError = (type, info) => out.errors.push(`${type}: ${info}`);
  d.onMediaInfo = () => {};
  d.onTrackMetadata = (type, m) => (out.meta[type] = m);
  d.onDataAvailable = (a, v) => {
    out.audio.push(...a.samples);
    out.video.push(...v.samples);
    a.samples = [];
    a.length = 0;
    v.samples = [];
    v.length = 0;
  };
  out.consumed = d.parseChunks(ab, 0);
  vi.unstubAllGlobals();
  return out;
}

function videoUnits(aus: Buffer[], codec: 'h264' | 'h265', ptsOffset: number): AccessUnit[] {
  return aus.map((data, i) => ({
    kind: 'video',
    codec,
    streamId: 0xe0,
    pts: 90_000 + i * 3600 + ptsOffset,
    dts: 90_000 + i * 3600,
    data,
    keyframe: isKeyframe(codec, data),
  }));
}

describe("the console's player (mpegts.js FLV demuxer)", () => {
  it('reads H.264 + AAC: avc1 and mp4a codec strings, picture size, every frame with its keyframes and composition time', async () => {
    const packets: AvPacket[] = [];
    const p = new FlvPacketizer({ onPacket: (x) => packets.push(x) });
    const aac = media.aac.map((data, i): AccessUnit => ({
      kind: 'audio',
      codec: 'aac',
      streamId: 0xc0,
      pts: 90_000 + i * 5760,
      dts: 90_000 + i * 5760,
      data,
      keyframe: true,
    }));
    const units = [...videoUnits(media.h264, 'h264', 7200), ...aac].sort((a, b) => a.dts! - b.dts!);
    for (const u of units) p.push(u);
    const flv = flvFile(packets, true);
    const r = await playerDemux(flv);
    expect(r.errors).toEqual([]);
    expect(r.consumed).toBe(flv.length);
    const sps = parseH264Sps(avcSps(packets.find((x) => x.flags === 2)!.data));
    const hex = (n: number) => n.toString(16).padStart(2, '0');
    expect(r.meta.video).toMatchObject({
      codec: `avc1.${hex(sps.profile)}${hex(sps.constraints)}${hex(sps.level)}`,
      codecWidth: 640,
      codecHeight: 360,
    });
    // the AAC as sent (mpegts.js signals it to Chromium as HE-AAC below 24 kHz)
    expect(r.meta.audio).toMatchObject({
      originalCodec: `mp4a.40.${parseAdts(media.aac[0]!).objectType}`,
      audioSampleRate: 16000,
      channelCount: 1,
    });
    expect(r.video.length).toBe(media.h264.length);
    expect(r.video.filter((x) => x.isKeyframe).length).toBe(media.h264.filter((au) => isKeyframe('h264', au)).length);
    expect(r.video.every((x) => x.cts === 80)).toBe(true);
    expect(r.audio.length).toBe(media.aac.length);
  });

  it('reads H.265 as Enhanced FLV hvc1, with and without a composition time', async ({ skip }) => {
    if (!media.h265) return skip('ffmpeg has no libx265');
    for (const offset of [0, 7200]) {
      const packets: AvPacket[] = [];
      const p = new FlvPacketizer({ onPacket: (x) => packets.push(x) });
      for (const u of videoUnits(media.h265, 'h265', offset)) p.push(u);
      const r = await playerDemux(flvFile(packets, false));
      expect(r.errors).toEqual([]);
      expect(r.meta.video).toMatchObject({ codecWidth: 320, codecHeight: 240 });
      expect(r.meta.video!.codec).toMatch(/^hvc1\.1\./);
      expect(r.video.length).toBe(media.h265.length);
      expect(r.video.filter((x) => x.isKeyframe).length).toBe(media.h265.filter((au) => isKeyframe('h265', au)).length);
      expect(r.video.every((x) => x.pts - x.dts === offset / 90)).toBe(true);
    }
  });
});

describe('into the live gateway', () => {
  it('a viewer joining LiveStream mid-stream gets the sequence headers and the GOP from the last keyframe; ffprobe decodes what it got', () => {
    const stream = new LiveStream(1);
    const early: Buffer[] = [];
    const late: Buffer[] = [];
    stream.join({ write: (c) => (early.push(c), true), close: () => {} });
    const p = new FlvPacketizer({ onPacket: (x) => stream.push(x) });
    const aac = media.aac.map((data, i): AccessUnit => ({
      kind: 'audio',
      codec: 'aac',
      streamId: 0xc0,
      pts: 90_000 + i * 5760,
      dts: 90_000 + i * 5760,
      data,
      keyframe: true,
    }));
    const units = [...videoUnits(media.h264, 'h264', 7200), ...aac].sort((a, b) => a.dts! - b.dts!);
    // join after video frame 30: the last keyframe before it is frame 25
    const joinAt = units.findIndex((u) => u.kind === 'video' && u.dts === 90_000 + 30 * 3600);
    units.forEach((u, i) => {
      if (i === joinAt) stream.join({ write: (c) => (late.push(c), true), close: () => {} });
      p.push(u);
    });
    for (const [name, chunks, frames] of [
      ['early.flv', early, media.h264.length],
      ['late.flv', late, media.h264.length - 25],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, Buffer.concat(chunks));
      const vs = probe(file).find((x) => x.codec_type === 'video')!;
      expect(vs).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
      expect(Number(vs.nb_read_frames)).toBe(frames);
    }
  });
});
