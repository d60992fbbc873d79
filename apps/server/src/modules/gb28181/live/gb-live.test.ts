/**
 * GB28181 live video end to end on real sockets: the server's GbSipPlatform, a simulated GB device
 * (@bwc/simulator/gb: ffmpeg H.264 in PS over RTP), GbLiveService and a real MediaGateway; viewers
 * are gateway sinks, and what they get is checked as FLV bytes and decoded by ffprobe/ffmpeg.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GbSimHub, runningGbStreams, type GbDevice } from '@bwc/simulator/gb';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../../test/wait';
import { FFMPEG } from '../../evidence/ingest/media-tools';
import { MediaGateway, type ViewerSink } from '../../media/gateway';
import { MediaKeys } from '../../media/keys';
import { LiveStream } from '../../media/live-stream';
import { PortAllocator } from '../media';
import { probe } from '../media/test-media';
import { GbSipPlatform } from '../sip';
import { GbLiveService, GbNoMediaError, type GbLiveOptions } from './gb-live.service';

const PLATFORM = '34020000002000000001';
const DOMAIN = '3402000000';
const PASSWORD = '12345678';
const DEVICE_IP = '127.0.0.2';
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const base = 43000 + Math.floor(Math.random() * 2000) * 10;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gb-live-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

interface Tag {
  type: number;
  ts: number;
  data: Buffer;
}

/** A gateway viewer that keeps what it is sent. */
class Viewer implements ViewerSink {
  static ids = 0;
  readonly id = ++Viewer.ids;
  readonly userId = 1;
  readonly address = 'test';
  readonly protocol = 'http' as const;
  readonly since = Date.now();
  bytesOut = 0;
  chunks: Buffer[] = [];
  closedWith: string | null = null;

  write(chunk: Buffer): boolean {
    if (this.closedWith) return false;
    this.chunks.push(chunk);
    this.bytesOut += chunk.length;
    return true;
  }

  close(reason: string): void {
    this.closedWith = reason;
  }

  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** The FLV tags after the 13-byte header (FLV v10.1 E.2, E.3); a cut last tag is left out. */
  tags(): Tag[] {
    const b = this.bytes;
    const out: Tag[] = [];
    let at = 13;
    while (at + 11 <= b.length) {
      const size = b.readUIntBE(at + 1, 3);
      if (at + 11 + size + 4 > b.length) break;
      const ts = b.readUIntBE(at + 4, 3) | (b[at + 7]! << 24);
      out.push({ type: b[at]!, ts, data: b.subarray(at + 11, at + 11 + size) });
      expect(b.readUInt32BE(at + 11 + size)).toBe(11 + size);
      at += 11 + size + 4;
    }
    return out;
  }

  videoFrames(): number {
    return this.tags().filter((t) => t.type === 9 && t.data[1] === 1).length;
  }

  /** AAC raw frames (E.4.2.1: sound format 10, AACPacketType 1) */
  audioFrames(): number {
    return this.tags().filter((t) => t.type === 8 && t.data[0]! >> 4 === 10 && t.data[1] === 1).length;
  }

  /** The FLV header's TypeFlags (E.2): 4 audio, 1 video. */
  get typeFlags(): number {
    return this.bytes[4]!;
  }
}

async function setup(
  opts: Partial<GbLiveOptions> = {},
  platformOpts: Partial<ConstructorParameters<typeof GbSipPlatform>[0]> = {},
  device: { audio?: boolean } = {},
) {
  const platform = new GbSipPlatform({
    ...platformOpts,
    platformId: PLATFORM,
    domain: DOMAIN,
    host: '127.0.0.1',
    port: 0,
    passwordFor: async () => PASSWORD,
    minExpiresSec: 1,
  });
  platform.setMaxListeners(0);
  await platform.start();
  cleanup.push(() => platform.stop());
  const hub = new GbSimHub({ host: DEVICE_IP });
  await hub.start();
  cleanup.push(() => hub.stop());
  const dev: GbDevice = hub.device({
    deviceId: '34020000001320000001',
    password: PASSWORD,
    channels: 1,
    ...device,
    server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: platform.port },
  });
  expect(await dev.start()).toBe(true);
  const gateway = new MediaGateway(new MediaKeys(randomBytes(32), undefined as never), log);
  const ports = new PortAllocator(base, base + 9);
  const live = new GbLiveService({
    platform,
    gateway,
    platformId: PLATFORM,
    domain: DOMAIN,
    mediaAddress: '127.0.0.1',
    bindHost: '127.0.0.1',
    ports,
    signingKey: randomBytes(32),
    idleMs: 1000,
    log,
    ...opts,
  });
  cleanup.push(() => live.close());
  let invites = 0;
  dev.on('streaming', () => invites++);
  return { platform, hub, dev, gateway, ports, live, channel: dev.channelIds[0]!, invites: () => invites };
}

