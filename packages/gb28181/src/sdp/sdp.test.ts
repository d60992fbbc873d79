import { describe, expect, it } from 'vitest';
import {
  buildAnswer,
  buildOffer,
  buildSdp,
  parseMediaFormat,
  parseSdp,
  parseSsrc,
  planFromOffer,
  printMediaFormat,
  SdpError,
  SsrcAllocator,
  ssrcNumber,
} from './index';

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';

// The live offer of GB28181-2016 Appendix F, as a platform sends it.
const LIVE_OFFER = crlf([
  'v=0',
  'o=64010000002020000001 0 0 IN IP4 172.20.16.3',
  's=Play',
  'c=IN IP4 172.20.16.3',
  't=0 0',
  'm=video 6000 RTP/AVP 96 98 97',
  'a=recvonly',
  'a=rtpmap:96 PS/90000',
  'a=rtpmap:98 H264/90000',
  'a=rtpmap:97 MPEG4/90000',
  'y=0100000001',
  'f=',
]);

const PLAYBACK_TCP_OFFER = crlf([
  'v=0',
  'o=64010000002020000001 0 0 IN IP4 172.20.16.3',
  's=Playback',
  'u=64010000041310000345:0',
  'c=IN IP4 172.20.16.3',
  't=1288625085 1288625871',
  'm=video 6000 TCP/RTP/AVP 96 98 97',
  'a=recvonly',
  'a=rtpmap:96 PS/90000',
  'a=rtpmap:98 H264/90000',
  'a=rtpmap:97 MPEG4/90000',
  'a=setup:passive',
  'a=connection:new',
  'y=1100000001',
  'f=v/2/4/25/1/4000a/1/8/1',
]);

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof SdpError) return e.code;
    throw e;
  }
  return 'none';
}

