import { LOGGED_IN_KEY, PRODUCT_PREFIX } from '@bwc/protocol';

/** Session storage key of the logged-in flag (spec part 1 section 4), with the product prefix. */
export const LOGGED_IN_STORAGE_KEY = `${PRODUCT_PREFIX}${LOGGED_IN_KEY}`;

export interface LoggedInFlag {
  username: string;
  ifadmin: number;
}

export function readLoggedIn(): LoggedInFlag | null {
  try {
    const raw = sessionStorage.getItem(LOGGED_IN_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<LoggedInFlag>;
    return typeof parsed.username === 'string'
      ? { username: parsed.username, ifadmin: Number(parsed.ifadmin ?? 0) }
      : null;
  } catch {
    return null;
  }
}

export function isLoggedIn(): boolean {
  return readLoggedIn() !== null;
}

const listeners = new Set<() => void>();

/** Called when the session ends (401, forced offline, logout): caches and timers drop their state. */
export function onSessionCleared(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function markLoggedIn(flag: LoggedInFlag): void {
  sessionStorage.setItem(LOGGED_IN_STORAGE_KEY, JSON.stringify(flag));
}

/** Logout, 401 and forced offline all clear the whole session storage (spec part 1 section 4). */
export function clearSession(): void {
  try {
    sessionStorage.clear();
  } catch {
    // storage unavailable: nothing to clear
  }
  for (const listener of listeners) listener();
}
