import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connection';
import { readSecret } from '../../db/settings';
import * as repo from './media.repository';

/**
 * Signed, expiring media credentials (issue 13 section 1), HMAC-SHA256 with one key shared by every
 * node (settings row `media_signing_key`, created once):
 * - a publish key lets one device publish its stream once: `<expires>.<nonce>.<mac>` over the device
 *   id; a key is refused when its mac is wrong, when it expired, and when it was used before
 *   (replayed);
 * - a play token lets one user watch one device's stream until it expires: `<user>.<expires>.<mac>`
 *   over the device id; the gateway also checks the user's unit scope when the viewer connects.
 */

/** The signing key (settings row `media_signing_key`, created once, shared by every node). */
export function readMediaKey(db: Db): Promise<Buffer> {
  return readSecret(db, 'media_signing_key');
}

export type KeyRefusal = 'malformed' | 'signature' | 'expired' | 'replayed';

const mac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64url');

function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A play token `<user>.<expires>.<mac>`, the mac over `<kind>|<user>|<stream>|<expires>`: one user,
 * one stream (a device id, a GB stream key), until it expires.
 */
export function signPlayToken(key: Buffer, kind: string, userId: number, stream: string | number, expires: number) {
  return `${userId}.${expires}.${mac(key, `${kind}|${userId}|${stream}|${expires}`)}`;
}

/** The user of a play token made by `signPlayToken`, or why it is refused. */
export function verifyPlayToken(
  key: Buffer,
  kind: string,
  stream: string | number,
  token: string,
  nowMs = Date.now(),
): { userId: number } | { refused: Exclude<KeyRefusal, 'replayed'> } {
  const [userText, expiresText, sig, ...rest] = token.split('.');
  if (
    !userText ||
    !expiresText ||
    !sig ||
    rest.length ||
    !/^\d{1,12}$/.test(userText) ||
    !/^\d{1,15}$/.test(expiresText)
  )
    return { refused: 'malformed' };
  const userId = Number(userText);
  const expires = Number(expiresText);
  if (!sameMac(sig, mac(key, `${kind}|${userId}|${stream}|${expires}`))) return { refused: 'signature' };
  if (expires < nowMs) return { refused: 'expired' };
  return { userId };
}

export class MediaKeys {
  /** `db`: where used publish keys are remembered (every node, across restarts) */
  constructor(
    private readonly key: Buffer,
    private readonly db: Db,
  ) {}

  publishKey(deviceId: number, ttlMs: number, nowMs = Date.now()): string {
    const expires = nowMs + ttlMs;
    const nonce = randomBytes(9).toString('base64url');
    return `${expires}.${nonce}.${mac(this.key, `publish|${deviceId}|${expires}|${nonce}`)}`;
  }

  /** Check a publish key for a device and spend it; answers why it is refused, or null. */
  async usePublishKey(deviceId: number, key: string, nowMs = Date.now()): Promise<KeyRefusal | null> {
    const [expiresText, nonce, sig, ...rest] = key.split('.');
    if (!expiresText || !nonce || nonce.length > 32 || !sig || rest.length || !/^\d{1,15}$/.test(expiresText))
      return 'malformed';
    const expires = Number(expiresText);
    if (!sameMac(sig, mac(this.key, `publish|${deviceId}|${expires}|${nonce}`))) return 'signature';
    if (expires < nowMs) return 'expired';
    const fresh = await repo.spendNonce(
      this.db,
      nonce,
      deviceId,
      new Date(expires).toISOString(),
      new Date(nowMs).toISOString(),
    );
    return fresh ? null : 'replayed';
  }

  playToken(userId: number, deviceId: number, ttlMs: number, nowMs = Date.now()): string {
    return signPlayToken(this.key, 'play', userId, deviceId, nowMs + ttlMs);
  }

  /** The user a play token is for, or why it is refused. */
  checkPlayToken(deviceId: number, token: string, nowMs = Date.now()): { userId: number } | { refused: KeyRefusal } {
    return verifyPlayToken(this.key, 'play', deviceId, token, nowMs);
  }
}
