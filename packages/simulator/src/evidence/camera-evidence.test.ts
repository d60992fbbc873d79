import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordEvery } from '../options';
import { rng } from '../path';
import { evidenceRoot, Gate, pickKind } from './camera-evidence';

describe('parseRecordEvery', () => {
  it('reads minutes without a unit, an interval with its unit, and off', () => {
    expect(parseRecordEvery('5')).toEqual([300, 300]);
    expect(parseRecordEvery('10-20')).toEqual([600, 1200]);
    expect(parseRecordEvery('90s-3m')).toEqual([90, 180]);
    expect(parseRecordEvery('off')).toBeNull();
    expect(parseRecordEvery('0')).toBeNull();
  });

  it('refuses clips closer than 30 s and what is not an interval, naming the flag', () => {
    expect(() => parseRecordEvery('10s')).toThrow(/--record-every: "10s" must be at least 30 s/);
    expect(() => parseRecordEvery('0.2')).toThrow(/at least 30 s/);
    expect(() => parseRecordEvery('soon')).toThrow(/--record-every: "soon" is not an interval/);
    expect(() => parseRecordEvery('20-10')).toThrow(/min <= max/);
  });
});

describe('Gate', () => {
  it('runs at most its size of tasks at once, the others in order', async () => {
    const gate = new Gate(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const tasks = [0, 1, 2, 3, 4].map((i) =>
      gate.run(async () => {
        running += 1;
        most = Math.max(most, running);
        order.push(i);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return i;
      }),
    );
    // release one waiting task at a time until all have run
    for (let released = 0; released < 5; released++) {
      while (releases.length === 0) await new Promise((r) => setImmediate(r));
      expect(running).toBeLessThanOrEqual(2);
      releases.shift()!();
    }
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('frees its place when a task fails', async () => {
    const gate = new Gate(1);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(() => Promise.resolve('next'))).toBe('next');
  });
});

describe('pickKind and evidenceRoot', () => {
  it('records mostly videos, some audio notes and photos', () => {
    const random = rng(7);
    const counts = { video: 0, audio: 0, photo: 0 };
    for (let i = 0; i < 1000; i++) counts[pickKind(random)] += 1;
    expect(counts.video).toBeGreaterThan(500);
    expect(counts.audio).toBeGreaterThan(120);
    expect(counts.photo).toBeGreaterThan(120);
  });

  it('keeps each server its own folder of queues', () => {
    expect(evidenceRoot('http://127.0.0.1:8080')).toBe(join(tmpdir(), 'bwc-sim-evidence', '127.0.0.1_8080'));
    expect(evidenceRoot('https://bwc.example')).toBe(join(tmpdir(), 'bwc-sim-evidence', 'bwc.example_443'));
  });
});
