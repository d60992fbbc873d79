import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256';
import { canonicalPairs, decodeLoginInfo, encodeLoginInfo, signPayload, verifySignature } from './signature';

const nodeSha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it.each(['', 'abc', '移动执法电子证据管理', 'a'.repeat(55), 'b'.repeat(56), 'c'.repeat(64), 'd'.repeat(1000)])(
    'matches node crypto for %j',
    (input) => expect(sha256Hex(input)).toBe(nodeSha(input)),
  );
});

describe('login signature', () => {
  const payload = { token: 't1', captcha_code: 'ab12', login_info: 'eyJ4IjoxfQ==', pe_signals: '', timestamp: 1700000000000 };

  it('sorts keys and leaves out the signature and empty values', () => {
    expect(canonicalPairs({ b: 2, a: 1, signature: 'x', c: undefined })).toBe('a=1&b=2');
  });

  it('is the double hash of the sorted pairs plus the secret', () => {
    const expected = nodeSha(nodeSha(canonicalPairs(payload) + 'secret'));
    expect(signPayload(payload, 'secret')).toBe(expected);
  });

  it('verifies an untouched payload and rejects a tampered one', () => {
    const signed = { ...payload, signature: signPayload(payload) };
    expect(verifySignature(signed)).toBe(true);
    expect(verifySignature({ ...signed, captcha_code: 'zz99' })).toBe(false);
    expect(verifySignature({ ...signed, signature: signPayload(payload, 'another secret') })).toBe(false);
    expect(verifySignature(payload)).toBe(false);
  });

  it('round-trips login_info with unicode user names and rejects garbage', () => {
    const info = encodeLoginInfo('调度员', sha256Hex('pw'));
    expect(decodeLoginInfo(info)).toEqual({ username: '调度员', password: sha256Hex('pw') });
    expect(decodeLoginInfo('not base64 !!')).toBeNull();
    expect(decodeLoginInfo(btoa('{"username":1}'))).toBeNull();
  });
});
