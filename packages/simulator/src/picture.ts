import { deflateSync } from 'node:zlib';

/**
 * Generated pictures for the simulated AI engine: a small RGB canvas, a PNG encoder (zlib from
 * node, nothing else), and drawings of a face, a licence plate and a street scene holding either.
 * Every picture is drawn from a seeded random source, so a seed gives the same bytes.
 */

export class Canvas {
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb = [255, 255, 255],
  ) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width * height > 4e6)
      throw new Error(`canvas size ${width}x${height} is out of range`);
    this.data = new Uint8Array(width * height * 3);
    this.fillRect(0, 0, width, height, background);
  }

  pixel(x: number, y: number): Rgb {
    const i = (y * this.width + x) * 3;
    return [this.data[i]!, this.data[i + 1]!, this.data[i + 2]!];
  }

  set(x: number, y: number, c: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 3;
    this.data[i] = c[0];
    this.data[i + 1] = c[1];
    this.data[i + 2] = c[2];
  }

  fillRect(x: number, y: number, w: number, h: number, c: Rgb): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) this.set(xx, yy, c);
  }

  /** Filled ellipse centred on (cx, cy) with radii rx, ry; `from`..`to` limits it to rows (half ellipses). */
  fillEllipse(cx: number, cy: number, rx: number, ry: number, c: Rgb, from = -Infinity, to = Infinity): void {
    const y0 = Math.max(0, Math.floor(cy - ry), Math.ceil(from));
    const y1 = Math.min(this.height - 1, Math.ceil(cy + ry), Math.floor(to));
    for (let y = y0; y <= y1; y++) {
      const dy = (y + 0.5 - cy) / ry;
      if (dy * dy > 1) continue;
      const half = rx * Math.sqrt(1 - dy * dy);
      for (let x = Math.max(0, Math.round(cx - half)); x < Math.min(this.width, Math.round(cx + half)); x++)
        this.set(x, y, c);
    }
  }

  /** Vertical gradient from `top` to `bottom` over the rows y..y+h. */
  gradient(x: number, y: number, w: number, h: number, top: Rgb, bottom: Rgb): void {
    for (let r = 0; r < h; r++) {
      const t = h > 1 ? r / (h - 1) : 0;
      this.fillRect(x, y + r, w, 1, mix(top, bottom, t));
    }
  }

  /** Copy of a region, scaled to w x h by nearest neighbour. */
  crop(x: number, y: number, cw: number, ch: number, w = cw, h = ch): Canvas {
    const out = new Canvas(w, h);
    for (let yy = 0; yy < h; yy++)
      for (let xx = 0; xx < w; xx++) {
        const sx = Math.min(this.width - 1, Math.max(0, Math.floor(x + (xx * cw) / w)));
        const sy = Math.min(this.height - 1, Math.max(0, Math.floor(y + (yy * ch) / h)));
        out.set(xx, yy, this.pixel(sx, sy));
      }
    return out;
  }

  /** Paste another canvas with its top-left corner at (x, y). */
  draw(src: Canvas, x: number, y: number): void {
    for (let yy = 0; yy < src.height; yy++)
      for (let xx = 0; xx < src.width; xx++) this.set(x + xx, y + yy, src.pixel(xx, yy));
  }

  /** Text in the 5x7 block font (A-Z, 0-9, '-', '.', ' '); `scale` pixels per font dot. */
  text(x: number, y: number, text: string, scale: number, c: Rgb): void {
    let cx = x;
    for (const ch of text.toUpperCase()) {
      const rows = FONT[ch] ?? FONT['?']!;
      rows.forEach((bits, r) => {
        for (let col = 0; col < 5; col++)
          if (bits & (0x10 >> col)) this.fillRect(cx + col * scale, y + r * scale, scale, scale, c);
      });
      cx += 6 * scale;
    }
  }

  png(): Buffer {
    return encodePng(this.width, this.height, this.data);
  }
}

