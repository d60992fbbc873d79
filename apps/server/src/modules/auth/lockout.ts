export interface LockState {
  locked: boolean;
  /** ms epoch when the lock ends (locked only) */
  unlockAt: number;
  /** failed attempts left before the lock */
  left: number;
}

/**
 * Login lockout policy (normalset): `limit` failures within `lockMinutes` lock the account (or
 * source address) for `lockMinutes` counted from the last of them. Attempts refused while locked
 * are not recorded, so the lock ends on time.
 */
export function lockState(failureTimes: number[], now: number, limit: number, lockMinutes: number): LockState {
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

/** The stricter of two states (account and source address). */
export function combineLocks(a: LockState, b: LockState): LockState {
  if (a.locked || b.locked) return { locked: true, unlockAt: Math.max(a.unlockAt, b.unlockAt), left: 0 };
  return { locked: false, unlockAt: 0, left: Math.min(a.left, b.left) };
}

export function minutesUntil(unlockAt: number, now: number): number {
  return Math.max(1, Math.ceil((unlockAt - now) / 60_000));
}
