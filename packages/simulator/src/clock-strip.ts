/**
 * The machine-readable clock the simulated cameras paint into every frame (camera.ts), and its
 * reader. A latency bench in the browser draws the playing video into a canvas, reads the strip and
 * compares it with its own clock: glass-to-glass latency. This file imports nothing, so the web
 * side can import it as is.
 *
 * Layout in the 640x360 picture: one row of 16x16 blocks starting at (16, 336), each all black or
 * all white. Block 0 is white and block 1 black (the guard: a reader checks both before trusting
 * the rest); blocks 2 to 25 are the bits of (epoch ms when the frame was captured) mod 2^24, least
 * significant bit first, white = 1; block 26 is the parity block, white when bits 0-23 hold an odd
 * number of ones (so the 25 data blocks always hold an even number). The blocks sit on the
 * encoder's 16x16 macroblock grid, so compression does not smear one into the next. 2^24 ms is
 * about 4.7 hours: a reader unwraps it against its own clock (clockStripAgeMs).
 */
export const CLOCK_STRIP = {
  /** the picture size the layout is given in; a reader scales it to the size it sees */
  frameWidth: 640,
  frameHeight: 360,
  /** top-left corner of block 0, px */
  x: 16,
  y: 336,
  /** block side, px */
  block: 16,
  /** value bits, least significant first, after the two guard blocks */
  bits: 24,
  /** guard (2) + bits (24) + parity (1) */
  blocks: 27,
} as const;

/** 2^24: the clock's modulus, ms */
export const CLOCK_STRIP_MODULUS = 2 ** CLOCK_STRIP.bits;

/** Mean luma of a block's centre at most this reads black, at least WHITE_MIN white; between: unreadable. */
const BLACK_MAX = 80;
const WHITE_MIN = 175;

/**
 * Reads the clock of one decoded frame (RGBA bytes, row-major, `width` x `height`, the picture in
 * any size with the camera's 16:9 aspect): the 24-bit value, or null when the guard, a block's
 * colour or the parity does not check out (no strip, a frame that is not a simulated camera, a
 * blurred or half-drawn frame).
 */
export function readClockStrip(rgba: Uint8ClampedArray, width: number, height: number): number | null {
  if (width <= 0 || height <= 0 || rgba.length < width * height * 4) return null;
  const sx = width / CLOCK_STRIP.frameWidth;
  const sy = height / CLOCK_STRIP.frameHeight;
  // the centre half of a block (in each direction) is clear of the edges that scaling blurs
  const half = Math.max(0, Math.floor((CLOCK_STRIP.block / 4) * Math.min(sx, sy)));
  const cy = Math.floor((CLOCK_STRIP.y + CLOCK_STRIP.block / 2) * sy);
  const blockAt = (k: number): 0 | 1 | null => {
    const cx = Math.floor((CLOCK_STRIP.x + k * CLOCK_STRIP.block + CLOCK_STRIP.block / 2) * sx);
    let sum = 0;
    let n = 0;
    for (let y = cy - half; y <= cy + half; y++) {
      if (y < 0 || y >= height) return null;
      for (let x = cx - half; x <= cx + half; x++) {
        if (x < 0 || x >= width) return null;
        const p = (y * width + x) * 4;
        sum += 0.299 * rgba[p]! + 0.587 * rgba[p + 1]! + 0.114 * rgba[p + 2]!;
        n += 1;
      }
    }
    const luma = sum / n;
    return luma <= BLACK_MAX ? 0 : luma >= WHITE_MIN ? 1 : null;
  };
  if (blockAt(0) !== 1 || blockAt(1) !== 0) return null;
  let value = 0;
  let ones = 0;
  for (let i = 0; i < CLOCK_STRIP.bits; i++) {
    const bit = blockAt(2 + i);
    if (bit === null) return null;
    value += bit * 2 ** i;
    ones += bit;
  }
  const parity = blockAt(2 + CLOCK_STRIP.bits);
  if (parity === null || parity !== ones % 2) return null;
  return value;
}

/** How long ago (ms, by the clock `nowMs`) a frame with clock `value` was captured; wraps every 2^24 ms. */
export function clockStripAgeMs(value: number, nowMs: number): number {
  const m = CLOCK_STRIP_MODULUS;
  return (((Math.floor(nowMs) % m) - value) % m + m) % m;
}
