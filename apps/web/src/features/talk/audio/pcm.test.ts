import { describe, expect, it } from 'vitest';
import { displayLevel, dominantFrequency, rms, toneShare } from './pcm';

const RATE = 48_000;
const tone = (hz: number, amplitude = 0.5, n = 960) =>
  Float32Array.from({ length: n }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / RATE + 0.3));

describe('talk PCM measures', () => {
  it('finds a 1 kHz tone and tells it from another tone, noise and silence', () => {
    expect(toneShare(tone(1000), RATE, 1000)).toBeGreaterThan(0.99);
    expect(toneShare(tone(440), RATE, 1000)).toBeLessThan(0.05);
    const noise = Float32Array.from({ length: 960 }, (_, i) => Math.sin(i * 12.9898) * 0.3);
    expect(toneShare(noise, RATE, 1000)).toBeLessThan(0.1);
    expect(toneShare(new Float32Array(960), RATE, 1000)).toBe(0);
  });

  it('names the dominant frequency', () => {
    expect(dominantFrequency(tone(1000), RATE)).toBe(1000);
    expect(dominantFrequency(tone(400, 0.1), RATE)).toBe(400);
    expect(dominantFrequency(new Float32Array(960), RATE)).toBe(0);
  });

  it('measures the level of a frame for the animation', () => {
    expect(rms(tone(1000, 0.5))).toBeCloseTo(0.5 / Math.SQRT2, 3);
    expect(displayLevel(0)).toBe(0);
    expect(displayLevel(0.001)).toBe(0); // -60 dBFS
    expect(displayLevel(1)).toBe(1);
    expect(displayLevel(0.1)).toBeCloseTo(0.75, 2); // -20 dBFS
  });
});