export type Rgb = [number, number, number];

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * t)) as Rgb;
}

// ---- PNG ------------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG chunks use it. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'ascii');
  Buffer.from(body.buffer, body.byteOffset, body.length).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
  return out;
}

/** PNG (8-bit RGB, no interlace, filter 0 on every row) of `rgb` (width * height * 3 bytes). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  if (rgb.length !== width * height * 3) throw new Error(`expected ${width * height * 3} bytes, got ${rgb.length}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

// ---- drawings ---------------------------------------------------------------------------------

const SKIN: Rgb[] = [
  [241, 208, 180],
  [226, 184, 150],
  [205, 160, 120],
  [176, 128, 92],
];
const HAIR: Rgb[] = [
  [30, 24, 20],
  [60, 40, 28],
  [90, 70, 50],
  [20, 20, 24],
];
const SHIRT: Rgb[] = [
  [40, 70, 130],
  [150, 40, 40],
  [60, 110, 70],
  [90, 90, 90],
  [200, 170, 60],
];

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;

/** Features of one generated person: a face drawn from the same features looks the same. */
export interface FaceFeatures {
  skin: Rgb;
  hair: Rgb;
  shirt: Rgb;
  /** head width / height ratio 0.72..0.9 */
  headRatio: number;
  /** eye spacing, fraction of the head width */
  eyeGap: number;
  /** mouth width, fraction of the head width */
  mouth: number;
  /** hair covers the top this fraction of the head */
  fringe: number;
  glasses: boolean;
}

export function randomFace(random: () => number): FaceFeatures {
  return {
    skin: pick(SKIN, random),
    hair: pick(HAIR, random),
    shirt: pick(SHIRT, random),
    headRatio: 0.72 + 0.18 * random(),
    eyeGap: 0.34 + 0.1 * random(),
    mouth: 0.26 + 0.16 * random(),
    fringe: 0.22 + 0.14 * random(),
    glasses: random() < 0.25,
  };
}

/** A portrait (head and shoulders) of `size` x `size` pixels on a plain background. */
export function drawFace(f: FaceFeatures, size: number, background: Rgb = [214, 222, 230]): Canvas {
  const c = new Canvas(size, size, background);
  const cx = size / 2;
  const headH = size * 0.56;
  const headW = headH * f.headRatio;
  const cy = size * 0.44;
  // shoulders and neck
  c.fillEllipse(cx, size * 1.02, size * 0.46, size * 0.3, f.shirt);
  c.fillRect(cx - headW * 0.18, cy + headH * 0.35, headW * 0.36, headH * 0.3, f.skin);
  // hair behind, head, fringe
  c.fillEllipse(cx, cy - headH * 0.04, headW * 0.56, headH * 0.54, f.hair);
  c.fillEllipse(cx, cy, headW / 2, headH / 2, f.skin);
  c.fillEllipse(cx, cy - headH * 0.04, headW * 0.54, headH * 0.52, f.hair, -Infinity, cy - headH * (0.5 - f.fringe));
  // ears
  c.fillEllipse(cx - headW / 2, cy + headH * 0.02, headW * 0.07, headH * 0.1, f.skin);
  c.fillEllipse(cx + headW / 2, cy + headH * 0.02, headW * 0.07, headH * 0.1, f.skin);
  // eyes, brows, nose, mouth
  const eyeY = cy - headH * 0.02;
  const dx = (headW * f.eyeGap) / 2;
  const dark: Rgb = [35, 30, 30];
  for (const side of [-1, 1]) {
    c.fillEllipse(cx + side * dx, eyeY, headW * 0.09, headH * 0.045, [250, 250, 250]);
    c.fillEllipse(cx + side * dx, eyeY, headW * 0.045, headH * 0.04, dark);
    c.fillRect(cx + side * dx - headW * 0.1, eyeY - headH * 0.1, headW * 0.2, Math.max(1, headH * 0.025), f.hair);
    if (f.glasses) {
      const r = headW * 0.13;
      for (let a = 0; a < 64; a++) {
        const t = (a / 64) * 2 * Math.PI;
        c.fillRect(cx + side * dx + r * Math.cos(t), eyeY + r * 0.8 * Math.sin(t), 2, 2, dark);
      }
    }
  }
  const shade = f.skin.map((v) => Math.max(0, v - 40)) as Rgb;
  c.fillRect(cx - headW * 0.03, eyeY + headH * 0.06, headW * 0.06, headH * 0.13, shade);
  c.fillEllipse(cx, cy + headH * 0.26, (headW * f.mouth) / 2, headH * 0.035, [170, 70, 70]);
  return c;
}

