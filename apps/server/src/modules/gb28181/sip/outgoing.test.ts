/**
 * The platform's own requests on real loopback sockets: a raw device UA (test-device.ts, on
 * 127.0.0.2) registers, then answers (or ignores) the platform's MESSAGE queries, SUBSCRIBEs and
 * INVITEs. Run: cd apps/server && npx vitest run src/modules/gb28181/sip
 */
import { once } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  catalogResponsePages,
  decodeManscdp,
  decodePtz,
  deviceInfoResponse,
  encodeManscdp,
  encodePtz,
  mobilePositionNotify,
  alarmNotify,
  type CatalogItem,
  type ManscdpMessage,
  type RecordItem,
} from '@bwc/gb28181/manscdp';
import { GbSipPlatform, type GbSipPlatformOptions } from './platform';
import { GbRequestError } from './requests';
import { param, TestDevice, type Parsed } from './test-device';

const PLATFORM = '34020000002000000001';
const DOMAIN = '3402000000';
const DEVICE = '34020000001320000001';
const PASSWORD = '12345678';
const DEVICE_IP = '127.0.0.2';

const running: GbSipPlatform[] = [];
const devices: TestDevice[] = [];
afterEach(async () => {
  devices.splice(0).forEach((d) => d.close());
  await Promise.all(running.splice(0).map((p) => p.stop()));
});

async function setup(transport: 'udp' | 'tcp' = 'udp', extra: Partial<GbSipPlatformOptions> = {}) {
  const platform = new GbSipPlatform({
    platformId: PLATFORM,
    domain: DOMAIN,
    host: '127.0.0.1',
    port: 0,
    passwordFor: async (id) => (id === DEVICE ? PASSWORD : null),
    log: { warn: () => {} },
    ...extra,
  });
  await platform.start();
  running.push(platform);
  const device = new TestDevice(transport, platform.port, {
    deviceId: DEVICE,
    platformId: PLATFORM,
    domain: DOMAIN,
    password: PASSWORD,
    ip: DEVICE_IP,
  });
  await device.open();
  devices.push(device);
  expect((await device.register()).status).toBe(200);
  return { platform, device };
}

const channel = (n: number) => `3402000000131000000${n}`;

function items(count: number): CatalogItem[] {
  return Array.from({ length: count }, (_, i) => ({
    DeviceID: channel(i + 1),
    Name: `执法记录仪通道${i + 1}`,
    Manufacturer: '海康',
    Model: 'DSJ',
    Owner: 'Owner',
    CivilCode: '340200',
    Address: '派出所',
    Parental: 0,
    ParentID: DEVICE,
    SafetyWay: 0,
    RegisterWay: 1,
    Secrecy: 0,
    Status: 'ON',
  })) as unknown as CatalogItem[];
}

function body(rq: Parsed): ManscdpMessage {
  const m = decodeManscdp(rq.body);
  if (m.kind === 'unsupported') throw new Error('unsupported body');
  return m;
}

const rejection = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GbRequestError);
  return err as GbRequestError;
};

