import { generateKeyPairSync } from 'node:crypto';
import type { LicencePayload } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import {
  daysLeft,
  issueLicenceCode,
  licenceExpiry,
  parsePublicKey,
  rawPublicKeyBase64,
  verifyLicenceCode,
} from './licence-code';

const vendor = generateKeyPairSync('ed25519');
const attacker = generateKeyPairSync('ed25519');
const MAC = 'ABCD-EF01-2345-6789-ABCD-EF01';
const payload = (over: Partial<LicencePayload> = {}): LicencePayload => ({
  v: 1,
  mac_code: MAC,
  customer: 'test',
  issued_at: '2026-01-01T00:00:00.000Z',
  valid_days: 30,
  workstations: 5,
  devices: 100,
  ...over,
});
const at = (iso: string) => new Date(iso);

describe('licence code', () => {
  it('verifies a code issued with the trusted key, on its machine, before expiry', () => {
    const code = issueLicenceCode(payload(), vendor.privateKey);
    const check = verifyLicenceCode(code, [vendor.publicKey], MAC, at('2026-01-15T00:00:00Z'));
    expect(check).toEqual({ ok: true, payload: payload(), expiresAt: at('2026-01-31T00:00:00.000Z') });
  });

  it('rejects a code signed by another key as forged', () => {
    const code = issueLicenceCode(payload(), attacker.privateKey);
    expect(verifyLicenceCode(code, [vendor.publicKey], MAC, at('2026-01-02T00:00:00Z'))).toEqual({
      ok: false,
      reason: 'forged',
    });
  });

  it('rejects a genuine code whose payload was edited (more workstations) as forged', () => {
    const [, sig] = issueLicenceCode(payload(), vendor.privateKey).split('.');
    const edited = Buffer.from(JSON.stringify(payload({ workstations: 9999 }))).toString('base64url');
    expect(verifyLicenceCode(`${edited}.${sig}`, [vendor.publicKey], MAC, at('2026-01-02T00:00:00Z'))).toEqual({
      ok: false,
      reason: 'forged',
    });
  });

  it('rejects a genuine code for another machine', () => {
    const code = issueLicenceCode(payload({ mac_code: '0000-0000-0000-0000-0000-0000' }), vendor.privateKey);
    expect(verifyLicenceCode(code, [vendor.publicKey], MAC, at('2026-01-02T00:00:00Z'))).toEqual({
      ok: false,
      reason: 'wrongMachine',
    });
  });

  it('rejects a genuine code after its valid days', () => {
    const code = issueLicenceCode(payload(), vendor.privateKey);
    expect(verifyLicenceCode(code, [vendor.publicKey], MAC, at('2026-01-31T00:00:00.000Z'))).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyLicenceCode(code, [vendor.publicKey], MAC, at('2026-01-30T23:59:59.000Z')).ok).toBe(true);
  });

  it.each([
    '',
    'abc',
    'a.b.c',
    'not base64!.sig',
    `${Buffer.from('{"v":1}').toString('base64url')}.${'A'.repeat(86)}`,
    `${Buffer.from('nope').toString('base64url')}.AAAA`,
  ])('rejects %j as malformed', (code) => {
    expect(verifyLicenceCode(code, [vendor.publicKey], MAC)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('accepts any of several trusted keys', () => {
    const code = issueLicenceCode(payload(), vendor.privateKey);
    expect(verifyLicenceCode(code, [attacker.publicKey, vendor.publicKey], MAC, at('2026-01-02T00:00:00Z')).ok).toBe(
      true,
    );
  });

  it('parses the public key as PEM or as base64 of the raw key', () => {
    const code = issueLicenceCode(payload(), vendor.privateKey);
    const pem = vendor.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    for (const key of [parsePublicKey(pem), parsePublicKey(rawPublicKeyBase64(vendor.publicKey))]) {
      expect(verifyLicenceCode(code, [key], MAC, at('2026-01-02T00:00:00Z')).ok).toBe(true);
    }
    expect(() => parsePublicKey('c2hvcnQ=')).toThrow(/32-byte/);
  });

  it('counts days left rounded up and never below zero', () => {
    const expires = licenceExpiry(payload());
    expect(daysLeft(expires, at('2026-01-30T12:00:00Z'))).toBe(1);
    expect(daysLeft(expires, at('2026-01-01T00:00:00Z'))).toBe(30);
    expect(daysLeft(expires, at('2026-03-01T00:00:00Z'))).toBe(0);
  });
});
