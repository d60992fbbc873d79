import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Coalescer, scopedFrame } from './coalesce';

describe('Coalescer', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('merges by key in first-seen order, is due at once after a quiet spell and then once a period', () => {
    const taken: string[][] = [];
    const c: Coalescer<string, string> = new Coalescer(1000, () => taken.push(c.take()));
    c.set('a', 'a1');
    c.set('b', 'b1');
    c.set('a', 'a2');
    expect(c.get('a')).toBe('a2');
    vi.advanceTimersByTime(0);
    expect(taken).toEqual([['a2', 'b1']]);
    c.set('c', 'c1');
    vi.advanceTimersByTime(999);
    expect(taken).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(taken).toEqual([['a2', 'b1'], ['c1']]);
    // nothing pending: nothing due, and take answers nothing
    vi.advanceTimersByTime(5000);
    expect(taken).toHaveLength(2);
    expect(c.take()).toEqual([]);
  });

  it('close drops what is pending and its timer', () => {
    const due = vi.fn();
    const c = new Coalescer<string, number>(1000, due);
    c.set('a', 1);
    c.close();
    vi.advanceTimersByTime(2000);
    expect(due).not.toHaveBeenCalled();
    expect(c.take()).toEqual([]);
  });
});

describe('scopedFrame', () => {
  it('serialises once per scope and answers null when nothing is in scope', () => {
    const frames = new Map<ReadonlySet<number> | null, string | null>();
    const items = [
      { unit_id: 1, v: 'x' },
      { unit_id: 2, v: 'y' },
    ];
    const scope = new Set([2]);
    const first = scopedFrame(frames, scope, 't', items);
    expect(JSON.parse(first!)).toEqual({ type: 't', data: [{ unit_id: 2, v: 'y' }] });
    expect(scopedFrame(frames, scope, 't', [])).toBe(first);
    expect(JSON.parse(scopedFrame(frames, null, 't', items)!)).toEqual({ type: 't', data: items });
    expect(scopedFrame(frames, new Set([3]), 't', items)).toBeNull();
  });
});