describe('MANSCDP queries', () => {
  it('Catalog: 5 GB2312 channels over 3 MESSAGEs are assembled; the query is a proper MESSAGE', async () => {
    const { platform, device } = await setup();
    const generic: unknown[] = [];
    platform.on('message', (m) => generic.push(m));
    const result = platform.queryCatalog(DEVICE);
    const rq = await device.nextRequest('MESSAGE');
    expect(rq.uri).toBe(`sip:${DEVICE}@${DEVICE_IP}:${device.localPort}`);
    expect(rq.headers.get('via')).toMatch(/^SIP\/2\.0\/UDP 127\.0\.0\.1:\d+;rport;branch=z9hG4bK[0-9a-f]{16}$/);
    expect(rq.headers.get('from')).toMatch(new RegExp(`^<sip:${PLATFORM}@${DOMAIN}>;tag=[0-9a-f]{12}$`));
    expect(rq.headers.get('to')).toBe(`<sip:${DEVICE}@${DOMAIN}>`);
    expect(rq.headers.get('cseq')).toBe('1 MESSAGE');
    expect(rq.headers.get('content-type')).toBe('Application/MANSCDP+xml');
    expect(rq.body.subarray(0, 40).toString('latin1')).toContain('encoding="GB2312"');
    const q = body(rq);
    expect(q).toMatchObject({ kind: 'Query', CmdType: 'Catalog', DeviceID: DEVICE });
    device.respond(rq, 200, 'OK');
    const pages = catalogResponsePages({ sn: q.SN, deviceId: DEVICE, items: items(5), pageSize: 2 });
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      const bytes = encodeManscdp(page, 'GB2312');
      expect(bytes.includes(Buffer.from('执法', 'utf8'))).toBe(false);
      expect((await device.message(bytes)).status).toBe(200);
    }
    const catalog = await result;
    expect(catalog.sumNum).toBe(5);
    expect(catalog.items.map((i) => i.DeviceID)).toEqual([1, 2, 3, 4, 5].map(channel));
    expect(catalog.items[4]!.Name).toBe('执法记录仪通道5');
    expect(generic).toEqual([]); // answers went to the query, not the generic event
  });

  it('a lost Catalog page: the query fails as incomplete with what arrived; later pages are generic messages', async () => {
    const { platform, device } = await setup('udp', { queryTimeoutMs: 300 });
    const result = rejection(platform.queryCatalog(DEVICE)); // handled from the start
    const rq = await device.nextRequest('MESSAGE');
    device.respond(rq, 200, 'OK');
    const pages = catalogResponsePages({ sn: body(rq).SN, deviceId: DEVICE, items: items(5), pageSize: 2 });
    await device.message(encodeManscdp(pages[0]!));
    await device.message(encodeManscdp(pages[2]!)); // page 2 is lost
    const err = await result;
    expect(err.code).toBe('incomplete');
    expect((err.partial as { items: CatalogItem[] }).items.map((i) => i.DeviceID)).toEqual([1, 2, 5].map(channel));
    const late = new Promise((r) => platform.once('message', r));
    await device.message(encodeManscdp(pages[1]!));
    expect(await late).toMatchObject({ deviceId: DEVICE, message: { CmdType: 'Catalog' } });
  });

  it('no answer at all after the 200 is a timeout', async () => {
    const { platform, device } = await setup('udp', { queryTimeoutMs: 200 });
    const result = rejection(platform.queryDeviceStatus(DEVICE));
    device.respond(await device.nextRequest('MESSAGE'), 200, 'OK');
    expect((await result).code).toBe('timeout');
  });

  it('UDP: a query the device ignores is sent again after T1 with the same branch, then answered', async () => {
    const { platform, device } = await setup();
    const started = Date.now();
    const result = platform.queryDeviceInfo(DEVICE);
    const first = await device.nextRequest('MESSAGE'); // ignored
    const second = await device.nextRequest('MESSAGE');
    expect(Date.now() - started).toBeGreaterThanOrEqual(450); // T1 = 500 ms
    expect(second.raw).toBe(first.raw);
    device.respond(second, 200, 'OK');
    await device.message(
      encodeManscdp(deviceInfoResponse({ sn: body(second).SN, deviceId: DEVICE, name: '记录仪', channels: 1 })),
    );
    expect(await result).toMatchObject({ CmdType: 'DeviceInfo', DeviceName: '记录仪', Channel: 1 });
  });

  it('UDP: retransmissions double up to T2, then Timer F fails the request', async () => {
    const { platform, device } = await setup('udp', { t1Ms: 100, t2Ms: 400, transactionTimeoutMs: 2000 });
    const started = Date.now();
    const err = await rejection(platform.queryDeviceInfo(DEVICE));
    expect(err.code).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
    const copies = device.pending.filter((m) => m.method === 'MESSAGE');
    // sent at 0, 100, 300, 700, 1100, 1500, 1900 ms: intervals 100, 200, 400 (capped), 400, 400, 400
    // (without the cap: 0, 100, 300, 700, 1500, so 5 copies and an 800 ms gap)
    expect(copies.length).toBeGreaterThanOrEqual(6);
    expect(copies.length).toBeLessThanOrEqual(7);
    expect(new Set(copies.map((c) => c.raw)).size).toBe(1);
    const gaps = copies.slice(1).map((c, i) => c.at - copies[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(80);
    expect(gaps[1]).toBeGreaterThanOrEqual(160);
    for (const gap of gaps.slice(2)) {
      expect(gap).toBeGreaterThanOrEqual(320);
      expect(gap).toBeLessThan(650);
    }
  });

  it('a MESSAGE refused by the device rejects with its status; an unregistered device is refused at once', async () => {
    const { platform, device } = await setup();
    const result = platform.queryCatalog(DEVICE);
    device.respond(await device.nextRequest('MESSAGE'), 403, 'Forbidden');
    const err = await rejection(result);
    expect(err).toMatchObject({ code: 'rejected', status: 403 });
    expect((await rejection(platform.queryCatalog('34020000001320000099'))).code).toBe('not_registered');
  });

  it('a device that unregisters fails its waiting query at once', async () => {
    const { platform, device } = await setup();
    const failed = rejection(platform.queryCatalog(DEVICE));
    device.respond(await device.nextRequest('MESSAGE'), 200, 'OK');
    expect((await device.register(0)).status).toBe(200);
    const err = await failed;
    expect(err).toMatchObject({ code: 'not_registered', message: `device ${DEVICE} unregistered` });
  });

  it('a query whose pages trickle in is cut at the total limit', async () => {
    const { platform, device } = await setup('udp', { queryTimeoutMs: 5000, queryTotalTimeoutMs: 400 });
    const started = Date.now();
    const result = rejection(platform.queryCatalog(DEVICE));
    const rq = await device.nextRequest('MESSAGE');
    device.respond(rq, 200, 'OK');
    const pages = catalogResponsePages({ sn: body(rq).SN, deviceId: DEVICE, items: items(3), pageSize: 1 });
    await device.message(encodeManscdp(pages[0]!));
    const err = await result;
    expect(err.code).toBe('incomplete');
    expect(err.message).toMatch(/not complete after 400 ms/);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('TCP: with the registered connection gone, the query opens a new one to the Contact', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, DEVICE_IP, r));
    const contactPort = (server.address() as net.AddressInfo).port;
    let closed!: () => void;
    const platformSawClose = new Promise<void>((r) => (closed = r));
    try {
      const platform = new GbSipPlatform({
        platformId: PLATFORM,
        domain: DOMAIN,
        host: '127.0.0.1',
        port: 0,
        passwordFor: async () => PASSWORD,
        log: { warn: () => {}, info: (_o, msg) => msg.includes('tcp connection closed') && closed() },
      });
      await platform.start();
      running.push(platform);
      const device = new TestDevice('tcp', platform.port, {
        deviceId: DEVICE,
        platformId: PLATFORM,
        domain: DOMAIN,
        password: PASSWORD,
        ip: DEVICE_IP,
      });
      await device.open();
      devices.push(device);
      expect((await device.register(3600, contactPort)).status).toBe(200);
      device.close(); // the registration stays, its connection does not
      await platformSawClose;
      const incoming = once(server, 'connection');
      const result = platform.queryDeviceInfo(DEVICE);
      const [socket] = (await incoming) as [net.Socket];
      device.adopt(socket);
      const rq = await device.nextRequest('MESSAGE');
      expect(rq.uri).toBe(`sip:${DEVICE}@${DEVICE_IP}:${contactPort}`);
      device.respond(rq, 200, 'OK');
      await device.message(encodeManscdp(deviceInfoResponse({ sn: body(rq).SN, deviceId: DEVICE, name: 'tcp' })));
      expect(await result).toMatchObject({ DeviceName: 'tcp' });
    } finally {
      server.close();
    }
  });

  it('TCP: DeviceStatus and a 2-page RecordInfo over the connection the device registered on', async () => {
    const { platform, device } = await setup('tcp');
    const status = platform.queryDeviceStatus(DEVICE);
    const rq = await device.nextRequest('MESSAGE');
    expect(rq.headers.get('via')).toMatch(/^SIP\/2\.0\/TCP /);
    device.respond(rq, 200, 'OK');
    await device.message(
      encodeManscdp({
        kind: 'Response',
        CmdType: 'DeviceStatus',
        SN: body(rq).SN,
        DeviceID: DEVICE,
        Result: 'OK',
        Online: 'ONLINE',
        Status: 'OK',
        Encode: 'ON',
        Record: 'OFF',
        DeviceTime: '2026-01-02T03:04:05',
      } as ManscdpMessage),
    );
    expect(await status).toMatchObject({ Online: 'ONLINE', Record: 'OFF' });

    const records = platform.queryRecordInfo(DEVICE, channel(1), '2026-01-02T00:00:00', '2026-01-02T23:59:59');
    const rrq = await device.nextRequest('MESSAGE');
    const q = body(rrq);
    expect(q).toMatchObject({
      CmdType: 'RecordInfo',
      DeviceID: channel(1),
      StartTime: '2026-01-02T00:00:00',
      EndTime: '2026-01-02T23:59:59',
    });
    device.respond(rrq, 200, 'OK');
    const rec = (h: number): RecordItem =>
      ({
        DeviceID: channel(1),
        Name: '录像',
        StartTime: `2026-01-02T0${h}:00:00`,
        EndTime: `2026-01-02T0${h}:30:00`,
        Secrecy: 0,
        Type: 'time',
      }) as RecordItem;
    for (const list of [[rec(1), rec(2)], [rec(3)]])
      await device.message(
        encodeManscdp({
          kind: 'Response',
          CmdType: 'RecordInfo',
          SN: q.SN,
          DeviceID: channel(1),
          Name: '录像',
          SumNum: 3,
          RecordList: list,
        } as ManscdpMessage),
      );
    const got = await records;
    expect(got.items.map((r) => r.StartTime)).toEqual([
      '2026-01-02T01:00:00',
      '2026-01-02T02:00:00',
      '2026-01-02T03:00:00',
    ]);
  });

  it('RecordInfo with nothing found: SumNum 0 and no RecordList resolves empty', async () => {
    const { platform, device } = await setup();
    const records = platform.queryRecordInfo(DEVICE, channel(1), '2026-01-02T00:00:00', '2026-01-02T01:00:00');
    const rq = await device.nextRequest('MESSAGE');
    device.respond(rq, 200, 'OK');
    const empty = Buffer.from(
      `<?xml version="1.0" encoding="GB2312"?>\r\n<Response>\r\n<CmdType>RecordInfo</CmdType>\r\n<SN>${body(rq).SN}</SN>\r\n<DeviceID>${channel(1)}</DeviceID>\r\n<SumNum>0</SumNum>\r\n</Response>\r\n`,
      'latin1',
    );
    expect((await device.message(empty)).status).toBe(200);
    expect(await records).toMatchObject({ sumNum: 0, items: [] });
  });

  it('hostile answers: stray responses, other SNs, a changed SumNum and bad bodies do not complete a query', async () => {
    const { platform, device } = await setup('udp', { queryTimeoutMs: 2000 });
    const generic: Array<{ message: { SN?: number } }> = [];
    platform.on('message', (m) => generic.push(m as never));
    const result = platform.queryCatalog(DEVICE);
    const rq = await device.nextRequest('MESSAGE');
    const sn = body(rq).SN;
    // a 200 for a branch we never used, then a malformed response line: both ignored
    device.send(
      rq.raw
        .split('\r\n\r\n')[0]!
        .replace(/^MESSAGE \S+ SIP\/2\.0/, 'SIP/2.0 200 OK')
        .replace(/branch=z9hG4bK[0-9a-f]+/, 'branch=z9hG4bKnotours') + '\r\n\r\n',
    );
    device.send('SIP/2.0 999999 Broken\r\n\r\n');
    device.respond(rq, 200, 'OK');
    const [first, second] = catalogResponsePages({ sn, deviceId: DEVICE, items: items(2), pageSize: 1 });
    // another SN: not ours, a generic message
    await device.message(encodeManscdp({ ...first!, SN: sn + 1000 }));
    // a page whose SumNum disagrees with the first page's: ignored by the assembler
    await device.message(encodeManscdp(first!));
    await device.message(encodeManscdp({ ...second!, SumNum: 1 }));
    // a body that is not MANSCDP: 400, nothing counted
    const bad = await device.message(Buffer.from('<Response><CmdType>Catalog</CmdType><SN>x</SN></Response>'));
    expect(bad.status).toBe(400);
    await device.message(encodeManscdp(second!));
    const catalog = await result;
    expect(catalog.items.map((i) => i.DeviceID)).toEqual([channel(1), channel(2)]);
    expect(generic.map((g) => g.message.SN)).toEqual([sn + 1000]);
  });

  it('PTZ and preset commands reach the channel as A.3 PTZCmd; done at the 200', async () => {
    const { platform, device } = await setup();
    const move = platform.deviceControlPtz(DEVICE, channel(1), { action: 'left', speed: 64 });
    const rq = await device.nextRequest('MESSAGE');
    const m = body(rq);
    expect(m).toMatchObject({ kind: 'Control', CmdType: 'DeviceControl', DeviceID: channel(1) });
    expect((m as { PTZCmd: string }).PTZCmd).toBe(encodePtz({ action: 'left', speed: 64 }));
    device.respond(rq, 200, 'OK');
    await move;
    const preset = platform.deviceControlPtz(DEVICE, channel(1), { action: 'preset_call', preset: 3 });
    const prq = await device.nextRequest('MESSAGE');
    expect(decodePtz((body(prq) as { PTZCmd: string }).PTZCmd)).toMatchObject({ action: 'preset_call', preset: 3 });
    device.respond(prq, 200, 'OK');
    await preset;
  });
});

