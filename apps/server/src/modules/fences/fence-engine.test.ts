import { describe, expect, it } from 'vitest';
import { inWindow, ruleMatches } from './fence-engine';

/** ISO of a local wall-clock time today (the window is in the server's local time). */
const at = (h: number, m: number) => {
  const d = new Date();
  d.setHours(h, m, 0, 0);
  return d.toISOString();
};

describe('time window and rule', () => {
  it('no window: always', () => {
    expect(inWindow(null, at(3, 0))).toBe(true);
  });
  it('a day window includes its ends', () => {
    const w: [number, number] = [8 * 60, 18 * 60];
    expect(inWindow(w, at(8, 0))).toBe(true);
    expect(inWindow(w, at(18, 0))).toBe(true);
    expect(inWindow(w, at(7, 59))).toBe(false);
    expect(inWindow(w, at(18, 1))).toBe(false);
  });
  it('a night window wraps past midnight', () => {
    const w: [number, number] = [22 * 60, 6 * 60];
    expect(inWindow(w, at(23, 30))).toBe(true);
    expect(inWindow(w, at(2, 0))).toBe(true);
    expect(inWindow(w, at(12, 0))).toBe(false);
  });
  it('rules', () => {
    expect(ruleMatches('both', 'enter')).toBe(true);
    expect(ruleMatches('both', 'exit')).toBe(true);
    expect(ruleMatches('enter', 'exit')).toBe(false);
    expect(ruleMatches('exit', 'exit')).toBe(true);
  });
});
