import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CAMERA_FPS, CAMERA_HEIGHT, CAMERA_WIDTH, findFfmpeg, SimCamera } from './camera';
import { CLOCK_STRIP, CLOCK_STRIP_MODULUS, clockStripAgeMs, readClockStrip } from './clock-strip';

const FFMPEG = findFfmpeg();
const dir = mkdtempSync(join(tmpdir(), 'bwc-cam-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A frame (scaled by `scale`) with the strip painted as camera.ts lays it out, holding `value`. */
function paint(value: number, scale = 1, blocks?: (k: number, white: boolean) => number): Uint8ClampedArray {
  const width = CLOCK_STRIP.frameWidth * scale;
  const height = CLOCK_STRIP.frameHeight * scale;
  const rgba = new Uint8ClampedArray(width * height * 4).fill(90);
  let ones = 0;
  for (let i = 0; i < CLOCK_STRIP.bits; i++) ones += Math.floor(value / 2 ** i) % 2;
  const white = (k: number) =>
    k === 0 ? true : k === 1 ? false : k < 2 + CLOCK_STRIP.bits ? Math.floor(value / 2 ** (k - 2)) % 2 === 1 : ones % 2 === 1;
  for (let k = 0; k < CLOCK_STRIP.blocks; k++) {
    const level = blocks ? blocks(k, white(k)) : white(k) ? 255 : 0;
    for (let y = CLOCK_STRIP.y * scale; y < (CLOCK_STRIP.y + CLOCK_STRIP.block) * scale; y++)
      for (let x = (CLOCK_STRIP.x + k * CLOCK_STRIP.block) * scale; x < (CLOCK_STRIP.x + (k + 1) * CLOCK_STRIP.block) * scale; x++)
        rgba.fill(level, (y * width + x) * 4, (y * width + x) * 4 + 3);
  }
  return rgba;
}

/** ffmpeg decoding `file` with `args` (output to stdout): the bytes. */
function decode(file: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG!, ['-hide_banner', '-loglevel', 'error', '-i', file, ...args, 'pipe:1']);
    const chunks: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`decode: ${code} ${err}`))));
  });
}

async function frames(file: string): Promise<Uint8ClampedArray[]> {
  const raw = await decode(file, ['-f', 'rawvideo', '-pix_fmt', 'rgba']);
  const size = CAMERA_WIDTH * CAMERA_HEIGHT * 4;
  return Array.from({ length: Math.floor(raw.length / size) }, (_, i) => new Uint8ClampedArray(raw.subarray(i * size, (i + 1) * size)));
}

/** Loudest sample of 16-bit mono audio in [fromS, toS) of `file`. */
async function peak(file: string, fromS: number, toS: number): Promise<number> {
  const pcm = await decode(file, ['-vn', '-ss', String(fromS), '-t', String(toS - fromS), '-f', 's16le', '-ac', '1']);
  let max = 0;
  for (let i = 0; i + 1 < pcm.length; i += 2) max = Math.max(max, Math.abs(pcm.readInt16LE(i)));
  return max;
}

describe('clock strip reader', () => {
  it('reads the value painted, at the camera size and scaled up or down', () => {
    for (const value of [0, 1, 0xabcdef, CLOCK_STRIP_MODULUS - 1, 1_795_603_843_337 % CLOCK_STRIP_MODULUS]) {
      expect(readClockStrip(paint(value), 640, 360)).toBe(value);
      expect(readClockStrip(paint(value, 2), 1280, 720)).toBe(value);
    }
    // a 320x180 tile of a video wall: the blocks are 8 px, their centres still clear
    const big = paint(0x5a5a5a, 1);
    const small = new Uint8ClampedArray(320 * 180 * 4);
    for (let y = 0; y < 180; y++)
      for (let x = 0; x < 320; x++) small.set(big.subarray(((2 * y) * 640 + 2 * x) * 4, ((2 * y) * 640 + 2 * x) * 4 + 4), (y * 320 + x) * 4);
    expect(readClockStrip(small, 320, 180)).toBe(0x5a5a5a);
  });

  it('refuses a frame without the guard, with a wrong parity or an unclear block', () => {
    expect(readClockStrip(new Uint8ClampedArray(640 * 360 * 4), 640, 360)).toBeNull();
    expect(readClockStrip(paint(12345, 1, (k, w) => (k === 0 ? 0 : w ? 255 : 0)), 640, 360)).toBeNull();
    expect(readClockStrip(paint(12345, 1, (k, w) => (k === 2 + CLOCK_STRIP.bits ? (w ? 0 : 255) : w ? 255 : 0)), 640, 360)).toBeNull();
    expect(readClockStrip(paint(12345, 1, (k, w) => (k === 7 ? 128 : w ? 255 : 0)), 640, 360)).toBeNull();
    // video levels after compression are not exact: near black and near white still read
    expect(readClockStrip(paint(12345, 1, (_k, w) => (w ? 230 : 25)), 640, 360)).toBe(12345);
    expect(readClockStrip(new Uint8ClampedArray(10), 640, 360)).toBeNull();
  });

  it('gives the age of a frame across the wrap of the modulus', () => {
    const now = 5 * CLOCK_STRIP_MODULUS + 100;
    expect(clockStripAgeMs(40, now)).toBe(60);
    expect(clockStripAgeMs(CLOCK_STRIP_MODULUS - 50, now)).toBe(150);
    expect(clockStripAgeMs(100, now)).toBe(0);
  });
});

