import { PRODUCT_PREFIX, type UserProfile } from '@bwc/protocol';

/**
 * The realtime login cache (spec part 1 section 3): one browser-storage entry per field, each key
 * with the product prefix. Kept in session storage: it lives as long as the tab (a reload resumes
 * the login with the cached clientid and token) and goes with the HTTP logout, which clears
 * session storage, so that the next user of the browser never resumes the previous one's login.
 */
export interface LoginCache {
  login_uid: number;
  /** the first entry of the logon user's own `user_info` */
  login_user: UserProfile;
  ipaddr: string;
  port: string;
  token: string;
  clientid: string;
  /** minutes */
  client_alive_time: number;
  /** epoch ms */
  client_login_time: number;
  /** group-file chunk-upload address (ip, port, token, uid) */
  upload_url_gfile: string;
}

export const LOGIN_CACHE_FIELDS = [
  'login_uid',
  'login_user',
  'ipaddr',
  'port',
  'token',
  'clientid',
  'client_alive_time',
  'client_login_time',
  'upload_url_gfile',
] as const satisfies readonly (keyof LoginCache)[];

export const cacheKey = (field: keyof LoginCache): string => `${PRODUCT_PREFIX}${field}`;

const NUMBERS = new Set<keyof LoginCache>(['login_uid', 'client_alive_time', 'client_login_time']);

export class LoginCacheStore {
  constructor(private readonly storage: () => Storage | null = defaultStorage) {}

  save(login: LoginCache): void {
    const storage = this.storage();
    if (!storage) return;
    for (const field of LOGIN_CACHE_FIELDS) {
      const value = login[field];
      storage.setItem(cacheKey(field), typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
  }

  /** The cached login, or null when any field is missing or unreadable. */
  read(): LoginCache | null {
    const storage = this.storage();
    if (!storage) return null;
    const out: Record<string, unknown> = {};
    for (const field of LOGIN_CACHE_FIELDS) {
      const raw = storage.getItem(cacheKey(field));
      if (raw === null) return null;
      if (field === 'login_user') {
        try {
          out[field] = JSON.parse(raw);
        } catch {
          return null;
        }
      } else out[field] = NUMBERS.has(field) ? Number(raw) : raw;
    }
    return Number.isFinite(out.login_uid) ? (out as unknown as LoginCache) : null;
  }

  has(): boolean {
    return this.read() !== null;
  }

  clear(): void {
    const storage = this.storage();
    if (!storage) return;
    for (const field of LOGIN_CACHE_FIELDS) storage.removeItem(cacheKey(field));
  }
}

function defaultStorage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage blocked: the login lasts as long as the page
  }
}
