import { describe, expect, it } from 'vitest';
import { readCredentials, verifyDigest } from '@bwc/gb28181/sip';
import { digestAuthorization } from './device';

/** The fields of an Authorization value, unquoted. */
function fields(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.replace(/^Digest /, '').matchAll(/(\w+)=("([^"]*)"|[^,]*)/g)) out[m[1]!] = m[3] ?? m[2]!;
  return out;
}

describe('digestAuthorization', () => {
  it('gives the response of the RFC 2617 3.5 example', () => {
    const h = digestAuthorization(
      {
        realm: 'testrealm@host.com',
        nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
        qop: 'auth,auth-int',
        opaque: '5ccc069c403ebaf9f0171e9517f40e41',
      },
      {
        username: 'Mufasa',
        password: 'Circle Of Life',
        method: 'GET',
        uri: '/dir/index.html',
        nc: 1,
        cnonce: '0a4f113b',
      },
    );
    expect(fields(h)).toMatchObject({
      response: '6629fae49393a05397450978507c4ef1',
      qop: 'auth',
      nc: '00000001',
      cnonce: '0a4f113b',
      opaque: '5ccc069c403ebaf9f0171e9517f40e41',
    });
  });

  it('answers a challenge without qop the RFC 2069 way, and the platform side accepts both', () => {
    const challenge = readCredentials({ scheme: 'Digest', realm: '"3402000000"', nonce: '"abc"', qop: '"auth"' });
    const a = {
      username: '34020000001320000001',
      password: 'pw',
      method: 'REGISTER',
      uri: 'sip:34020000002000000001@3402000000',
      nc: 3,
    };
    const withQop = fields(digestAuthorization(challenge, a));
    expect(verifyDigest(withQop, 'REGISTER', 'pw')).toBe(true);
    expect(verifyDigest(withQop, 'REGISTER', 'other')).toBe(false);
    const plain = fields(digestAuthorization({ realm: '3402000000', nonce: 'abc' }, a));
    expect(plain.qop).toBeUndefined();
    expect(verifyDigest(plain, 'REGISTER', 'pw')).toBe(true);
  });
});
