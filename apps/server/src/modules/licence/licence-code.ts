import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { LicencePayload } from '@bwc/protocol';

const DAY_MS = 86_400_000;
/** DER prefix of an Ed25519 SubjectPublicKeyInfo; a raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export type LicenceRejection = 'malformed' | 'forged' | 'wrongMachine' | 'expired';
export type LicenceCheck =
  { ok: true; payload: LicencePayload; expiresAt: Date } | { ok: false; reason: LicenceRejection };

/** Registration code: base64url(JSON payload) + '.' + base64url(Ed25519 signature of those JSON bytes). */
export function issueLicenceCode(payload: LicencePayload, privateKey: KeyObject): string {
  const body = Buffer.from(JSON.stringify(LicencePayload.parse(payload)), 'utf8');
  const signature = sign(null, body, privateKey);
  return `${body.toString('base64url')}.${signature.toString('base64url')}`;
}

export function licenceExpiry(payload: LicencePayload): Date {
  return new Date(Date.parse(payload.issued_at) + payload.valid_days * DAY_MS);
}

/** Whole days left (rounded up), 0 once expired. */
export function daysLeft(expiresAt: Date, now: Date = new Date()): number {
  return Math.max(0, Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS));
}

/**
 * Verify a code against the trusted vendor keys and this installation's mac_code. The checks
 * run in an order that gives the most useful reason: shape, signature, machine, date.
 */
export function verifyLicenceCode(
  code: string,
  trustedKeys: KeyObject[],
  macCode: string,
  now: Date = new Date(),
): LicenceCheck {
  const parts = code.trim().split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1] || !/^[A-Za-z0-9_-]+$/.test(parts[0] + parts[1]))
    return { ok: false, reason: 'malformed' };
  const body = Buffer.from(parts[0], 'base64url');
  const signature = Buffer.from(parts[1], 'base64url');
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const parsed = LicencePayload.safeParse(json);
  if (!parsed.success || Number.isNaN(Date.parse(parsed.data.issued_at))) return { ok: false, reason: 'malformed' };
  if (signature.length !== 64 || !trustedKeys.some((key) => verify(null, body, key, signature)))
    return { ok: false, reason: 'forged' };
  if (parsed.data.mac_code !== macCode) return { ok: false, reason: 'wrongMachine' };
  const expiresAt = licenceExpiry(parsed.data);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, payload: parsed.data, expiresAt };
}

/** A trusted public key from config: PEM (SPKI) or base64 of the raw 32-byte Ed25519 key. */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.includes('-----BEGIN')) return createPublicKey(trimmed.replace(/\\n/g, '\n'));
  const raw = Buffer.from(trimmed, 'base64');
  if (raw.length !== 32)
    throw new Error('LICENCE_PUBLIC_KEY must be a PEM public key or base64 of a raw 32-byte Ed25519 key');
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** base64 of the raw 32-byte public key (the short form LICENCE_PUBLIC_KEY accepts). */
export function rawPublicKeyBase64(key: KeyObject): string {
  return key.export({ format: 'der', type: 'spki' }).subarray(ED25519_SPKI_PREFIX.length).toString('base64');
}
