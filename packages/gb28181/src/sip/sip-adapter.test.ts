/** The `sip` package's parser behind sip-adapter.ts, on hostile input. */
import { describe, expect, it } from 'vitest';
import { buildResponse, parseSip, uriUser } from './sip-adapter';

const BASE =
  'REGISTER sip:34020000002000000001@3402000000 SIP/2.0\r\n' +
  'Via: SIP/2.0/UDP 127.0.0.2:5070;rport;branch=z9hG4bK1\r\n' +
  'From: <sip:34020000001320000001@3402000000>;tag=1\r\n' +
  'To: <sip:34020000001320000001@3402000000>\r\n' +
  'Call-ID: c1\r\n' +
  'CSeq: 1 REGISTER\r\n';

describe('parseSip', () => {
  it('parses a REGISTER and answers it with the mandatory headers copied', () => {
    const m = parseSip(BASE + 'Contact: <sip:34020000001320000001@127.0.0.2:5070>\r\nContent-Length: 0\r\n\r\n');
    expect(m?.method).toBe('REGISTER');
    expect(uriUser(m!.headers.from!.uri)).toBe('34020000001320000001');
    const out = buildResponse(m!, 403, 'Forbidden\r\nX-Injected: 1');
    expect(out).toMatch(/^SIP\/2\.0 403 Forbidden X-Injected: 1\r\n/);
    expect(out).toContain('Call-ID: c1\r\n');
    expect(out).toMatch(/\r\nTo: +<sip:34020000001320000001@3402000000>;tag=\w+\r\n/);
  });

  it('refuses messages without a mandatory header or the blank line', () => {
    expect(parseSip(BASE.replace('Call-ID: c1\r\n', '') + '\r\n')).toBeNull();
    expect(parseSip(BASE.replace(/Via: .*\r\n/, '') + '\r\n')).toBeNull();
    expect(parseSip(BASE)).toBeNull();
    expect(parseSip('SIP/2.0 999 What\r\n' + BASE.split('\r\n').slice(1).join('\r\n') + '\r\n')).toBeNull();
    expect(parseSip('\u0000\u0001garbage\r\n\r\n')).toBeNull();
    expect(uriUser('sip:%E0%A4%A@host')).toBe('');
    expect(uriUser('sip:host')).toBe('');
  });

  it('hostile 60 KB inputs return quickly', () => {
    const cases = [
      ' '.repeat(60_000) + 'x',
      ' \r\n'.repeat(20_000) + 'x',
      'REGISTER sip:a@b SIP/2.0\r\n' + 'X: y\r\n'.repeat(9_000),
      BASE.replace('branch=z9hG4bK1', 'branch=x' + ';a'.repeat(30_000)) + '\r\n',
      BASE + 'Contact: ' + '<'.repeat(60_000) + '\r\n\r\n',
      BASE + 'Authorization: Digest ' + 'a=b,'.repeat(15_000) + '\r\n\r\n',
      BASE + 'Authorization: Digest a="' + '\\"'.repeat(30_000) + '\r\n\r\n',
      BASE.replace('From: <', 'From: ' + '"'.repeat(60_000) + '<') + '\r\n',
    ];
    for (const text of cases) {
      const t = performance.now();
      parseSip(text);
      expect(performance.now() - t).toBeLessThan(100);
    }
  });
});