describe('SUBSCRIBE / NOTIFY', () => {
  it('MobilePosition: SUBSCRIBE, NOTIFY -> position, refresh before expiry, unsubscribe, then 481', async () => {
    const { platform, device } = await setup();
    const sub = platform.subscribe(DEVICE, 'MobilePosition', { expires: 2, interval: 5 });
    const rq = await device.nextRequest('SUBSCRIBE');
    expect(rq.headers.get('event')).toBe('presence');
    expect(rq.headers.get('expires')).toBe('2');
    expect(rq.headers.get('contact')).toMatch(new RegExp(`^<sip:${PLATFORM}@127\\.0\\.0\\.1:\\d+>$`));
    expect(body(rq)).toMatchObject({ kind: 'Query', CmdType: 'MobilePosition', Interval: 5 });
    device.respond(rq, 200, 'OK', {
      headers: ['Expires: 2', `Contact: <sip:${DEVICE}@${DEVICE_IP}:${device.localPort}>`],
    });
    const subscription = await sub;
    expect(subscription).toMatchObject({ deviceId: DEVICE, kind: 'MobilePosition', expires: 2 });

    const callId = rq.headers.get('call-id')!;
    const platformTag = param(rq.headers.get('from'), 'tag')!;
    const notify = (sn: number, to = `<sip:${PLATFORM}@${DOMAIN}>;tag=${platformTag}`) =>
      device.request(
        'NOTIFY',
        ['Event: presence', 'Subscription-State: active;expires=2', 'Content-Type: Application/MANSCDP+xml'],
        encodeManscdp(
          mobilePositionNotify({
            sn,
            deviceId: DEVICE,
            time: '2026-01-02T03:04:05',
            longitude: 118.1,
            latitude: 24.5,
            speed: 12.5,
            direction: 90,
          }),
        ),
        { callId, to },
      );
    const position = new Promise((r) => platform.once('position', r));
    expect((await notify(1)).status).toBe(200);
    expect(await position).toEqual({
      deviceId: DEVICE,
      sourceId: DEVICE,
      longitude: 118.1,
      latitude: 24.5,
      speed: 12.5,
      direction: 90,
      altitude: undefined,
      time: '2026-01-02T03:04:05',
    });

    // refreshed at half its 2 s life, in the dialog
    const refresh = await device.nextRequest('SUBSCRIBE', 3000);
    expect(refresh.headers.get('call-id')).toBe(callId);
    expect(refresh.headers.get('cseq')).toBe('2 SUBSCRIBE');
    expect(param(refresh.headers.get('to'), 'tag')).toBe(device.tag);
    expect(refresh.uri).toBe(`sip:${DEVICE}@${DEVICE_IP}:${device.localPort}`);
    device.respond(refresh, 200, 'OK', { headers: ['Expires: 2'] });

    const gone = platform.unsubscribe(subscription);
    const un = await device.nextRequest('SUBSCRIBE');
    expect(un.headers.get('expires')).toBe('0');
    expect(un.headers.get('cseq')).toBe('3 SUBSCRIBE');
    device.respond(un, 200, 'OK');
    await gone;
    expect((await notify(2)).status).toBe(481);
    expect((await notify(3, `<sip:${PLATFORM}@${DOMAIN}>;tag=nosuchtag`)).status).toBe(481);
  });

  it('Alarm and Catalog NOTIFYs become events; a terminated subscription ends', async () => {
    const { platform, device } = await setup();
    const sub = platform.subscribe(DEVICE, 'Alarm', { expires: 3600 });
    const rq = await device.nextRequest('SUBSCRIBE');
    expect(body(rq)).toMatchObject({ CmdType: 'Alarm' });
    device.respond(rq, 200, 'OK', { headers: ['Expires: 3600'] });
    await sub;
    const opts = { callId: rq.headers.get('call-id')!, to: rq.headers.get('from')! };
    const headers = (state: string) => [
      'Event: presence',
      `Subscription-State: ${state}`,
      'Content-Type: Application/MANSCDP+xml',
    ];
    const alarm = new Promise((r) => platform.once('alarm', r));
    const alarmBody = alarmNotify({
      sn: 9,
      deviceId: DEVICE,
      priority: 1,
      method: 2,
      time: '2026-01-02T03:04:05',
      description: '一键报警',
      alarmType: 1,
    });
    expect((await device.request('NOTIFY', headers('active'), encodeManscdp(alarmBody), opts)).status).toBe(200);
    expect(await alarm).toMatchObject({
      deviceId: DEVICE,
      priority: 1,
      method: 2,
      description: '一键报警',
      alarmType: 1,
    });
    const change = new Promise((r) => platform.once('catalogChange', r));
    const ended = new Promise((r) => platform.once('subscriptionEnded', r));
    const page = {
      ...catalogResponsePages({ sn: 10, deviceId: DEVICE, items: items(1) })[0]!,
      kind: 'Notify' as const,
    };
    expect(
      (await device.request('NOTIFY', headers('terminated;reason=timeout'), encodeManscdp(page), opts)).status,
    ).toBe(200);
    expect(await change).toMatchObject({ deviceId: DEVICE, sumNum: 1, items: [{ DeviceID: channel(1) }] });
    expect(await ended).toMatchObject({ deviceId: DEVICE, kind: 'Alarm', reason: 'terminated;reason=timeout' });
    expect((await device.request('NOTIFY', headers('active'), encodeManscdp(alarmBody), opts)).status).toBe(481);
  });
});