/** The viewer's FLV as a file: ffprobe's frame count and two decoded frames (64x36 grey) that differ. */
function checkDecodes(v: Viewer, name: string): { frames: number; width: number } {
  const file = join(dir, `${name}.flv`);
  writeFileSync(file, v.bytes);
  const video = probe(file).find((s) => s.codec_type === 'video');
  expect(video?.codec_name).toBe('h264');
  const frames = Number(video?.nb_read_frames);
  expect(frames).toBeGreaterThanOrEqual(10);
  const raw = spawnSync(
    FFMPEG,
    ['-v', 'error', '-i', file, '-vf', 'scale=64:36', '-pix_fmt', 'gray', '-f', 'rawvideo', '-'],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  expect(raw.status).toBe(0);
  const size = 64 * 36;
  const decoded = Math.floor(raw.stdout.length / size);
  expect(decoded).toBe(frames);
  const first = raw.stdout.subarray(0, size);
  const last = raw.stdout.subarray((decoded - 1) * size, decoded * size);
  expect(first.equals(last)).toBe(false);
  return { frames, width: video!.width! };
}

/** Header, AVC sequence header before any frame, a keyframe first. */
function checkStart(v: Viewer): void {
  const b = v.bytes;
  expect(b.subarray(0, 3).toString()).toBe('FLV');
  const video = v.tags().filter((t) => t.type === 9);
  expect(video[0]!.data.subarray(0, 2)).toEqual(Buffer.from([0x17, 0x00]));
  // AVCDecoderConfigurationRecord: version 1, baseline profile (the simulator's libx264 baseline)
  expect(video[0]!.data[5]).toBe(1);
  expect(video[0]!.data[6]).toBe(66);
  expect(video[1]!.data.subarray(0, 2)).toEqual(Buffer.from([0x17, 0x01]));
}

function udpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = dgram.createSocket('udp4');
    s.once('error', () => resolve(false));
    s.bind(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

describe('GB28181 live video into the media gateway', () => {
  it('UDP: INVITE, FLV to a viewer that decodes and moves; the last viewer leaving stops it (BYE, ffmpeg gone, port free)', async () => {
    const { live, gateway, dev, ports, channel } = await setup();
    const t0 = performance.now();
    const info = await live.start(channel, dev.id);
    expect(info).toMatchObject({
      key: `gb:${dev.id}_${channel}`,
      name: `gb-${dev.id}_${channel}.flv`,
      transport: 'udp',
      hasAudio: true,
    });
    expect(info.ssrc).toMatch(/^020000\d{4}$/);
    expect(ports.inUse).toBe(1);
    const v = new Viewer();
    expect(gateway.watch(info.key, v)).toBe(true);
    // a body-camera device id never meets a GB key
    expect(gateway.watch(Number(channel.slice(-6)), new Viewer())).toBe(false);
    await until('25 video frames', () => v.videoFrames() >= 25, 20_000);
    console.warn(
      `GB live UDP: INVITE answered in ${info.answeredMs} ms, first keyframe ${live.keyframeDelays[0]} ms after INVITE (${Math.round(performance.now() - t0)} ms to 25 frames)`,
    );
    // the device's G.711A comes out as AAC: the header names audio, AAC tags follow
    await until('10 AAC frames', () => v.audioFrames() >= 10, 20_000);
    expect(v.typeFlags).toBe(5);
    checkStart(v);
    const { width } = checkDecodes(v, 'udp');
    expect(width).toBe(640);
    const audio = probe(join(dir, 'udp.flv')).find((st) => st.codec_type === 'audio');
    expect(audio?.codec_name).toBe('aac');
    expect(Number(audio?.nb_read_frames)).toBeGreaterThanOrEqual(10);
    const stopped = new Promise<{ reason: string }>((r) => dev.once('streamStopped', r));
    gateway.unwatch(info.key, v);
    // idle time (1 s) later: BYE; the device stops ffmpeg
    expect((await stopped).reason).toMatch(/bye/i);
    expect(v.closedWith).toBeNull(); // it had left already
    expect(live.has(info.key)).toBe(false);
    expect(gateway.keyed.has(info.key)).toBe(false);
    await until('the device has no ffmpeg left', () => runningGbStreams() === 0, 5000);
    expect(ports.inUse).toBe(0);
    expect(await udpPortFree(base)).toBe(true);
  }, 60_000);

  it('a video-only device: hasAudio false, the FLV header names video only, no audio tags', async () => {
    const { live, gateway, dev, channel } = await setup({}, {}, { audio: false });
    const info = await live.start(channel, dev.id);
    expect(info.hasAudio).toBe(false);
    const v = new Viewer();
    gateway.watch(info.key, v);
    await until('25 video frames', () => v.videoFrames() >= 25, 20_000);
    expect(v.typeFlags).toBe(1);
    expect(v.tags().filter((t) => t.type === 8)).toEqual([]);
    checkStart(v);
    checkDecodes(v, 'video-only');
    expect(probe(join(dir, 'video-only.flv')).some((st) => st.codec_type === 'audio')).toBe(false);
    // body-camera streams keep a header naming both
    expect(LiveStream.header()[4]).toBe(5);
    live.stop(info.key);
  }, 60_000);

  it('a device that answers but sends no media: GbNoMediaError after mediaWaitMs, the call hung up, nothing left', async () => {
    // the device sends to 127.0.0.3; the receiver listens on 127.0.0.1 only
    const { live, gateway, dev, channel, ports } = await setup({ mediaAddress: '127.0.0.3', mediaWaitMs: 800 });
    const hungUp = new Promise<{ reason: string }>((r) => dev.once('streamStopped', r));
    const t0 = performance.now();
    await expect(live.start(channel, dev.id)).rejects.toThrow(GbNoMediaError);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(790);
    expect((await hungUp).reason).toBe('BYE');
    expect(ports.inUse).toBe(0);
    expect(gateway.keyed.size).toBe(0);
    expect(live.has(`gb:${dev.id}_${channel}`)).toBe(false);
    await until('the device has no ffmpeg left', () => runningGbStreams() === 0, 5000);
  }, 30_000);

  it('two viewers asking at once share one INVITE; the device BYE ends the stream for both', async () => {
    const { live, gateway, dev, channel, invites } = await setup();
    const [a, b] = await Promise.all([live.start(channel, dev.id), live.start(channel, dev.id)]);
    expect(a).toBe(b);
    const v1 = new Viewer();
    const v2 = new Viewer();
    gateway.watch(a.key, v1);
    await until('viewer 1 frames', () => v1.videoFrames() >= 5, 20_000);
    gateway.watch(a.key, v2);
    await until('viewer 2 frames', () => v2.videoFrames() >= 5, 20_000);
    // the second viewer joined mid-stream: it starts at the cached GOP's keyframe
    checkStart(v2);
    expect(invites()).toBe(1);
    expect((await live.start(channel, dev.id)).ssrc).toBe(a.ssrc);
    expect(invites()).toBe(1);
    // the device hangs up (it is stopped: BYE, then it unregisters)
    await dev.stop();
    await until('viewers closed', () => v1.closedWith !== null && v2.closedWith !== null, 10_000);
    expect(v1.closedWith).toBe('ended');
    expect(v2.closedWith).toBe('ended');
    expect(live.has(a.key)).toBe(false);
  }, 60_000);

  it('TCP passive: the device connects to our port; decodes', async () => {
    const { live, gateway, dev, channel, ports } = await setup({ transport: 'tcp-passive' });
    const info = await live.start(channel, dev.id);
    expect(info.transport).toBe('tcp-passive');
    const v = new Viewer();
    gateway.watch(info.key, v);
    await until('25 video frames', () => v.videoFrames() >= 25, 20_000);
    console.warn(`GB live TCP passive: first keyframe ${live.keyframeDelays[0]} ms after INVITE`);
    checkStart(v);
    checkDecodes(v, 'tcp-passive');
    expect(live.stop(info.key)).toBe(true);
    expect(v.closedWith).toBe('stopped');
    await until('the device has no ffmpeg left', () => runningGbStreams() === 0, 5000);
    expect(ports.inUse).toBe(0);
  }, 60_000);

  it('TCP active: we connect to the device; decodes', async () => {
    const { live, gateway, dev, channel, ports } = await setup();
    const info = await live.start(channel, dev.id, 'tcp-active');
    const v = new Viewer();
    gateway.watch(info.key, v);
    await until('25 video frames', () => v.videoFrames() >= 25, 20_000);
    console.warn(`GB live TCP active: first keyframe ${live.keyframeDelays[0]} ms after INVITE`);
    checkDecodes(v, 'tcp-active');
    expect(ports.inUse).toBe(0);
    live.stop(info.key);
    await until('the device has no ffmpeg left', () => runningGbStreams() === 0, 5000);
  }, 60_000);

  it('a stream whose RTP stops is ended by the receiver timeout (BYE to the device)', async () => {
    const { live, gateway, dev, channel, ports } = await setup({ receiverTimeoutMs: 800 });
    const streaming = new Promise<{ pid: number | undefined }>((r) => dev.once('streaming', r));
    const info = await live.start(channel, dev.id);
    const v = new Viewer();
    gateway.watch(info.key, v);
    await until('frames', () => v.videoFrames() >= 3, 20_000);
    const { pid } = await streaming;
    // freeze the device's encoder: no more RTP
    process.kill(pid!, 'SIGSTOP');
    cleanup.push(() => {
      try {
        process.kill(pid!, 'SIGKILL');
      } catch {
        /* gone already */
      }
    });
    const hungUp = new Promise<{ reason: string }>((r) => dev.once('streamStopped', r));
    await until('viewer closed', () => v.closedWith !== null, 10_000);
    expect(v.closedWith).toBe('timeout');
    expect((await hungUp).reason).toBe('BYE');
    expect(live.has(info.key)).toBe(false);
    expect(ports.inUse).toBe(0);
  }, 60_000);

  it('a device that goes offline (keepalives missed) ends its streams; the BYE still reaches it', async () => {
    // the platform wants a keepalive every second; the simulated device sends one a minute
    const { live, gateway, dev, channel, ports } = await setup(
      {},
      { keepaliveIntervalSec: 1, keepaliveTimeoutCount: 2, checkIntervalMs: 100 },
    );
    const info = await live.start(channel, dev.id);
    const v = new Viewer();
    gateway.watch(info.key, v);
    const hungUp = new Promise<{ reason: string }>((r) => dev.once('streamStopped', r));
    await until('viewer closed', () => v.closedWith !== null, 10_000);
    expect(v.closedWith).toBe('offline');
    expect((await hungUp).reason).toBe('BYE');
    expect(live.has(info.key)).toBe(false);
    expect(ports.inUse).toBe(0);
    await until('the device has no ffmpeg left', () => runningGbStreams() === 0, 5000);
  }, 60_000);

  it('playback of a 2 s range: s=Playback under its own key; the device BYE at the end closes the viewer', async () => {
    const { live, gateway, dev, channel, ports } = await setup();
    const start = Math.floor(Date.now() / 1000) - 600;
    const info = await live.startPlayback(channel, dev.id, start, start + 2);
    expect(info.key).toBe(`gbpb:${dev.id}_${channel}_${start}_${start + 2}`);
    expect(info.ssrc).toMatch(/^120000\d{4}$/);
    expect(info.hasAudio).toBe(true);
    const v = new Viewer();
    gateway.watch(info.key, v);
    await until('the device ends the playback', () => v.closedWith !== null, 20_000);
    expect(v.closedWith).toBe('ended');
    checkStart(v);
    // 2 s at 25 fps (the first frames may come before the viewer joined: it gets the GOP)
    const { frames } = checkDecodes(v, 'playback');
    expect(frames).toBeGreaterThanOrEqual(40);
    expect(frames).toBeLessThanOrEqual(50);
    expect(ports.inUse).toBe(0);
    await expect(live.startPlayback(channel, dev.id, start, start)).rejects.toThrow(RangeError);
  }, 60_000);

  it('playback pause and resume (MANSRTSP INFO): silence while paused is not a timeout, pictures come again', async () => {
    // a receiver timeout of 1 s: a pause longer than that must not end the playback
    const { live, gateway, dev, channel } = await setup({ receiverTimeoutMs: 1000 });
    const start = Math.floor(Date.now() / 1000) - 3600;
    const info = await live.startPlayback(channel, dev.id, start, start + 60);
    const v = new Viewer();
    gateway.watch(info.key, v);
    await until('frames before the pause', () => v.videoFrames() >= 10, 20_000);
    const controls: string[] = [];
    dev.on('playbackControl', (e: { command: string }) => controls.push(e.command));
    expect(await live.control(info.key, { command: 'pause' })).toBe(true);
    expect(live.paused(info.key)).toBe(true);
    expect(controls).toEqual(['pause']);
    // frames already on their way may still land; then nothing for longer than the receiver timeout
    let before = -1;
    await until(
      'frames stop arriving',
      async () => {
        const n = v.videoFrames();
        const settled = n === before;
        before = n;
        if (!settled) await new Promise((r) => setTimeout(r, 300));
        return settled;
      },
      10_000,
    );
    const paused = v.videoFrames();
    await new Promise((r) => setTimeout(r, 2500));
    expect(v.videoFrames()).toBe(paused);
    expect(live.has(info.key)).toBe(true);
    expect(v.closedWith).toBeNull();
    expect(await live.control(info.key, { command: 'resume' })).toBe(true);
    expect(live.paused(info.key)).toBe(false);
    await until('frames after the resume', () => v.videoFrames() >= paused + 10, 20_000);
    // a live stream or an unknown key has no playback to control
    expect(await live.control(`gbpb:${dev.id}_${channel}_1_2`, { command: 'pause' })).toBe(false);
    expect(await live.control(`gb:${dev.id}_${channel}`, { command: 'pause' })).toBe(false);
    live.stop(info.key);
  }, 90_000);

  it('playback seek (MANSRTSP Range) out of a pause plays the span from there: the device ends it after the rest only', async () => {
    // a receiver timeout of 1 s: neither the pause nor the device's restart at the new point end the playback
    const { live, gateway, dev, channel } = await setup({ receiverTimeoutMs: 1000 });
    const SPAN = 30;
    const OFFSET = 26;
    const start = Math.floor(Date.now() / 1000) - 3600;
    const info = await live.startPlayback(channel, dev.id, start, start + SPAN);
    expect(live.playbackSpan(info.key)).toEqual({ start, end: start + SPAN });
    const v = new Viewer();
    gateway.watch(info.key, v);
    await until('frames before the seek', () => v.videoFrames() >= 10, 20_000);
    const controls: object[] = [];
    dev.on('playbackControl', ({ command, offset }: { command: string; offset?: number }) =>
      controls.push(offset === undefined ? { command } : { command, offset }),
    );
    expect(await live.control(info.key, { command: 'pause' })).toBe(true);
    await new Promise((r) => setTimeout(r, 1500)); // longer than the receiver timeout
    expect(live.has(info.key)).toBe(true);
    const before = v.videoFrames();
    const seekedAt = performance.now();
    expect(await live.control(info.key, { command: 'seek', offset: OFFSET })).toBe(true);
    // a seek is a PLAY: the playback is no longer paused
    expect(live.paused(info.key)).toBe(false);
    expect(controls).toEqual([{ command: 'pause' }, { command: 'seek', offset: OFFSET }]);
    // the device plays the last SPAN - OFFSET s and hangs up: the whole span would take SPAN s more
    await until('the device ends the playback', () => v.closedWith !== null, 20_000);
    expect(v.closedWith).toBe('ended');
    const tookMs = performance.now() - seekedAt;
    expect(tookMs).toBeGreaterThan((SPAN - OFFSET - 1) * 1000);
    expect(tookMs).toBeLessThan((SPAN - OFFSET) * 1000 * 2.5);
    const after = v.videoFrames() - before;
    expect(after).toBeGreaterThanOrEqual((SPAN - OFFSET) * 25 - 30);
    expect(after).toBeLessThanOrEqual((SPAN - OFFSET) * 25 + 5);
  }, 90_000);

  it('playback speed (MANSRTSP Scale): at 2x about twice the frames a second reach the viewer, time stamps at the pace of real time', async () => {
    const { live, gateway, dev, channel } = await setup();
    const start = Math.floor(Date.now() / 1000) - 3600;
    const info = await live.startPlayback(channel, dev.id, start, start + 60);
    const v = new Viewer();
    gateway.watch(info.key, v);
    const video = () => v.tags().filter((t) => t.type === 9 && t.data[1] === 1);
    /** frames a second arriving over the next `n` frames, and the FLV time stamps they span (ms) */
    const measure = async (n: number) => {
      const from = v.videoFrames();
      const t0 = performance.now();
      await until(`${n} more frames`, () => v.videoFrames() >= from + n, 20_000);
      const seconds = (performance.now() - t0) / 1000;
      const tags = video().slice(from, from + n);
      return { fps: n / seconds, stamped: tags[tags.length - 1]!.ts - tags[0]!.ts, seconds };
    };
    await until('the stream runs', () => v.videoFrames() >= 10, 20_000);
    const normal = await measure(40);
    expect(await live.control(info.key, { command: 'speed', scale: 2 })).toBe(true);
    await measure(10); // the 1x run's last frames and the device's restart
    const double = await measure(80);
    const ratio = double.fps / normal.fps;
    console.warn(
      `gb playback at scale 2: ${double.fps.toFixed(1)} frames/s vs ${normal.fps.toFixed(1)} at 1 (x${ratio.toFixed(2)})`,
    );
    expect(ratio).toBeGreaterThan(1.4);
    expect(ratio).toBeLessThan(2.8);
    // a frame lasts 40 ms at 1x and 20 ms at 2x: the time stamps keep real time's pace
    expect(normal.stamped / 39).toBeCloseTo(40, 0);
    expect(double.stamped / 79).toBeCloseTo(20, 0);
    expect(await live.control(info.key, { command: 'speed', scale: 1 })).toBe(true);
    await measure(10);
    const back = await measure(40);
    expect(back.fps / double.fps).toBeLessThan(0.75);
    live.stop(info.key);
  }, 90_000);

  it('an unanswered INVITE and a stop while the INVITE runs leave no port, SSRC or stream behind', async () => {
    const { live, gateway, dev, channel, ports, invites } = await setup({}, { inviteTimeoutMs: 1000 });
    // the simulator drops requests for a user it does not have: no answer within the 1 s INVITE timeout
    const unknown = `${channel.slice(0, 10)}1319999999`;
    await expect(live.start(unknown, dev.id)).rejects.toMatchObject({ code: 'timeout' });
    // a pause asked while such a playback starts: no playback to control, and no throw
    const failing = live.startPlayback(unknown, dev.id, 100, 200);
    const control = live.control(`gbpb:${dev.id}_${unknown}_100_200`, { command: 'pause' });
    await expect(failing).rejects.toMatchObject({ code: 'timeout' });
    expect(await control).toBe(false);
    expect(ports.inUse).toBe(0);
    expect(gateway.keyed.size).toBe(0);
    expect(live.has(`gb:${dev.id}_${unknown}`)).toBe(false);
    // stopped when the device has the INVITE: its 200 still comes, and the call is hung up
    dev.once('invite', () => expect(live.stop(`gb:${dev.id}_${channel}`)).toBe(true));
    const hungUp = new Promise<{ reason: string }>((r) => dev.once('streamStopped', r));
    await expect(live.start(channel, dev.id)).rejects.toThrow(/stopped/);
    expect((await hungUp).reason).toBe('BYE');
    await until('the device has no ffmpeg left', () => runningGbStreams() === 0, 5000);
    expect(invites()).toBe(1);
    expect(ports.inUse).toBe(0);
    expect(gateway.keyed.size).toBe(0);
    // the SSRC came back: a new start works and streams
    const info = await live.start(channel, dev.id);
    const v = new Viewer();
    gateway.watch(info.key, v);
    await until('frames', () => v.videoFrames() >= 3, 20_000);
    live.stop(info.key);
  }, 60_000);

  it('play tokens: signed for one user and one key, expiring', async () => {
    const { live } = await setup();
    const token = live.playToken(7, 'gb:34020000001310000001', 60_000);
    expect(live.checkPlayToken('gb:34020000001310000001', token)).toEqual({ userId: 7 });
    expect(live.checkPlayToken('gb:34020000001310000002', token)).toEqual({ refused: 'signature' });
    expect(live.checkPlayToken('gb:34020000001310000001', token.replace(/^7\./, '8.'))).toEqual({
      refused: 'signature',
    });
    const old = live.playToken(7, 'gb:1', 1000, Date.now() - 5000);
    expect(live.checkPlayToken('gb:1', old)).toEqual({ refused: 'expired' });
    expect(live.checkPlayToken('gb:1', 'x.y')).toEqual({ refused: 'malformed' });
  }, 30_000);
});
