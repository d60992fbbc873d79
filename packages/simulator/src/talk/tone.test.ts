import { describe, expect, it } from 'vitest';
import { dominantTone, toneDetect, toneOf } from './tone';

const sine = (freq: number, seconds: number, amplitude = 8000, rate = 48_000) =>
  Int16Array.from({ length: Math.round(seconds * rate) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * freq * i) / rate)),
  );

describe('toneDetect', () => {
  it('finds nearly all the energy of a pure tone at its frequency, almost none at a neighbour 100 Hz away', () => {
    const tone = sine(440, 1);
    expect(toneDetect(tone, 48_000, 440)).toBeGreaterThan(0.95);
    expect(toneDetect(tone, 48_000, 540)).toBeLessThan(0.01);
    expect(toneDetect(tone, 48_000, 340)).toBeLessThan(0.01);
  });

  it('finds each tone of a mix in proportion to its energy, and nothing in silence', () => {
    const a = sine(600, 0.5);
    const b = sine(1100, 0.5, 4000);
    const mix = a.map((v, i) => v + b[i]!);
    expect(toneDetect(mix, 48_000, 600)).toBeCloseTo(0.8, 1);
    expect(toneDetect(mix, 48_000, 1100)).toBeCloseTo(0.2, 1);
    expect(toneDetect(new Int16Array(4800), 48_000, 600)).toBe(0);
    expect(toneDetect(new Int16Array(0), 48_000, 600)).toBe(0);
  });
});

describe('dominantTone', () => {
  it('measures the frequency of a tone to 1 Hz and its share of the energy', () => {
    for (const freq of [400, 1000, 1234, 1900]) {
      const found = dominantTone(sine(freq, 1), 48_000);
      expect(found!.hz).toBe(freq);
      expect(found!.strength).toBeGreaterThan(0.95);
    }
  });

  it('finds the louder of two tones, and a tone under noise', () => {
    const a = sine(700, 1, 2000);
    const b = sine(1300, 1, 6000);
    expect(
      dominantTone(
        a.map((v, i) => v + b[i]!),
        48_000,
      )!.hz,
    ).toBe(1300);
    let seed = 7;
    const noise = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31 - 0.5) * 4000;
    const noisy = sine(1000, 1).map((v) => v + noise());
    const found = dominantTone(noisy, 48_000)!;
    expect(found.hz).toBe(1000);
    expect(found.strength).toBeGreaterThan(0.7);
    expect(found.strength).toBeLessThan(0.99);
  });

  it('still finds a tone whose phase jumps where frames were lost and concealed', () => {
    const tone = sine(1000, 2);
    // 100 ms of silence every 0.3 s, then the tone goes on with another phase
    const broken = tone.map((v, i) => (i % 14_400 < 4_800 ? 0 : i % 28_800 < 14_400 ? v : -v));
    const found = dominantTone(broken, 48_000)!;
    expect(Math.abs(found.hz - 1000)).toBeLessThanOrEqual(2);
    expect(found.strength).toBeGreaterThan(0.6);
  });

  it('finds nothing in silence', () => {
    expect(dominantTone(new Int16Array(48_000), 48_000)).toBeNull();
    expect(dominantTone(new Int16Array(0), 48_000)).toBeNull();
  });
});

describe('toneOf', () => {
  it('gives terminals 16 tones 100 Hz apart from 400 Hz, the same for the same number', () => {
    const tones = Array.from({ length: 16 }, (_, i) => toneOf(i + 80001));
    expect(new Set(tones).size).toBe(16);
    expect(Math.min(...tones)).toBe(400);
    expect(Math.max(...tones)).toBe(1900);
    expect(toneOf(17)).toBe(toneOf(1));
  });
});
