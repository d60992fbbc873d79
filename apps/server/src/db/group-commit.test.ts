import { describe, expect, it } from 'vitest';
import { GroupCommit, isForeignKeyViolation } from './group-commit';

interface Job {
  n: number;
  resolve: (v: number) => void;
  reject: (err: unknown) => void;
}

function harness(options: { delayMs?: number; maxQueued?: number; bad?: Set<number> } = {}) {
  const batches: number[][] = [];
  let afterRuns = 0;
  const commit = new GroupCommit<Job>({
    ...options,
    write: async (jobs) => {
      await Promise.resolve();
      if (jobs.some((j) => options.bad?.has(j.n))) throw Object.assign(new Error('fk'), { code: '23503' });
      batches.push(jobs.map((j) => j.n));
      return () => {
        afterRuns += 1;
        for (const j of jobs) j.resolve(j.n * 10);
      };
    },
    failure: (err) => (isForeignKeyViolation(err) ? new Error('gone') : err),
  });
  const add = (n: number) => new Promise<number>((resolve, reject) => commit.add({ n, resolve, reject }));
  return { commit, batches, add, afterRuns: () => afterRuns };
}

describe('GroupCommit', () => {
  it('writes the jobs of one event-loop turn in one batch and answers each after it', async () => {
    const h = harness();
    const answers = await Promise.all([h.add(1), h.add(2), h.add(3)]);
    expect(answers).toEqual([10, 20, 30]);
    expect(h.batches).toEqual([[1, 2, 3]]);
    expect(h.commit.commits).toBe(1);
  });

  it('queues jobs arriving during a write into the next batch', async () => {
    const h = harness({ delayMs: 1 });
    const first = h.add(1);
    await new Promise((r) => setTimeout(r, 5));
    const later = [h.add(2), h.add(3)];
    await Promise.all([first, ...later]);
    expect(h.batches).toEqual([[1], [2, 3]]);
  });

  it('writes at once when maxQueued is reached', async () => {
    const h = harness({ delayMs: 60_000, maxQueued: 2 });
    await Promise.all([h.add(1), h.add(2)]);
    expect(h.batches).toEqual([[1, 2]]);
  });

  it('retries the jobs of a failed batch alone: the bad one fails, the others are written', async () => {
    const h = harness({ bad: new Set([2]) });
    const results = await Promise.allSettled([h.add(1), h.add(2), h.add(3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('gone'));
    expect(h.batches).toEqual([[1], [3]]);
    expect(h.afterRuns()).toBe(2);
  });

  it('drain resolves once everything queued is written', async () => {
    const h = harness({ delayMs: 60_000 });
    void h.add(1);
    void h.add(2);
    await h.commit.drain();
    expect(h.batches).toEqual([[1, 2]]);
  });
});
