import { LoginRequest, decodeLoginInfo, hashPasswordForLogin, verifySignature } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { buildLoginRequest } from './loginRequest';

describe('buildLoginRequest', () => {
  const values = { username: ' admin ', password: 'Admin@123', captcha_code: ' ab12 ' };

  it('builds a LoginRequest whose signature verifies', () => {
    const request = buildLoginRequest(values, 'tok-1', 1_700_000_000_000, '{"ua":"x"}');
    expect(LoginRequest.safeParse(request).success).toBe(true);
    expect(verifySignature(request)).toBe(true);
    expect(request).toMatchObject({
      token: 'tok-1',
      captcha_code: 'ab12',
      pe_signals: '{"ua":"x"}',
      timestamp: 1_700_000_000_000,
    });
  });

  it('encodes the trimmed username with the sha256 of the password, never the password itself', () => {
    const request = buildLoginRequest(values, 'tok-1');
    expect(decodeLoginInfo(request.login_info)).toEqual({
      username: 'admin',
      password: hashPasswordForLogin('Admin@123'),
    });
    expect(JSON.stringify(request)).not.toContain('Admin@123');
  });

  it('a changed field breaks the signature', () => {
    const request = buildLoginRequest(values, 'tok-1', 1_700_000_000_000);
    expect(verifySignature({ ...request, captcha_code: 'zz99' })).toBe(false);
    expect(verifySignature({ ...request, timestamp: request.timestamp + 1 })).toBe(false);
  });
});