const OFFER = [
  'v=0',
  `o=${PLATFORM} 0 0 IN IP4 127.0.0.1`,
  's=Play',
  'c=IN IP4 127.0.0.1',
  't=0 0',
  'm=video 30000 RTP/AVP 96',
  'a=recvonly',
  'a=rtpmap:96 PS/90000',
  'y=0100000001',
  '',
].join('\r\n');
const ANSWER = OFFER.replace('recvonly', 'sendonly').replace(`o=${PLATFORM}`, `o=${channel(1)}`);

describe('INVITE dialogs', () => {
  it('INVITE -> 100 -> 200 -> ACK (again for a retransmitted 200); BYE from us; BYE from the device', async () => {
    const { platform, device } = await setup();
    const call = platform.invite(DEVICE, channel(1), OFFER, { ssrc: '0100000001' });
    const rq = await device.nextRequest('INVITE');
    expect(rq.uri).toBe(`sip:${channel(1)}@${DEVICE_IP}:${device.localPort}`);
    expect(rq.headers.get('subject')).toBe(`${channel(1)}:0100000001,${PLATFORM}:0`);
    expect(rq.headers.get('content-type')).toBe('APPLICATION/SDP');
    expect(rq.headers.get('to')).toBe(`<sip:${channel(1)}@${DOMAIN}>`);
    expect(rq.body.toString('latin1')).toBe(OFFER);
    device.respond(rq, 100, 'Trying');
    const contact = `Contact: <sip:${channel(1)}@${DEVICE_IP}:${device.localPort}>`;
    const ok = { headers: [contact, 'Content-Type: APPLICATION/SDP'], body: Buffer.from(ANSWER, 'latin1') };
    device.respond(rq, 200, 'OK', ok);
    const { answer, dialog } = await call;
    expect(answer).toBe(ANSWER);
    expect(dialog).toMatchObject({ deviceId: DEVICE, channelId: channel(1), remoteTag: device.tag });
    const ack = await device.nextRequest('ACK');
    expect(ack.uri).toBe(`sip:${channel(1)}@${DEVICE_IP}:${device.localPort}`);
    expect(ack.headers.get('cseq')).toBe('1 ACK');
    expect(param(ack.headers.get('to'), 'tag')).toBe(device.tag);
    expect(param(ack.headers.get('via'), 'branch')).not.toBe(param(rq.headers.get('via'), 'branch'));
    device.respond(rq, 200, 'OK', ok); // our 200 retransmitted: ACKed again
    expect((await device.nextRequest('ACK')).raw).toBe(ack.raw);

    const hangup = platform.bye(dialog);
    const bye = await device.nextRequest('BYE');
    expect(bye.headers.get('cseq')).toBe('2 BYE');
    expect(bye.headers.get('call-id')).toBe(dialog.callId);
    device.respond(bye, 200, 'OK');
    await hangup;
    expect(platform.listDevices()).toHaveLength(1);

    // The device ends the second call.
    const second = platform.invite(DEVICE, channel(2), OFFER);
    const rq2 = await device.nextRequest('INVITE');
    expect(rq2.headers.get('subject')).toBe(`${channel(2)}:0,${PLATFORM}:0`);
    device.respond(rq2, 200, 'OK', ok);
    const { dialog: d2 } = await second;
    await device.nextRequest('ACK');
    const ended = new Promise((r) => platform.once('dialogEnded', r));
    const byeFromDevice = await device.request('BYE', [], undefined, {
      callId: d2.callId,
      to: `<sip:${PLATFORM}@${DOMAIN}>;tag=${d2.localTag}`,
      uri: `sip:${PLATFORM}@127.0.0.1:${platform.port}`,
    });
    expect(byeFromDevice.status).toBe(200);
    expect(await ended).toEqual({ dialog: d2, reason: 'device-bye' });
    const again = await device.request('BYE', [], undefined, {
      callId: d2.callId,
      to: `<sip:${PLATFORM}@${DOMAIN}>;tag=${d2.localTag}`,
    });
    expect(again.status).toBe(481);
  });

  it('486 Busy Here: typed error with the status, and the ACK of the INVITE transaction', async () => {
    const { platform, device } = await setup();
    const call = platform.invite(DEVICE, channel(1), OFFER);
    const rq = await device.nextRequest('INVITE');
    device.respond(rq, 486, 'Busy Here');
    const err = await rejection(call);
    expect(err).toMatchObject({ code: 'rejected', status: 486 });
    const ack = await device.nextRequest('ACK');
    expect(param(ack.headers.get('via'), 'branch')).toBe(param(rq.headers.get('via'), 'branch'));
    expect(ack.headers.get('cseq')).toBe('1 ACK');
    expect(param(ack.headers.get('to'), 'tag')).toBe(device.tag);
  });

  it('no final answer in time after 100 Trying: CANCEL, 487 is ACKed, timeout error', async () => {
    const { platform, device } = await setup('udp', { inviteTimeoutMs: 300 });
    const call = platform.invite(DEVICE, channel(1), OFFER);
    const rq = await device.nextRequest('INVITE');
    device.respond(rq, 100, 'Trying');
    const cancel = await device.nextRequest('CANCEL');
    expect(param(cancel.headers.get('via'), 'branch')).toBe(param(rq.headers.get('via'), 'branch'));
    expect(cancel.headers.get('cseq')).toBe('1 CANCEL');
    expect(cancel.uri).toBe(rq.uri);
    device.respond(cancel, 200, 'OK');
    device.respond(rq, 487, 'Request Terminated');
    const err = await rejection(call);
    expect(err.code).toBe('timeout');
    expect((await device.nextRequest('ACK')).headers.get('cseq')).toBe('1 ACK');
    expect(device.pending.filter((m) => m.method === 'INVITE')).toEqual([]); // no retransmission after the 100
  });

  it('a 2xx to an INVITE given up on (no answer in time, none provisional) gets ACK and BYE', async () => {
    const { platform, device } = await setup('udp', { inviteTimeoutMs: 200 });
    const call = rejection(platform.invite(DEVICE, channel(1), OFFER));
    const rq = await device.nextRequest('INVITE');
    expect((await call).code).toBe('timeout');
    expect(device.pending.filter((m) => m.method === 'CANCEL')).toEqual([]); // none before a 1xx
    device.respond(rq, 200, 'OK', {
      headers: [`Contact: <sip:${channel(1)}@${DEVICE_IP}:${device.localPort}>`],
      body: Buffer.from(ANSWER, 'latin1'),
    });
    const ack = await device.nextRequest('ACK');
    expect(param(ack.headers.get('to'), 'tag')).toBe(device.tag);
    const bye = await device.nextRequest('BYE');
    expect(bye.headers.get('call-id')).toBe(rq.headers.get('call-id'));
    expect(bye.headers.get('cseq')).toBe('2 BYE');
    device.respond(bye, 200, 'OK');
  });

  it('a device that takes the CANCEL but never ends the INVITE is given up on after Timer B', async () => {
    const { platform, device } = await setup('udp', { inviteTimeoutMs: 200, transactionTimeoutMs: 600 });
    const started = Date.now();
    const call = rejection(platform.invite(DEVICE, channel(1), OFFER));
    const rq = await device.nextRequest('INVITE');
    device.respond(rq, 100, 'Trying');
    device.respond(await device.nextRequest('CANCEL'), 200, 'OK'); // and no 487
    const err = await call;
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/none to CANCEL/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
  });

  it('TCP: INVITE and BYE over the registered connection', async () => {
    const { platform, device } = await setup('tcp');
    const call = platform.invite(DEVICE, channel(1), OFFER);
    const rq = await device.nextRequest('INVITE');
    expect(rq.headers.get('via')).toMatch(/^SIP\/2\.0\/TCP /);
    device.respond(rq, 200, 'OK', { body: Buffer.from(ANSWER, 'latin1'), headers: ['Content-Type: APPLICATION/SDP'] });
    const { answer, dialog } = await call;
    expect(answer).toBe(ANSWER);
    await device.nextRequest('ACK');
    const hangup = platform.bye(dialog);
    device.respond(await device.nextRequest('BYE'), 200, 'OK');
    await hangup;
  });
});
