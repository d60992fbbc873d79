/**
 * Small measures of 20 ms PCM frames (Float32, -1..1): the level that drives the talk panel's
 * animation, and the tone figures that let an end-to-end test check which tone arrived (a 1 kHz
 * test tone from a fake microphone must come out of the decoder as 1 kHz).
 */

/** Root mean square of the samples (0 for none). */
export function rms(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
}

/**
 * Share of the frame's energy at `frequency` (Goertzel), 0..1: about 1 for a pure tone of that
 * frequency, near 0 for silence or another tone. Exact when the frequency is a whole number of
 * cycles per frame (20 ms at 48 kHz: multiples of 50 Hz).
 */
export function toneShare(samples: Float32Array, sampleRate: number, frequency: number): number {
  const n = samples.length;
  if (n === 0) return 0;
  const coeff = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  let energy = 0;
  for (const x of samples) {
    const s0 = x + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
    energy += x * x;
  }
  if (energy === 0) return 0;
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  return Math.min(1, power / ((n / 2) * energy));
}

/** The strongest of the frequencies `from`..`to` in steps of `step` Hz (Goertzel at each), 0 for silence. */
export function dominantFrequency(
  samples: Float32Array,
  sampleRate: number,
  from = 100,
  to = 4_000,
  step = 50,
): number {
  let best = 0;
  let bestShare = 0;
  for (let f = from; f <= to; f += step) {
    const share = toneShare(samples, sampleRate, f);
    if (share > bestShare) {
      best = f;
      bestShare = share;
    }
  }
  return best;
}

/**
 * A level for display, 0..1, from an RMS: speech sits between about -50 and -10 dBFS, so that
 * range fills the scale.
 */
export function displayLevel(value: number): number {
  if (value <= 0) return 0;
  const db = 20 * Math.log10(value);
  return Math.max(0, Math.min(1, (db + 50) / 40));
}
