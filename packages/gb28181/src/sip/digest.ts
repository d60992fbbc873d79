/** HTTP Digest (RFC 2617 / RFC 3261 22.4) as GB28181-2016 9.1.2.1 uses it: MD5, qop auth. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

export function challengeHeader(realm: string, nonce: string, stale = false): string {
  return `Digest realm="${realm}",nonce="${nonce}",qop="auth",algorithm=MD5${stale ? ',stale=true' : ''}`;
}

/** The Authorization fields, unquoted. */
export type DigestCredentials = Record<string, string | undefined>;

export function unquote(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

export function readCredentials(raw: Record<string, string | undefined>): DigestCredentials {
  const out: DigestCredentials = {};
  for (const [k, v] of Object.entries(raw)) out[k.toLowerCase()] = k === 'scheme' ? v : unquote(v);
  return out;
}

/** True when `c.response` is the digest of `password` for this method (qop auth, or none: RFC 2069). */
export function verifyDigest(c: DigestCredentials, method: string, password: string): boolean {
  const { username, realm, nonce, uri, response, qop, nc, cnonce } = c;
  if (!username || realm === undefined || !nonce || !uri || !response) return false;
  if (c.algorithm && c.algorithm.toUpperCase() !== 'MD5') return false;
  const ha1 = md5(`${username}:${realm}:${password}`);
  const ha2 = md5(`${method}:${uri}`);
  let expected: string;
  if (qop === undefined) expected = md5(`${ha1}:${nonce}:${ha2}`);
  else if (qop.toLowerCase() === 'auth' && nc && cnonce) expected = md5(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`);
  else return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(response.toLowerCase());
  return a.length === b.length && timingSafeEqual(a, b);
}
