import {
  LOGIN_SOURCE_DELAY_FIRST_MS,
  LOGIN_SOURCE_DELAY_MAX_MS,
  LOGIN_SOURCE_FREE_FAILURES,
  LOGIN_SOURCE_WINDOW_MS,
} from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { accountLock, minutesUntil, secondsUntil, sourceWaitUntil } from './lockout';

const MIN = 60_000;
const now = 1_000 * MIN;

describe('account lockout policy', () => {
  it('counts attempts left within the window', () => {
    expect(accountLock([], now, 5, 10)).toEqual({ locked: false, unlockAt: 0, left: 5 });
    expect(accountLock([now - MIN, now - 2 * MIN], now, 5, 10)).toEqual({ locked: false, unlockAt: 0, left: 3 });
  });

  it('ignores failures older than the window', () => {
    expect(accountLock([now - 11 * MIN, now - 12 * MIN, now - 13 * MIN], now, 3, 10).left).toBe(3);
  });

  it('locks after the limit within the window, for the lock minutes from the last failure', () => {
    const fails = [now - 3 * MIN, now - 2 * MIN, now - MIN];
    expect(accountLock(fails, now, 3, 10)).toEqual({ locked: true, unlockAt: now + 9 * MIN, left: 0 });
    expect(accountLock(fails, now + 9 * MIN - 1, 3, 10).locked).toBe(true);
    expect(accountLock(fails, now + 9 * MIN, 3, 10).locked).toBe(false);
  });

  it('does not lock when the failures are spread wider than the window', () => {
    expect(accountLock([now - 15 * MIN, now - 8 * MIN, now - MIN], now, 3, 10).locked).toBe(false);
  });

  it('reports whole minutes, at least one', () => {
    expect(minutesUntil(now + 9 * MIN + 1, now)).toBe(10);
    expect(minutesUntil(now + 10, now)).toBe(1);
  });
});

describe('source address throttle', () => {
  /** `n` failures, one a second, the newest at `newest` */
  const failures = (n: number, newest = now) => Array.from({ length: n }, (_, i) => newest - i * 1000);

  it('lets the first free failures through without any wait', () => {
    expect(sourceWaitUntil([], now)).toBe(0);
    expect(sourceWaitUntil(failures(LOGIN_SOURCE_FREE_FAILURES - 1), now)).toBe(0);
  });

  it('doubles the wait with each failure past the free ones, up to the maximum, never a lock', () => {
    const free = LOGIN_SOURCE_FREE_FAILURES;
    expect(sourceWaitUntil(failures(free), now)).toBe(now + LOGIN_SOURCE_DELAY_FIRST_MS);
    expect(sourceWaitUntil(failures(free + 1), now)).toBe(now + 2 * LOGIN_SOURCE_DELAY_FIRST_MS);
    expect(sourceWaitUntil(failures(free + 2), now)).toBe(now + 4 * LOGIN_SOURCE_DELAY_FIRST_MS);
    expect(sourceWaitUntil(failures(free + 40), now)).toBe(now + LOGIN_SOURCE_DELAY_MAX_MS);
    // the wait counts from the newest failure and then the address may try again
    expect(sourceWaitUntil(failures(free + 40), now + LOGIN_SOURCE_DELAY_MAX_MS)).toBe(0);
  });

  it('forgets failures older than the window', () => {
    const old = failures(LOGIN_SOURCE_FREE_FAILURES + 5, now - LOGIN_SOURCE_WINDOW_MS - 60_000);
    expect(sourceWaitUntil([...old, now], now)).toBe(0);
  });

  it('reports whole seconds, at least one', () => {
    expect(secondsUntil(now + 1001, now)).toBe(2);
    expect(secondsUntil(now + 10, now)).toBe(1);
  });
});
