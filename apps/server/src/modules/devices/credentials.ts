import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device API credentials. A secret is 256 random bits, so a plain sha256 is a sound way to store
 * it (nothing to brute-force, unlike a password) and cheap enough to check on every request.
 */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