describe.skipIf(!FFMPEG)('camera (ffmpeg)', () => {
  const identity = { hostname: '王伟', hostbody: 'SIM00001' };

  it('paints the capture time into every frame: the H.264 stream read back gives each frame its time', async () => {
    const cam = new SimCamera({ identity });
    const out = join(dir, 'clock.flv');
    const before = Date.now();
    await cam.start(out, { seconds: 3 });
    expect(cam.running).toBe(true);
    await until('the 3 s publish ends', () => !cam.running);
    const after = Date.now();

    const values = (await frames(out)).map((f) => readClockStrip(f, CAMERA_WIDTH, CAMERA_HEIGHT));
    expect(values.length).toBeGreaterThanOrEqual(3 * CAMERA_FPS - 2);
    expect(values.filter((v) => v === null)).toEqual([]);
    // every frame was captured during the run (a wrong bit above the lowest dozen lands hours away)
    for (const v of values) expect(clockStripAgeMs(v!, after)).toBeLessThanOrEqual(after - before);
    // and one frame period after the one before (the low bits); a loaded machine may bunch a few
    const steps = values.slice(1).map((v, i) => (v! - values[i]! + CLOCK_STRIP_MODULUS) % CLOCK_STRIP_MODULUS);
    for (const s of steps) expect(s).toBeLessThan(1000);
    const median = [...steps].sort((a, b) => a - b)[Math.floor(steps.length / 2)]!;
    expect(Math.abs(median - 1000 / CAMERA_FPS)).toBeLessThanOrEqual(8);
    // the span of the clocks is the span of the frames, within a frame or two
    const span = (values.at(-1)! - values[0]! + CLOCK_STRIP_MODULUS) % CLOCK_STRIP_MODULUS;
    expect(Math.abs(span - ((values.length - 1) * 1000) / CAMERA_FPS)).toBeLessThanOrEqual(2 * (1000 / CAMERA_FPS) + 100);
  }, 90_000);

  it('obeys commands while publishing (the same process: mute silences the tone), and stops on stop()', async () => {
    const cam = new SimCamera({ identity });
    const out = join(dir, 'commands.flv');
    await cam.start(out);
    const pid = cam.pid!;
    // a second of picture and sound before the commands
    await until('a second of stream written', () => existsSync(out) && statSync(out).size > 150_000);
    expect(cam.command('turnright')).toBe('panned to 15°');
    expect(cam.command('turnleft')).toBe('panned to 0°');
    for (let i = 0; i < 6; i++) cam.command('turnleft');
    expect(cam.command('turnleft')).toBe('already at -90° (the pan limit)');
    expect(cam.command('startvideo')).toBe('recording');
    expect(cam.command('takephoto')).toBe('photo taken');
    expect(cam.command('startmute')).toBe('muted');
    const muted = statSync(out).size;
    await until('two more seconds written', () => statSync(out).size > muted + 300_000);
    expect(cam.pid).toBe(pid);
    expect(await cam.stop()).toBe(true);
    expect(cam.running).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await cam.stop()).toBe(false);

    expect(await peak(out, 0, 0.8)).toBeGreaterThan(1000);
    const probe = await decode(out, ['-vn', '-f', 's16le', '-ac', '1']);
    const seconds = probe.length / 2 / 44_100;
    expect(await peak(out, seconds - 0.8, seconds)).toBeLessThan(50);
  }, 90_000);
});