/** Plate number drawn in the picture: letters and digits only (the province character is omitted). */
export function drawPlate(text: string, width: number): Canvas {
  const scale = Math.max(1, Math.floor(width / (text.length * 6 + 4)));
  const h = scale * 11;
  const c = new Canvas(width, h, [235, 235, 235]);
  c.fillRect(1, 1, width - 2, h - 2, [20, 60, 170]);
  c.fillRect(scale, scale, width - 2 * scale, h - 2 * scale, [30, 80, 200]);
  const textW = text.length * 6 * scale - scale;
  c.text(Math.round((width - textW) / 2), 2 * scale, text, scale, [245, 245, 245]);
  return c;
}

/** A street scene (sky, buildings, road) with `subject` pasted at (x, y). */
export function drawScene(width: number, height: number, random: () => number): Canvas {
  const c = new Canvas(width, height);
  const horizon = Math.round(height * 0.55);
  c.gradient(0, 0, width, horizon, [150, 190, 230], [210, 225, 240]);
  let x = 0;
  while (x < width) {
    const w = Math.round(width * (0.08 + 0.12 * random()));
    const top = Math.round(horizon * (0.15 + 0.6 * random()));
    const grey = 120 + Math.round(90 * random());
    c.fillRect(x, top, w - 2, horizon - top, [grey, grey - 6, grey - 14]);
    for (let wy = top + 6; wy < horizon - 8; wy += 10)
      for (let wx = x + 4; wx < x + w - 8; wx += 9) c.fillRect(wx, wy, 5, 6, [70, 90, 120]);
    x += w;
  }
  c.gradient(0, horizon, width, height - horizon, [110, 110, 112], [80, 80, 84]);
  for (let lx = 10; lx < width; lx += 60) c.fillRect(lx, Math.round(height * 0.8), 30, 3, [230, 230, 220]);
  return c;
}

// 5x7 block font, one number per row, bit 4 = leftmost dot
const FONT: Record<string, number[]> = {
  ' ': [0, 0, 0, 0, 0, 0, 0],
  '-': [0, 0, 0, 0x1f, 0, 0, 0],
  '.': [0, 0, 0, 0, 0, 0x0c, 0x0c],
  '?': [0x0e, 0x11, 0x01, 0x02, 0x04, 0, 0x04],
  '0': [0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e],
  '1': [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
  '2': [0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f],
  '3': [0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e],
  '4': [0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02],
  '5': [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
  '6': [0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e],
  '7': [0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
  '8': [0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e],
  '9': [0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c],
  A: [0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11],
  B: [0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e],
  C: [0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e],
  D: [0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c],
  E: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f],
  F: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10],
  G: [0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f],
  H: [0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11],
  I: [0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e],
  J: [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c],
  K: [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11],
  L: [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f],
  M: [0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11],
  N: [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
  O: [0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  P: [0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10],
  Q: [0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d],
  R: [0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11],
  S: [0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e],
  T: [0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
  U: [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  V: [0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04],
  W: [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a],
  X: [0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11],
  Y: [0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04],
  Z: [0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f],
};

/** The characters drawPlate can show. */
export const PLATE_CHARS = Object.keys(FONT).filter((k) => /[A-Z0-9]/.test(k));
