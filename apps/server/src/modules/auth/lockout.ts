import {
  LOGIN_SOURCE_DELAY_FIRST_MS,
  LOGIN_SOURCE_DELAY_MAX_MS,
  LOGIN_SOURCE_FREE_FAILURES,
  LOGIN_SOURCE_WINDOW_MS,
} from '@bwc/protocol';

export interface LockState {
  locked: boolean;
  /** ms epoch when the lock ends (locked only) */
  unlockAt: number;
  /** failed attempts left before the lock */
  left: number;
}

/**
 * Account lockout (normalset): `limit` failures of one account within `lockMinutes` lock that
 * account for `lockMinutes` counted from the last of them. Only the account's own failures count,
 * from whatever address; attempts refused while locked are not recorded, so the lock ends on time.
 */
export function accountLock(failureTimes: number[], now: number, limit: number, lockMinutes: number): LockState {
  const windowMs = lockMinutes * 60_000;
  const newestFirst = failureTimes.filter((t) => t > now - 2 * windowMs && t <= now).sort((a, b) => b - a);
  if (newestFirst.length >= limit) {
    const newest = newestFirst[0]!;
    const nth = newestFirst[limit - 1]!;
    if (newest - nth <= windowMs && now < newest + windowMs)
      return { locked: true, unlockAt: newest + windowMs, left: 0 };
  }
  const inWindow = newestFirst.filter((t) => t > now - windowMs).length;
  return { locked: false, unlockAt: 0, left: Math.max(0, limit - inWindow) };
}

/**
 * Source address throttle: an address is never locked, because behind a reverse proxy or NAT a
 * whole control room shares one and a lock would shut out people who did nothing wrong. Its first
 * LOGIN_SOURCE_FREE_FAILURES failures within LOGIN_SOURCE_WINDOW_MS cost nothing; each further
 * one doubles the wait before the address's next attempt (from LOGIN_SOURCE_DELAY_FIRST_MS up to
 * LOGIN_SOURCE_DELAY_MAX_MS), which slows password guessing across many accounts to a crawl while
 * a colleague with the right password waits seconds at most.
 * Returns the ms epoch before which the address may not try again (0: it may now).
 */
export function sourceWaitUntil(failureTimes: number[], now: number): number {
  const recent = failureTimes.filter((t) => t > now - LOGIN_SOURCE_WINDOW_MS && t <= now);
  const over = recent.length - LOGIN_SOURCE_FREE_FAILURES;
  if (over < 0) return 0;
  const delay = Math.min(LOGIN_SOURCE_DELAY_FIRST_MS * 2 ** over, LOGIN_SOURCE_DELAY_MAX_MS);
  const until = Math.max(...recent) + delay;
  return until > now ? until : 0;
}

export function minutesUntil(unlockAt: number, now: number): number {
  return Math.max(1, Math.ceil((unlockAt - now) / 60_000));
}

export function secondsUntil(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}