describe('parseSdp', () => {
  it('reads the live offer of Appendix F', () => {
    const s = parseSdp(LIVE_OFFER);
    expect(s.origin).toEqual({
      username: '64010000002020000001',
      sessionId: '0',
      sessionVersion: '0',
      address: '172.20.16.3',
    });
    expect(s.sessionName).toBe('Play');
    expect(s.address).toBe('172.20.16.3');
    expect([s.start, s.stop]).toEqual([0, 0]);
    expect(s.ssrc).toBe('0100000001');
    expect(s.format).toEqual({});
    expect(s.media).toHaveLength(1);
    const m = s.media[0]!;
    expect(m).toMatchObject({
      kind: 'video',
      port: 6000,
      transport: 'RTP/AVP',
      formats: [96, 98, 97],
      direction: 'recvonly',
    });
    expect(m.rtpmaps).toEqual([
      { payloadType: 96, encoding: 'PS', clockRate: 90000 },
      { payloadType: 98, encoding: 'H264', clockRate: 90000 },
      { payloadType: 97, encoding: 'MPEG4', clockRate: 90000 },
    ]);
    expect(planFromOffer(s)).toEqual({
      session: 'Play',
      address: '172.20.16.3',
      port: 6000,
      transport: 'udp',
      payloadType: 96,
      encoding: 'PS',
      ssrc: '0100000001',
      start: 0,
      stop: 0,
    });
  });

  it('reads a TCP playback offer with u=, t=, setup, connection and f=', () => {
    const s = parseSdp(Buffer.from(PLAYBACK_TCP_OFFER, 'latin1'));
    expect(s.sessionName).toBe('Playback');
    expect(s.uri).toBe('64010000041310000345:0');
    expect([s.start, s.stop]).toEqual([1288625085, 1288625871]);
    expect(s.media[0]).toMatchObject({ transport: 'TCP/RTP/AVP', setup: 'passive', connectionNew: true });
    expect(s.format).toEqual({
      video: { codec: 2, resolution: 4, frameRate: 25, rateControl: 1, bitrateKbps: 4000 },
      audio: { codec: 1, bitrate: 8, sampleRate: 1 },
    });
    const plan = planFromOffer(s);
    // The platform listens (passive), so the device connects.
    expect(plan).toMatchObject({ transport: 'tcp-active', channelId: '64010000041310000345', ssrc: '1100000001' });
  });

  it('takes LF lines, media-level c=, unknown lines and attributes', () => {
    const s = parseSdp(
      [
        'v=0',
        'o=34020000001320000001 1 1 IN IP4 10.0.0.2',
        's=Play',
        'i=extra',
        't=0 0',
        'm=video 15060 RTP/AVP 96',
        'c=IN IP4 10.0.0.2',
        'b=AS:4096',
        'a=sendonly',
        'a=rtpmap:96 PS/90000',
        'a=framerate:25',
        'a=x-flag',
        'y=0200000003',
      ].join('\n'),
    );
    expect(s.address).toBe('10.0.0.2');
    expect(s.media[0]!.attributes).toEqual([
      ['framerate', '25'],
      ['x-flag', ''],
    ]);
    expect(s.media[0]!.direction).toBe('sendonly');
  });

  it('refuses what GB28181 needs when it is missing or out of shape, with a code and the line', () => {
    const without = (type: string) => LIVE_OFFER.replace(new RegExp(`^${type}=.*\\r\\n`, 'm'), '');
    for (const t of ['v', 'o', 's', 't', 'm', 'c']) {
      let err: unknown;
      try {
        parseSdp(without(t));
      } catch (e) {
        err = e;
      }
      expect(err, t).toBeInstanceOf(SdpError);
      expect((err as SdpError).code, t).toBe('missing');
      expect((err as SdpError).line, t).toBe(t);
    }
    expect(codeOf(() => parseSdp(LIVE_OFFER.replace('y=0100000001', 'y=01000')))).toBe('invalid');
    expect(codeOf(() => parseSdp(LIVE_OFFER.replace('6000', '70000')))).toBe('invalid');
    expect(codeOf(() => parseSdp(LIVE_OFFER.replace('6000', '-1')))).toBe('malformed');
    expect(codeOf(() => parseSdp(LIVE_OFFER.replace('RTP/AVP', 'RTP/SAVP')))).toBe('invalid');
    expect(codeOf(() => parseSdp(LIVE_OFFER.replace('c=IN IP4 172.20.16.3', 'c=IN IP4 999.1.1.1')))).toBe('invalid');
    expect(codeOf(() => parseSdp(LIVE_OFFER.replace('c=IN IP4', 'c=IN IP6')))).toBe('malformed');
    expect(codeOf(() => parseSdp(LIVE_OFFER.replace('a=rtpmap:96 PS/90000', 'a=rtpmap:x PS')))).toBe('malformed');
    expect(codeOf(() => parseSdp(LIVE_OFFER.replace('f=', 'f=v/2/4')))).toBe('malformed');
    expect(codeOf(() => parseSdp(LIVE_OFFER + 'not a line\r\n'))).toBe('malformed');
    expect(codeOf(() => parseSdp(''))).toBe('missing');
  });

  it('has size limits', () => {
    expect(codeOf(() => parseSdp(LIVE_OFFER + 'a=x\r\n'.repeat(2000)))).toBe('too-large');
    expect(codeOf(() => parseSdp(LIVE_OFFER + `i=${'x'.repeat(2000)}\r\n`))).toBe('too-large');
    expect(codeOf(() => parseSdp(LIVE_OFFER + 'i=x\r\n'.repeat(200)))).toBe('too-large');
    const many = LIVE_OFFER.replace('96 98 97', Array.from({ length: 40 }, (_, i) => 96 + (i % 30)).join(' '));
    expect(codeOf(() => parseSdp(many))).toBe('too-large');
    const media = 'm=video 1 RTP/AVP 96\r\na=rtpmap:96 PS/90000\r\n'.repeat(5);
    expect(codeOf(() => parseSdp(LIVE_OFFER + media))).toBe('too-large');
  });

  it('throws nothing but SdpError on every cut and on random mutations (fixed seed)', () => {
    for (let i = 0; i <= PLAYBACK_TCP_OFFER.length; i++) {
      try {
        parseSdp(PLAYBACK_TCP_OFFER.slice(0, i));
      } catch (e) {
        expect(e).toBeInstanceOf(SdpError);
      }
    }
    let seed = 12345;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    let parsed = 0;
    for (let n = 0; n < 3000; n++) {
      const b = Buffer.from(PLAYBACK_TCP_OFFER, 'latin1');
      for (let k = 0; k < 1 + Math.floor(rnd() * 4); k++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      try {
        parseSdp(b);
        parsed++;
      } catch (e) {
        expect(e).toBeInstanceOf(SdpError);
      }
    }
    expect(parsed).toBeGreaterThan(0); // some mutations land in tolerated places
  });
});

describe('f= line', () => {
  it('round-trips and keeps empty fields empty', () => {
    expect(parseMediaFormat('v/2/4/25/1/4000a/1/8/1').video).toEqual({
      codec: 2,
      resolution: 4,
      frameRate: 25,
      rateControl: 1,
      bitrateKbps: 4000,
    });
    expect(parseMediaFormat('v/2/////a///')).toEqual({ video: { codec: 2 } });
    expect(parseMediaFormat('v/////a///')).toEqual({});
    expect(printMediaFormat({ video: { codec: 2, frameRate: 25 } })).toBe('v/2//25//a///');
    expect(printMediaFormat(parseMediaFormat('v/2/4/25/1/4000a/1/8/1'))).toBe('v/2/4/25/1/4000a/1/8/1');
  });
});

describe('buildOffer / buildAnswer', () => {
  it('builds the live offer of Appendix F byte for byte', () => {
    const offer = buildOffer({
      platformId: '64010000002020000001',
      address: '172.20.16.3',
      port: 6000,
      ssrc: '0100000001',
      format: {},
    });
    expect(offer).toBe(LIVE_OFFER);
  });

  it('builds a TCP playback offer that parses back to its inputs', () => {
    const offer = buildOffer({
      platformId: '64010000002020000001',
      address: '172.20.16.3',
      port: 6000,
      ssrc: '1100000001',
      session: 'Playback',
      channelId: '64010000041310000345',
      start: 1288625085,
      stop: 1288625871,
      transport: 'tcp-passive',
      format: {
        video: { codec: 2, resolution: 4, frameRate: 25, rateControl: 1, bitrateKbps: 4000 },
        audio: { codec: 1, bitrate: 8, sampleRate: 1 },
      },
    });
    expect(offer).toBe(PLAYBACK_TCP_OFFER);
    expect(
      codeOf(() =>
        buildOffer({ platformId: '1', address: '1.2.3.4', port: 1, ssrc: '1100000001', session: 'Download' }),
      ),
    ).toBe('missing');
    const dl = parseSdp(
      buildOffer({
        platformId: '64010000002020000001',
        address: '10.1.1.1',
        port: 7000,
        ssrc: '1100000002',
        session: 'Download',
        channelId: '64010000041310000345',
        start: 1,
        stop: 2,
        downloadSpeed: 4,
      }),
    );
    expect(dl.media[0]!.downloadSpeed).toBe(4);
  });

  it('answers with one format, sendonly, the offer y= and the opposite TCP role', () => {
    const offer = parseSdp(PLAYBACK_TCP_OFFER);
    const answer = buildAnswer(offer, { deviceId: '64010000041310000345', address: '172.20.16.5', port: 15000 });
    expect(answer).toBe(
      crlf([
        'v=0',
        'o=64010000041310000345 0 0 IN IP4 172.20.16.5',
        's=Playback',
        'u=64010000041310000345:0',
        'c=IN IP4 172.20.16.5',
        't=1288625085 1288625871',
        'm=video 15000 TCP/RTP/AVP 96',
        'a=sendonly',
        'a=rtpmap:96 PS/90000',
        'a=setup:active',
        'a=connection:new',
        'y=1100000001',
      ]),
    );
    const active = parseSdp(PLAYBACK_TCP_OFFER.replace('setup:passive', 'setup:active'));
    expect(planFromOffer(active).transport).toBe('tcp-passive');
    expect(
      parseSdp(buildAnswer(active, { deviceId: '64010000041310000345', address: '172.20.16.5', port: 15000 })).media[0]!
        .setup,
    ).toBe('passive');
    // Without PS the first mapped format is taken.
    const h264 = parseSdp(LIVE_OFFER.replace('96 98 97', '98'));
    expect(planFromOffer(h264)).toMatchObject({ payloadType: 98, encoding: 'H264' });
  });

  it('refuses to print values that would break a line', () => {
    const s = parseSdp(LIVE_OFFER);
    expect(codeOf(() => buildSdp({ ...s, sessionName: 'Play\r\nm=audio 1 RTP/AVP 0' }))).toBe('invalid');
    expect(codeOf(() => buildSdp({ ...s, ssrc: '12' }))).toBe('invalid');
    expect(codeOf(() => buildSdp({ ...s, address: 'host' }))).toBe('invalid');
    expect(codeOf(() => buildSdp({ ...s, origin: { ...s.origin, username: 'a b' } }))).toBe('invalid');
  });
});

describe('SSRC', () => {
  it('makes y= from the kind, digits 4-8 of the domain id and a sequence', () => {
    const a = new SsrcAllocator('34020000002000000001');
    expect(a.allocate('live')).toBe('0200000000');
    expect(a.allocate('history')).toBe('1200000000');
    expect(a.allocate('live')).toBe('0200000001');
    expect(new SsrcAllocator('6401000000').allocate('live')).toBe('0100000000');
    expect(parseSsrc('1200000042')).toEqual({ kind: 'history', domain: '20000', sequence: 42 });
    expect(ssrcNumber('1999999999')).toBe(1999999999);
    expect(codeOf(() => ssrcNumber('9999999999'))).toBe('invalid');
    expect(codeOf(() => new SsrcAllocator('34x'))).toBe('invalid');
  });

  it('never gives an open SSRC twice, reuses released ones last, and says when all are open', () => {
    const a = new SsrcAllocator('34020000002000000001');
    const open = new Set<string>();
    for (let i = 0; i < 10000; i++) open.add(a.allocate('live'));
    expect(open.size).toBe(10000);
    expect(a.size).toBe(10000);
    expect(codeOf(() => a.allocate('live'))).toBe('ssrc-exhausted');
    expect(a.allocate('history')).toBe('1200000000'); // the other kind is separate
    expect(a.release('0200000500')).toBe(true);
    expect(a.release('0200000500')).toBe(false);
    expect(a.release('0299990500')).toBe(false); // another domain
    expect(a.release('junk')).toBe(false);
    expect(a.isOpen('0200000500')).toBe(false);
    expect(a.allocate('live')).toBe('0200000500');
    expect(a.isOpen('0200000500')).toBe(true);
    const b = new SsrcAllocator('34020000002000000001');
    const first = b.allocate('live');
    b.allocate('live');
    b.release(first);
    expect(b.allocate('live')).toBe('0200000002'); // not the one just released
  });
});
