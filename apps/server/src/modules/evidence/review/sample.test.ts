import { describe, expect, it } from 'vitest';
import { mulberry32 } from '@bwc/protocol';
import { drawSample } from './sample';

describe('check sample', () => {
  const ids = Array.from({ length: 200 }, (_, i) => 1000 + i * 3);

  it('is the same for the same seed and candidates, whatever their order', () => {
    const a = drawSample(ids, 42, 20);
    expect(drawSample([...ids].reverse(), 42, 20)).toEqual(a);
    expect(new Set(a).size).toBe(20);
    expect(a.every((id) => ids.includes(id))).toBe(true);
    expect(drawSample(ids, 43, 20)).not.toEqual(a);
  });

  it('takes every candidate once when asked for more', () => {
    expect(drawSample([5, 3, 9], 7, 100).sort((x, y) => x - y)).toEqual([3, 5, 9]);
    expect(drawSample([], 7, 10)).toEqual([]);
  });

  it('spreads over the candidates', () => {
    const next = mulberry32(1);
    const counts = new Array(10).fill(0) as number[];
    for (let i = 0; i < 10_000; i++) counts[Math.floor(next() * 10)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(850);
    const firstPicks = new Set<number>();
    for (let seed = 0; seed < 200; seed++) firstPicks.add(drawSample(ids, seed, 1)[0]!);
    expect(firstPicks.size).toBeGreaterThan(100);
  });
});
