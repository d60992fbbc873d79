import { sha256Hex } from './sha256';

/**
 * Fixed secret mixed into login-payload signatures (spec part 1 section 7). It ships inside the
 * console, so the signature proves integrity and freshness (with `timestamp`), not identity.
 */
export const SIGNATURE_SECRET = 'bwc-console-sign-v1';

/** Canonical string: keys sorted, `key=value` joined by `&`, the `signature` key itself left out. */
export function canonicalPairs(payload: Record<string, unknown>): string {
  return Object.keys(payload)
    .filter((k) => k !== 'signature' && payload[k] !== undefined && payload[k] !== null)
    .sort()
    .map((k) => `${k}=${String(payload[k])}`)
    .join('&');
}

/** signature = sha256(sha256(pairs + secret)): "hashed twice". */
export function signPayload(payload: Record<string, unknown>, secret: string = SIGNATURE_SECRET): string {
  return sha256Hex(sha256Hex(canonicalPairs(payload) + secret));
}

export function verifySignature(payload: Record<string, unknown> & { signature?: unknown }, secret: string = SIGNATURE_SECRET): boolean {
  return typeof payload.signature === 'string' && payload.signature === signPayload(payload, secret);
}

/** Password as sent at login: the SHA-256 of what the user typed. The server keeps argon2id of it. */
export function hashPasswordForLogin(password: string): string {
  return sha256Hex(password);
}

function utf8ToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function base64ToUtf8(b64: string): string {
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** login_info: base64 of JSON {username, password} with the password already hashed. */
export function encodeLoginInfo(username: string, passwordHash: string): string {
  return utf8ToBase64(JSON.stringify({ username, password: passwordHash }));
}

export function decodeLoginInfo(loginInfo: string): { username: string; password: string } | null {
  try {
    const parsed: unknown = JSON.parse(base64ToUtf8(loginInfo));
    if (parsed && typeof parsed === 'object' && 'username' in parsed && 'password' in parsed) {
      const { username, password } = parsed as { username: unknown; password: unknown };
      if (typeof username === 'string' && typeof password === 'string') return { username, password };
    }
    return null;
  } catch {
    return null;
  }
}
