import { inflateSync } from 'node:zlib';
import { AiAlarmRequest } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { buildAiResult, nextAiDelayMs, randomPlate } from './ai';
import { rng } from './path';
import { Canvas, crc32, drawFace, drawPlate, encodePng, randomFace, type Rgb } from './picture';

/** A reader for what encodePng writes (8-bit RGB, filter 0): checks every chunk's CRC. */
function decodePng(png: Buffer): { width: number; height: number; rgb: Buffer } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  const types: string[] = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + len);
    expect(png.readUInt32BE(at + 8 + len)).toBe(crc32(png.subarray(at + 4, at + 8 + len)));
    types.push(type);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect([...body.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
    }
    if (type === 'IDAT') idat.push(body);
    at += 12 + len;
  }
  expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  expect(raw.length).toBe((stride + 1) * height);
  const rgb = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (stride + 1)]).toBe(0);
    raw.copy(rgb, y * stride, y * (stride + 1) + 1, (y + 1) * (stride + 1));
  }
  return { width, height, rgb };
}

const at = (d: { width: number; rgb: Buffer }, x: number, y: number): Rgb => {
  const i = (y * d.width + x) * 3;
  return [d.rgb[i]!, d.rgb[i + 1]!, d.rgb[i + 2]!];
};

describe('PNG encoder', () => {
  it('computes the PNG CRC-32 (IEND chunk of every PNG)', () => {
    expect(crc32(Buffer.from('IEND', 'ascii'))).toBe(0xae426082);
    expect(crc32(Buffer.from('123456789', 'ascii'))).toBe(0xcbf43926);
  });

  it('round-trips pixels of a non-square canvas', () => {
    const c = new Canvas(7, 3, [10, 20, 30]);
    c.set(0, 0, [255, 0, 0]);
    c.set(6, 2, [0, 255, 0]);
    c.fillRect(2, 1, 2, 1, [1, 2, 3]);
    const d = decodePng(c.png());
    expect([d.width, d.height]).toEqual([7, 3]);
    expect(at(d, 0, 0)).toEqual([255, 0, 0]);
    expect(at(d, 6, 2)).toEqual([0, 255, 0]);
    expect(at(d, 2, 1)).toEqual([1, 2, 3]);
    expect(at(d, 3, 1)).toEqual([1, 2, 3]);
    expect(at(d, 4, 1)).toEqual([10, 20, 30]);
  });

  it('refuses a buffer of the wrong size and absurd canvases', () => {
    expect(() => encodePng(2, 2, new Uint8Array(11))).toThrow(/expected 12 bytes/);
    expect(() => new Canvas(0, 5)).toThrow(/out of range/);
    expect(() => new Canvas(5000, 5000)).toThrow(/out of range/);
  });
});

describe('generated pictures', () => {
  it('a face: skin in the middle, background in the corner, shirt at the bottom; same seed same bytes', () => {
    const f = randomFace(rng(7));
    const d = decodePng(drawFace(f, 96, [200, 210, 220]).png());
    expect(at(d, 0, 0)).toEqual([200, 210, 220]);
    // a cheek
    expect(at(d, 38, 50)).toEqual(f.skin);
    expect(at(d, 48, 94)).toEqual(f.shirt);
    expect(
      drawFace(randomFace(rng(7)), 96)
        .png()
        .equals(drawFace(randomFace(rng(7)), 96).png()),
    ).toBe(true);
    expect(
      drawFace(randomFace(rng(8)), 96)
        .png()
        .equals(drawFace(f, 96).png()),
    ).toBe(false);
  });

  it('a plate: white dots of the characters on blue', () => {
    const d = decodePng(drawPlate('B1', 60).png());
    const colours = new Set<string>();
    for (let y = 0; y < d.height; y++) for (let x = 0; x < d.width; x++) colours.add(at(d, x, y).join(','));
    expect(colours).toContain('245,245,245');
    expect(colours).toContain('30,80,200');
    // "1" and "B" differ: a plate of other characters is another picture
    expect(drawPlate('B1', 60).png().equals(drawPlate('B7', 60).png())).toBe(false);
  });

  it('plate numbers: region, middle dot, five letters or digits', () => {
    const random = rng(3);
    for (let i = 0; i < 50; i++) expect(randomPlate(random)).toMatch(/^[\u4e00-\u9fa5][A-Z]·[A-HJ-NP-Z0-9]{5}$/);
  });
});

describe('AI engine results', () => {
  const device = { hostbody: 'SIM00003', hostname: '张伟', lat: 22.54, lng: 114.05 };

  it('a face result is a valid AiAlarmRequest with scene, face crop and watch-list photo', () => {
    const body = buildAiResult({
      kind: 'face',
      eventId: 'SIM-face-1',
      device,
      random: rng(1),
      time: Date.UTC(2026, 0, 2, 3, 4, 5),
    });
    const parsed = AiAlarmRequest.parse(body);
    expect(parsed).toMatchObject({
      event_id: 'SIM-face-1',
      kind: 'face',
      deviceid: 'SIM00003',
      hostname: '张伟',
      lat: 22.54,
      lng: 114.05,
    });
    expect(parsed.shottime).toBe('2026-01-02T03:04:05.000Z');
    expect(parsed.imgfile.startsWith('data:image/png;base64,')).toBe(true);
    const scene = decodePng(Buffer.from(parsed.imgfile.slice('data:image/png;base64,'.length), 'base64'));
    expect([scene.width, scene.height]).toEqual([320, 240]);
    expect(decodePng(Buffer.from(parsed.imgfile_small!, 'base64')).width).toBe(96);
    expect(parsed.compare_result).toHaveLength(1);
    const best = parsed.compare_result[0]!;
    expect(best.similarity).toBeGreaterThanOrEqual(80);
    expect(best.similarity).toBeLessThanOrEqual(99);
    expect(best.name.length).toBeGreaterThan(1);
    expect(decodePng(Buffer.from(best.face_image!, 'base64')).height).toBe(96);
  });

  it('a plate result names the plate with its picture; no position without a fix', () => {
    const body = buildAiResult({
      kind: 'plate',
      eventId: 'SIM-plate-1',
      device: { hostbody: 'SIM00004', hostname: '李芳' },
      random: rng(2),
    });
    const parsed = AiAlarmRequest.parse(body);
    expect(parsed.kind).toBe('plate');
    expect(parsed.compare_result[0]!.name).toMatch(/·/);
    // the watch list's plate picture
    expect(decodePng(Buffer.from(parsed.compare_result[0]!.face_image!, 'base64')).width).toBe(160);
    expect(parsed.lat).toBeUndefined();
    expect(parsed.lng).toBeUndefined();
  });

  it('delays between results average 60/rate seconds; rate 0 is never', () => {
    const random = rng(5);
    const n = 4000;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += nextAiDelayMs(2, random);
    expect(sum / n).toBeGreaterThan(27_000);
    expect(sum / n).toBeLessThan(33_000);
    expect(nextAiDelayMs(0, random)).toBe(Infinity);
    expect(nextAiDelayMs(0.0001, random)).toBeLessThanOrEqual(2 ** 31 - 1);
  });
});
