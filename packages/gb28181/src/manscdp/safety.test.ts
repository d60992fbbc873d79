import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { catalogResponsePages, decodeManscdp, encodeManscdp, tryDecodeManscdp } from './codec';
import { ManscdpError, type ManscdpErrorCode } from './errors';
import { MANSCDP_LIMITS } from './xml';

const DEV = '34020000001110000001';
const CAM = '34020000001320000001';

function refused(body: Buffer | string): { code: ManscdpErrorCode; field?: string; message: string } {
  const r = tryDecodeManscdp(typeof body === 'string' ? iconv.encode(body, 'gbk') : body);
  if (r.ok) throw new Error(`decoded: ${JSON.stringify(r.message)}`);
  expect(r.error).toBeInstanceOf(ManscdpError);
  return { code: r.error.code, field: r.error.field, message: r.error.message };
}

const keepalive = (inner = 'OK') =>
  `<?xml version="1.0" encoding="GB2312"?><Notify><CmdType>Keepalive</CmdType><SN>1</SN><DeviceID>${DEV}</DeviceID><Status>${inner}</Status></Notify>`;

describe('MANSCDP hostile input', () => {
  it('refuses a body over the size limit before decoding it', () => {
    const padding = ' '.repeat(MANSCDP_LIMITS.maxBytes);
    expect(refused(keepalive().replace('<Status>', `${padding}<Status>`)).code).toBe('too_large');
    expect(refused(Buffer.alloc(0)).code).toBe('malformed');
  });

  it('refuses deep nesting', () => {
    const deep = `<Notify><CmdType>Keepalive</CmdType>${'<a>'.repeat(20)}x${'</a>'.repeat(20)}</Notify>`;
    expect(refused(deep).code).toBe('too_deep');
    const deeper = `<Notify>${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</Notify>`;
    expect(refused(deeper).code).toBe('too_deep');
  });

  it('refuses a list over the item limit, naming it', () => {
    const items = '<Item><DeviceID>1</DeviceID></Item>'.repeat(MANSCDP_LIMITS.maxListItems + 1);
    const body = `<Response><CmdType>Catalog</CmdType><SN>1</SN><DeviceID>${DEV}</DeviceID><SumNum>2000</SumNum><DeviceList>${items}</DeviceList></Response>`;
    expect(refused(body)).toMatchObject({ code: 'too_many', field: 'DeviceList' });
  });

  it('refuses DOCTYPE, ENTITY declarations and unknown entity references', () => {
    const xxe = `<?xml version="1.0" encoding="GB2312"?><!DOCTYPE Notify [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Notify><CmdType>Keepalive</CmdType><SN>1</SN><DeviceID>${DEV}</DeviceID><Status>&xxe;</Status></Notify>`;
    expect(refused(xxe).code).toBe('doctype');
    const laughs = `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Notify>&lol2;</Notify>`;
    expect(refused(laughs).code).toBe('doctype');
    expect(refused(`<!doctype Notify><Notify/>`).code).toBe('doctype');
    expect(refused(keepalive('&xxe;')).code).toBe('entity');
    expect(refused(keepalive('&amp')).code).toBe('entity');
    expect(refused(keepalive('&#0;')).code).toBe('entity');
    expect(refused(keepalive('&#x110000;')).code).toBe('entity');
    // the five predefined entities and character references are read
    expect(decodeManscdp(iconv.encode(keepalive('&#79;&#x4B;'), 'gbk'))).toMatchObject({ Status: 'OK' });
  });

  it('refuses bodies that are not one well-formed root element', () => {
    expect(refused(keepalive().slice(0, -3)).code).toBe('malformed');
    expect(refused('<Notify><CmdType>Keepalive</CmdType>').code).toBe('malformed');
    expect(refused('not xml at all').code).toMatch(/malformed|root/);
    expect(refused('<Notify><CmdType>Keepalive</CmdType></Notify><Notify/>').code).toBe('root');
    expect(refused('<Notify/>').code).toBe('root');
    expect(refused('<Notify>text</Notify>').code).toBe('root');
    expect(refused('<Notify><__proto__>1</__proto__></Notify>').code).toBe('malformed');
    expect(refused('<?xml version="1.0" encoding="ISO-8859-5"?><Notify/>').code).toBe('encoding');
  });

  it('never throws anything but ManscdpError on truncated or corrupted bodies, and ends', () => {
    const body = encodeManscdp(
      catalogResponsePages({
        sn: 1,
        deviceId: DEV,
        items: [{ DeviceID: CAM, Name: '东门', Status: 'ON', Longitude: 114, Latitude: 22 }],
      })[0]!,
    );
    let decoded = 0;
    for (let cut = 0; cut < body.length; cut++) {
      const r = tryDecodeManscdp(body.subarray(0, cut));
      if (r.ok) decoded++;
      else expect(r.error).toBeInstanceOf(ManscdpError);
    }
    // only the cuts of the final CRLF leave a whole document
    expect(decoded).toBe(2);
    let seed = 1;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 3000; i++) {
      const copy = Buffer.from(body);
      for (let j = 0; j < 1 + Math.floor(rand() * 4); j++)
        copy[Math.floor(rand() * copy.length)] = Math.floor(rand() * 256);
      const r = tryDecodeManscdp(copy);
      if (!r.ok) expect(r.error).toBeInstanceOf(ManscdpError);
    }
  });
});
