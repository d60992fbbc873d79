import { deflateSync } from 'node:zlib';

/**
 * A small RGB PNG drawn by a function of the pixel (for pictures a spec posts, e.g. a face
 * result of the AI engine API). Returns base64.
 */
export function pngBase64(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number],
): string {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}

/** A cartoon face on a coloured background: enough to see that a picture is shown. */
export function facePicture(size: number, hue: [number, number, number]): string {
  const c = size / 2;
  return pngBase64(size, size, (x, y) => {
    const dx = x - c;
    const dy = y - c;
    const eye = (ex: number) => (x - ex) ** 2 + (y - c * 0.8) ** 2 < (size * 0.05) ** 2;
    if (eye(c - size * 0.15) || eye(c + size * 0.15)) return [40, 40, 40];
    const mouth = Math.abs(Math.hypot(dx, dy - size * 0.02) - size * 0.22) < size * 0.02 && dy > size * 0.08;
    if (mouth) return [150, 40, 40];
    if ((dx / 0.8) ** 2 + dy ** 2 < (size * 0.36) ** 2) return [240, 200, 160];
    return hue;
  });
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([length, body, crc]);
}
