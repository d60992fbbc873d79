/**
 * Which tone a burst carries: each simulated terminal talks on a frequency of its own, and a
 * listener (a test, the e2e, a bench) measures the decoded audio with the Goertzel algorithm.
 */

/** The lowest tone and the step between terminals' tones, Hz: 16 tones from 400 to 1900 Hz. */
const TONE_BASE_HZ = 400;
const TONE_STEP_HZ = 100;
const TONE_COUNT = 16;

/**
 * Goertzel runs over windows this long, not over the whole signal: a lost frame the decoder
 * conceals breaks the tone's phase, which would cancel a whole-signal sum; 0.1 s (a bin of 10 Hz)
 * still sets apart the terminals' tones, 100 Hz apart.
 */
const WINDOW_S = 0.1;
/** The search for the strongest tone: a coarse pass on short windows (25 Hz apart), then 1 Hz steps around the best. */
const COARSE_WINDOW = 1920;
const COARSE_STEP_HZ = 25;
const COARSE_WINDOWS = 16;
const FINE_WINDOWS = 16;

/** The tone of the terminal with this number (its uid, its index in the fleet). */
export function toneOf(n: number): number {
  return TONE_BASE_HZ + TONE_STEP_HZ * (Math.abs(Math.trunc(n)) % TONE_COUNT);
}

/** |X(freq)|² of pcm[from, to) (the generalised Goertzel); a sine of amplitude A gives about (A·n/2)². */
function goertzel(pcm: Int16Array, from: number, to: number, freq: number, sampleRate: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * freq) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  for (let i = from; i < to; i++) {
    const s0 = pcm[i]! + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

/** [from, to) of up to `count` windows of `size` samples spread evenly over the signal. */
function windows(length: number, size: number, count: number): [number, number][] {
  if (length <= size) return length ? [[0, length]] : [];
  const n = Math.min(count, Math.floor(length / size));
  const stride = (length - size) / Math.max(1, n - 1);
  return Array.from({ length: n }, (_, k) => {
    const from = Math.round(k * stride);
    return [from, from + size];
  });
}

/**
 * The share of the signal's energy at `freq`: about 1 for a pure tone of that frequency, near 0
 * for silence, noise or another tone more than a few Hz away.
 */
export function toneDetect(pcm: Int16Array, sampleRate: number, freq: number): number {
  const size = Math.max(1, Math.round(WINDOW_S * sampleRate));
  let atFreq = 0;
  let energy = 0;
  for (let from = 0; from < pcm.length; from += size) {
    const to = Math.min(pcm.length, from + size);
    // a sine's (A·n/2)² over its energy A²·n/2 is n/2: scaled so that a pure tone gives 1
    atFreq += (2 * goertzel(pcm, from, to, freq, sampleRate)) / (to - from);
    for (let i = from; i < to; i++) energy += pcm[i]! * pcm[i]!;
  }
  return energy ? Math.min(1, atFreq / energy) : 0;
}

export interface DetectedTone {
  /** the strongest frequency, to 1 Hz */
  hz: number;
  /** its share of the energy (toneDetect): above 0.5 for a tone, low for speech or noise */
  strength: number;
}

/** The strongest tone between minHz and maxHz (measured, not assumed), or null for silence. */
export function dominantTone(
  pcm: Int16Array,
  sampleRate: number,
  { minHz = 100, maxHz = 4000 }: { minHz?: number; maxHz?: number } = {},
): DetectedTone | null {
  if (!pcm.some((v) => v !== 0)) return null;
  const strongest = (spots: [number, number][], from: number, to: number, step: number) => {
    let best = from;
    let bestPower = -1;
    for (let hz = from; hz <= to; hz += step) {
      const power = spots.reduce((sum, [a, b]) => sum + goertzel(pcm, a, b, hz, sampleRate), 0);
      if (power > bestPower) [best, bestPower] = [hz, power];
    }
    return best;
  };
  const coarse = strongest(windows(pcm.length, COARSE_WINDOW, COARSE_WINDOWS), minHz, maxHz, COARSE_STEP_HZ);
  const fine = windows(pcm.length, Math.round(WINDOW_S * sampleRate), FINE_WINDOWS);
  const hz = strongest(fine, Math.max(minHz, coarse - COARSE_STEP_HZ), Math.min(maxHz, coarse + COARSE_STEP_HZ), 1);
  return { hz, strength: toneDetect(pcm, sampleRate, hz) };
}
