import { describe, expect, it } from 'vitest';
import { combineLocks, lockState, minutesUntil } from './lockout';

const MIN = 60_000;
const now = 1_000 * MIN;

describe('login lockout policy', () => {
  it('counts attempts left within the window', () => {
    expect(lockState([], now, 5, 10)).toEqual({ locked: false, unlockAt: 0, left: 5 });
    expect(lockState([now - MIN, now - 2 * MIN], now, 5, 10)).toEqual({ locked: false, unlockAt: 0, left: 3 });
  });

  it('ignores failures older than the window', () => {
    expect(lockState([now - 11 * MIN, now - 12 * MIN, now - 13 * MIN], now, 3, 10).left).toBe(3);
  });

  it('locks after the limit within the window, for the lock minutes from the last failure', () => {
    const fails = [now - 3 * MIN, now - 2 * MIN, now - MIN];
    expect(lockState(fails, now, 3, 10)).toEqual({ locked: true, unlockAt: now + 9 * MIN, left: 0 });
    expect(lockState(fails, now + 9 * MIN - 1, 3, 10).locked).toBe(true);
    expect(lockState(fails, now + 9 * MIN, 3, 10).locked).toBe(false);
  });

  it('does not lock when the failures are spread wider than the window', () => {
    expect(lockState([now - 15 * MIN, now - 8 * MIN, now - MIN], now, 3, 10).locked).toBe(false);
  });

  it('combines account and address: either lock wins, fewer attempts left wins', () => {
    const locked = { locked: true, unlockAt: now + 5 * MIN, left: 0 };
    const open = { locked: false, unlockAt: 0, left: 2 };
    expect(combineLocks(open, locked)).toEqual(locked);
    expect(combineLocks(open, { locked: false, unlockAt: 0, left: 4 }).left).toBe(2);
  });

  it('reports whole minutes, at least one', () => {
    expect(minutesUntil(now + 9 * MIN + 1, now)).toBe(10);
    expect(minutesUntil(now + 10, now)).toBe(1);
  });
});
