import { describe, expect, it } from 'vitest';
import { sweepSilent } from './liveness';

describe('sweepSilent', () => {
  it('closes the sockets silent past the limit and probes the others', () => {
    const conns = new Set([
      { name: 'quiet', lastHeard: 1_000 },
      { name: 'edge', lastHeard: 5_000 },
      { name: 'fresh', lastHeard: 14_000 },
    ]);
    const closed: string[] = [];
    const probed: string[] = [];
    const count = sweepSilent(conns, {
      limitMs: 10_000,
      now: 15_000,
      onSilent: (c) => {
        closed.push(c.name);
        conns.delete(c);
      },
      probe: (c) => probed.push(c.name),
    });
    expect(count).toBe(1);
    expect(closed).toEqual(['quiet']);
    // exactly at the limit is still alive
    expect(probed).toEqual(['edge', 'fresh']);
    expect([...conns].map((c) => c.name)).toEqual(['edge', 'fresh']);
  });

  it('closes nothing and probes nothing when every socket was heard and no probe is given', () => {
    const closed: unknown[] = [];
    expect(sweepSilent([{ lastHeard: 10 }], { limitMs: 5, now: 12, onSilent: (c) => closed.push(c) })).toBe(0);
    expect(closed).toEqual([]);
  });
});
