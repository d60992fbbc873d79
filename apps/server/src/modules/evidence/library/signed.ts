import { createHmac, timingSafeEqual } from 'node:crypto';
import { EVIDENCE_URL_TTL_MS } from '@bwc/protocol';

/**
 * Signed evidence addresses: `/media/evidence/<kind>/<id>?token=<user>.<expires>.<mac>`, the mac
 * HMAC-SHA256 with the media signing key (modules/media/keys.ts) over kind, item, user and expiry.
 * A token names one user, one item and one kind; it is refused when changed or expired.
 */
export const EVIDENCE_FILE_PATH = '/media/evidence';
export const FILE_KINDS = ['original', 'play', 'thumb', 'download'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

const mac = (key: Buffer, kind: FileKind, id: number, uid: number, expires: number) =>
  createHmac('sha256', key).update(`evidence|${kind}|${id}|${uid}|${expires}`).digest('base64url');

export function signedUrl(key: Buffer, kind: FileKind, id: number, uid: number, nowMs: number) {
  const expires = nowMs + EVIDENCE_URL_TTL_MS;
  return {
    url: `${EVIDENCE_FILE_PATH}/${kind}/${id}?token=${uid}.${expires}.${mac(key, kind, id, uid, expires)}`,
    expires,
  };
}

export type TokenRefusal = 'token' | 'expired';

/** The user a token is for, or why it is refused. */
export function checkToken(
  key: Buffer,
  kind: FileKind,
  id: number,
  token: unknown,
  nowMs: number,
): { userId: number } | { refused: TokenRefusal } {
  const [uidText, expiresText, sig, ...rest] = typeof token === 'string' ? token.split('.') : [];
  if (!uidText || !expiresText || !sig || rest.length || !/^\d{1,12}$/.test(uidText) || !/^\d{1,15}$/.test(expiresText))
    return { refused: 'token' };
  const want = Buffer.from(mac(key, kind, id, Number(uidText), Number(expiresText)));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return { refused: 'token' };
  if (Number(expiresText) < nowMs) return { refused: 'expired' };
  return { userId: Number(uidText) };
}
