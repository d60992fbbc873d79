/**
 * Simulated GB28181 devices against the server's real GbSipPlatform (registration, keepalive,
 * MESSAGE answers) and a raw-socket peer for what the platform does not send yet (queries, INVITE,
 * SUBSCRIBE). Devices on 127.0.0.2, the platform and the peer on 127.0.0.1. Needs ffmpeg
 * (@ffmpeg-installer/ffmpeg); without it the media tests fail, saying so.
 */
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CatalogAssembler,
  catalogQuery,
  decodeManscdp,
  deviceInfoQuery,
  deviceStatusQuery,
  encodeManscdp,
  mobilePositionSubscription,
  ptzControl,
  alarmSubscription,
  recordInfoQuery,
  gbTime,
  RecordInfoAssembler,
  type ManscdpDecoded,
  type ManscdpMessage,
} from '@bwc/gb28181/manscdp';
import { parseRtp, PsDemuxer, RtpReassembler, RtpTcpFramer, type AccessUnit, type RtpPacket } from '@bwc/gb28181/ps';
import { buildOffer, parseSdp, ssrcNumber, SsrcAllocator } from '@bwc/gb28181/sdp';
import { buildMansrtsp, buildResponse, MANSRTSP_CONTENT_TYPE, parseSip, type SipMessage } from '@bwc/gb28181/sip';
import { GbSipPlatform } from '../../../../apps/server/src/modules/gb28181/sip/platform';
import { findFfmpeg } from '../camera';
import { GbSimHub, runningGbStreams, type GbDevice } from './index';
import { GB_STREAM_FPS, streamArgs } from './media';

const PLATFORM = '34020000002000000001';
const DOMAIN = '3402000000';
const PASSWORD = 'secret123';
const DEVICE_IP = '127.0.0.2';
const deviceId = (n: number) => `34020000001320${String(n).padStart(6, '0')}`;

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function next<T>(emitter: NodeJS.EventEmitter, event: string, ms = 10_000, where?: (v: T) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      emitter.off(event, on);
      reject(new Error(`no '${event}' within ${ms} ms`));
    }, ms);
    const on = (v: T) => {
      if (where && !where(v)) return;
      clearTimeout(t);
      emitter.off(event, on);
      resolve(v);
    };
    emitter.on(event, on);
  });
}

async function startPlatform(
  passwords: (id: string) => string | null = () => PASSWORD,
  extra: Partial<ConstructorParameters<typeof GbSipPlatform>[0]> = {},
) {
  const platform = new GbSipPlatform({
    platformId: PLATFORM,
    domain: DOMAIN,
    host: '127.0.0.1',
    port: 0,
    passwordFor: async (id) => passwords(id),
    minExpiresSec: 1,
    ...extra,
  });
  platform.setMaxListeners(0);
  await platform.start();
  cleanup.push(() => platform.stop());
  return platform;
}

async function startHub() {
  const hub = new GbSimHub({ host: DEVICE_IP });
  await hub.start();
  cleanup.push(() => hub.stop());
  return hub;
}

/** A raw SIP peer on UDP: sends requests to a device, answers what it sends, keeps the rest in a queue. */
async function rawPeer() {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  cleanup.push(() => new Promise<void>((r) => socket.close(() => r())));
  const port = socket.address().port;
  const queue: SipMessage[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    const m = parseSip(data.toString('latin1'));
    if (!m) return;
    // requests from the device (NOTIFY, MESSAGE, REGISTER) get 200 at once
    if (m.method && m.method !== 'ACK') {
      const via = m.headers.via![0]!;
      socket.send(Buffer.from(buildResponse(m, 200, 'OK'), 'latin1'), via.port!, via.host!);
    }
    queue.push(m);
    waiters.splice(0).forEach((w) => w());
  });
  async function take(match: (m: SipMessage) => boolean, ms = 10_000): Promise<SipMessage> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = queue.findIndex(match);
      if (i >= 0) return queue.splice(i, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no matching SIP message');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
  let cseq = 1;
  function request(
    method: string,
    to: { user: string; port: number },
    o: {
      callId?: string;
      body?: string;
      type?: string;
      headers?: string[];
      toTag?: string;
      fromTag?: string;
      /** a Via port other than the socket's (a NAT rewrote the source) */
      viaPort?: number;
    } = {},
  ) {
    const callId = o.callId ?? randomBytes(8).toString('hex');
    const body = o.body ?? '';
    const text = [
      `${method} sip:${to.user}@${DEVICE_IP}:${to.port} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:${o.viaPort ?? port};branch=z9hG4bK${randomBytes(6).toString('hex')}`,
      `From: <sip:${PLATFORM}@${DOMAIN}>;tag=${o.fromTag ?? 'p1'}`,
      `To: <sip:${to.user}@${DOMAIN}>${o.toTag ? `;tag=${o.toTag}` : ''}`,
      `Call-ID: ${callId}`,
      `CSeq: ${cseq++} ${method}`,
      'Max-Forwards: 70',
      `Contact: <sip:${PLATFORM}@127.0.0.1:${port}>`,
      ...(o.headers ?? []),
      ...(o.type ? [`Content-Type: ${o.type}`] : []),
      `Content-Length: ${Buffer.byteLength(body, 'latin1')}`,
      '',
      body,
    ].join('\r\n');
    socket.send(Buffer.from(text, 'latin1'), to.port, DEVICE_IP);
    return {
      callId,
      /** the same bytes again, as a UDP retransmission */
      resend: () => socket.send(Buffer.from(text, 'latin1'), to.port, DEVICE_IP),
      response: () => take((m) => m.status !== undefined && m.headers['call-id'] === callId && m.status >= 200),
    };
  }
  const manscdp = (msg: ManscdpMessage) => encodeManscdp(msg).toString('latin1');
  return { port, take, request, manscdp };
}

/** A UDP socket standing for the platform's RTP port; closed after the test. */
async function rtpSocket(): Promise<dgram.Socket> {
  const rtp = dgram.createSocket('udp4');
  await new Promise<void>((r) => rtp.bind(0, '127.0.0.1', () => r()));
  cleanup.push(() => new Promise<void>((r) => rtp.close(() => r())));
  return rtp;
}

/** A TCP listener standing for the platform's passive media port; closed after the test. */
async function listenTcp(): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const sockets: net.Socket[] = [];
  server.on('connection', (s) => sockets.push(s));
  cleanup.push(async () => {
    sockets.forEach((s) => s.destroy());
    await new Promise<void>((r) => server.close(() => r()));
  });
  return server;
}

describe('GB28181 simulated device with the server platform', () => {
  it('registers over UDP with digest, sends keepalives and unregisters on stop', async () => {
    const platform = await startPlatform();
    const hub = await startHub();
    const dev = hub.device({
      deviceId: deviceId(1),
      password: PASSWORD,
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: platform.port },
      keepaliveIntervalSec: 0.3,
    });
    const registered = next<{ deviceId: string; transport: string }>(platform, 'registered');
    const devRegistered = next<{ expires: number; date?: string }>(dev, 'registered');
    expect(await dev.start()).toBe(true);
    expect(await registered).toMatchObject({ deviceId: deviceId(1), transport: 'udp' });
    expect((await devRegistered).date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    // two keepalives in a row reach the platform and are answered 200
    for (let i = 0; i < 2; i++) {
      const [k] = await Promise.all([
        next<{ deviceId: string; status: string }>(platform, 'keepalive'),
        next<{ status: number }>(dev, 'keepalive', 10_000, (e) => e.status === 200),
      ]);
      expect(k).toMatchObject({ deviceId: deviceId(1), status: 'OK' });
    }
    const gone = next<{ deviceId: string }>(platform, 'unregistered');
    await dev.stop();
    expect(await gone).toEqual({ deviceId: deviceId(1) });
    expect(platform.device(deviceId(1))).toBeUndefined();
  });

  it("channelIds as given; a device repeating another device's channel id on the same hub is refused at start", async () => {
    const platform = await startPlatform();
    const hub = await startHub();
    const server = { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: platform.port };
    const shared = '34020000001310000777';
    const a = hub.device({ deviceId: deviceId(11), password: PASSWORD, server, channelIds: [shared] });
    expect(a.channelIds).toEqual([shared]);
    expect(await a.start()).toBe(true);
    const b = hub.device({ deviceId: deviceId(12), password: PASSWORD, server, channelIds: [shared] });
    await expect(b.start()).rejects.toThrow(`${shared} belongs to another device on this socket`);
    await a.stop();
  });

  it('registers over TCP and keeps alive there', async () => {
    const platform = await startPlatform();
    const hub = await startHub();
    const dev = hub.device({
      deviceId: deviceId(2),
      password: PASSWORD,
      transport: 'tcp',
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: platform.port },
      keepaliveIntervalSec: 0.3,
    });
    const registered = next<{ transport: string }>(platform, 'registered');
    expect(await dev.start()).toBe(true);
    expect((await registered).transport).toBe('tcp');
    expect(await next<{ deviceId: string }>(platform, 'keepalive')).toMatchObject({ deviceId: deviceId(2) });
    const gone = next(platform, 'unregistered');
    await dev.stop();
    await gone;
  });

  it('reports a TCP platform it cannot reach (status 0) and does not throw', async () => {
    const hub = await startHub();
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const dev = hub.device({
      deviceId: deviceId(10),
      password: PASSWORD,
      transport: 'tcp',
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port },
    });
    const failed = next<{ status: number; reason: string }>(dev, 'registerFailed');
    expect(await dev.start()).toBe(false);
    expect(await failed).toMatchObject({ status: 0, reason: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('registers again when the platform took it for offline (its keepalive got 403)', async () => {
    // the platform wants a keepalive every 0.2 s; the device sends one a second
    const platform = await startPlatform(undefined, {
      keepaliveIntervalSec: 0.2,
      keepaliveTimeoutCount: 1,
      checkIntervalMs: 50,
    });
    const hub = await startHub();
    const dev = hub.device({
      deviceId: deviceId(9),
      password: PASSWORD,
      keepaliveIntervalSec: 1,
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: platform.port },
    });
    expect(await dev.start()).toBe(true);
    expect(await next(platform, 'offline')).toEqual({ deviceId: deviceId(9), reason: 'keepalive' });
    const again = next<{ deviceId: string; refresh: boolean }>(platform, 'registered');
    expect((await next<{ status: number }>(dev, 'keepalive')).status).toBe(403);
    expect(await again).toMatchObject({ deviceId: deviceId(9), refresh: false });
  });

  it('reports 403 on a wrong password and is not registered', async () => {
    const platform = await startPlatform();
    const hub = await startHub();
    const dev = hub.device({
      deviceId: deviceId(3),
      password: 'wrong',
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: platform.port },
    });
    const failed = next<{ status: number }>(dev, 'registerFailed');
    expect(await dev.start()).toBe(false);
    expect((await failed).status).toBe(403);
    expect(dev.registered).toBe(false);
    expect(platform.device(deviceId(3))).toBeUndefined();
  });

  it('answers Catalog (paginated), DeviceInfo, DeviceStatus, RecordInfo to the platform and obeys PTZ', async () => {
    const platform = await startPlatform();
    const hub = await startHub();
    const dev = hub.device({
      deviceId: deviceId(4),
      password: PASSWORD,
      channels: 5,
      catalogPageSize: 2,
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: platform.port },
    });
    expect(await dev.start()).toBe(true);
    const peer = await rawPeer();
    const to = { user: deviceId(4), port: hub.sipPort };
    const messages: ManscdpDecoded[] = [];
    platform.on('message', ({ deviceId: id, message }) => {
      if (id === deviceId(4)) messages.push(message);
    });
    const until = async (pred: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!pred()) {
        if (Date.now() > deadline) throw new Error('timed out');
        await next(platform, 'message', 10_000);
      }
    };

    const q = peer.request('MESSAGE', to, {
      body: peer.manscdp(catalogQuery({ sn: 7, deviceId: deviceId(4) })),
      type: 'Application/MANSCDP+xml',
    });
    expect((await q.response()).status).toBe(200);
    const catalog = new CatalogAssembler(7, deviceId(4));
    await until(() => messages.filter((m) => m.kind === 'Response' && m.CmdType === 'Catalog').length === 3);
    let complete = false;
    for (const m of messages)
      if (m.kind === 'Response' && m.CmdType === 'Catalog') complete ||= catalog.add(m).state === 'complete';
    expect(complete).toBe(true);
    const items = catalog.partial().items;
    expect(items.map((i) => i.DeviceID).sort()).toEqual([...dev.channelIds].sort());
    expect(items.every((i) => i.ParentID === deviceId(4) && i.Status === 'ON')).toBe(true);

    messages.length = 0;
    for (const body of [
      deviceInfoQuery({ sn: 8, deviceId: deviceId(4) }),
      deviceStatusQuery({ sn: 9, deviceId: deviceId(4) }),
    ]) {
      expect(
        (await peer.request('MESSAGE', to, { body: peer.manscdp(body), type: 'Application/MANSCDP+xml' }).response())
          .status,
      ).toBe(200);
    }
    await until(() => messages.length >= 2);
    const info = messages.find((m) => m.kind === 'Response' && m.CmdType === 'DeviceInfo');
    expect(info).toMatchObject({ SN: 8, Result: 'OK', Channel: 5, Manufacturer: 'BWC-SIM' });
    expect(messages.find((m) => m.kind === 'Response' && m.CmdType === 'DeviceStatus')).toMatchObject({
      SN: 9,
      Online: 'ONLINE',
      Status: 'OK',
    });

    // recordings of the last half hour of channel 1: 10-minute segments up to now
    messages.length = 0;
    const now = new Date();
    const rq = recordInfoQuery({
      sn: 10,
      deviceId: dev.channelIds[0]!,
      startTime: gbTime(new Date(now.getTime() - 1_800_000)),
      endTime: gbTime(new Date(now.getTime() + 60_000)),
    });
    expect(
      (await peer.request('MESSAGE', to, { body: peer.manscdp(rq), type: 'Application/MANSCDP+xml' }).response())
        .status,
    ).toBe(200);
    const records = new RecordInfoAssembler(10, dev.channelIds[0]!);
    let recordsDone = false;
    await until(() => {
      for (const m of messages.splice(0))
        if (m.kind === 'Response' && m.CmdType === 'RecordInfo') recordsDone ||= records.add(m).state === 'complete';
      return recordsDone;
    });
    const list = records.partial().items;
    expect(list.length).toBeGreaterThanOrEqual(1);
    expect(list.every((r) => r.DeviceID === dev.channelIds[0] && r.StartTime < r.EndTime)).toBe(true);

    const ptz = next<{ action: string; channelId: string; panSpeed: number }>(dev, 'ptz');
    const control = ptzControl({ sn: 11, deviceId: dev.channelIds[1]!, ptz: { action: 'left', speed: 100 } });
    expect(
      (await peer.request('MESSAGE', to, { body: peer.manscdp(control), type: 'Application/MANSCDP+xml' }).response())
        .status,
    ).toBe(200);
    expect(await ptz).toMatchObject({ action: 'left', channelId: dev.channelIds[1], panSpeed: 100 });
    expect(dev.ptzLog).toHaveLength(1);

    // a body that is not MANSCDP gets 400, an unknown target 404
    expect((await peer.request('MESSAGE', to, { body: '<x', type: 'Application/MANSCDP+xml' }).response()).status).toBe(
      400,
    );
    const other = peer.manscdp(deviceInfoQuery({ sn: 12, deviceId: deviceId(999) }));
    expect(
      (await peer.request('MESSAGE', to, { body: other, type: 'Application/MANSCDP+xml' }).response()).status,
    ).toBe(404);
  });

  it('500 devices register from one process over one UDP socket', async () => {
    const platform = await startPlatform();
    const hub = await startHub();
    let count = 0;
    const seen = new Set<string>();
    platform.on('registered', ({ deviceId: id }) => {
      count++;
      seen.add(id);
    });
    const devices = Array.from({ length: 500 }, (_, i) =>
      hub.device({
        deviceId: deviceId(1000 + i * 10),
        password: PASSWORD,
        channels: 2,
        server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: platform.port },
      }),
    );
    expect(await hub.startAll(devices, 1000)).toBe(500);
    expect(count).toBe(500);
    expect(seen.size).toBe(500);
    expect(platform.listDevices()).toHaveLength(500);
    expect(hub.stats()).toMatchObject({ devices: 500, registered: 500, streams: 0 });
    let unregistered = 0;
    platform.on('unregistered', () => unregistered++);
    await hub.stop(1000);
    expect(unregistered).toBe(500);
    expect(platform.listDevices()).toHaveLength(0);
  }, 60_000);
});

describe('GB28181 simulated device: subscriptions and alarms (raw platform)', () => {
  it('NOTIFYs a moving MobilePosition and raises an Alarm on request', async () => {
    const peer = await rawPeer();
    const hub = await startHub();
    const dev = hub.device({
      deviceId: deviceId(5),
      password: PASSWORD,
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: peer.port },
    });
    expect(await dev.start()).toBe(true); // the raw peer answers 200 without a challenge
    const sub = peer.request(
      'SUBSCRIBE',
      { user: deviceId(5), port: hub.sipPort },
      {
        body: peer.manscdp(mobilePositionSubscription({ sn: 1, deviceId: deviceId(5), interval: 1 })),
        type: 'Application/MANSCDP+xml',
        headers: ['Event: presence', 'Expires: 60'],
      },
    );
    const ok = await sub.response();
    expect(ok.status).toBe(200);
    const positions: { Longitude: number; Latitude: number }[] = [];
    for (let i = 0; i < 2; i++) {
      const n = await peer.take((m) => m.method === 'NOTIFY' && m.headers['call-id'] === sub.callId);
      expect(n.headers.to!.params.tag).toBe('p1'); // in the subscription's dialog
      expect(String(n.headers['subscription-state'])).toMatch(/^active/);
      const body = decodeManscdp(Buffer.from(n.content!, 'latin1'));
      expect(body).toMatchObject({ kind: 'Notify', CmdType: 'MobilePosition', DeviceID: deviceId(5) });
      positions.push(body as unknown as { Longitude: number; Latitude: number });
    }
    expect(positions[0]).not.toEqual(positions[1]);

    // no Alarm subscription: the alarm goes as a MESSAGE
    const status = dev.raiseAlarm({ priority: 2, description: 'test alarm' });
    const alarm = await peer.take((m) => m.method === 'MESSAGE' && /Alarm/.test(m.content ?? ''));
    expect(decodeManscdp(Buffer.from(alarm.content!, 'latin1'))).toMatchObject({
      kind: 'Notify',
      CmdType: 'Alarm',
      AlarmPriority: 2,
      AlarmDescription: 'test alarm',
    });
    expect(await status).toBe(200);

    // with an Alarm subscription the alarm is a NOTIFY in its dialog
    const alarmSub = peer.request(
      'SUBSCRIBE',
      { user: deviceId(5), port: hub.sipPort },
      {
        body: peer.manscdp(alarmSubscription({ sn: 2, deviceId: deviceId(5) })),
        type: 'Application/MANSCDP+xml',
        headers: ['Event: presence', 'Expires: 60'],
      },
    );
    expect((await alarmSub.response()).status).toBe(200);
    const notified = dev.raiseAlarm({ priority: 1, method: 5 });
    const n = await peer.take((m) => m.method === 'NOTIFY' && m.headers['call-id'] === alarmSub.callId);
    expect(decodeManscdp(Buffer.from(n.content!, 'latin1'))).toMatchObject({ CmdType: 'Alarm', AlarmMethod: 5 });
    expect(await notified).toBe(200);
  });

  it('refreshes its registration before it runs out, answers a retransmitted query once, and a RecordCmd with a Response', async () => {
    const peer = await rawPeer();
    const hub = await startHub();
    const dev = hub.device({
      deviceId: deviceId(7),
      password: PASSWORD,
      expires: 2,
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: peer.port },
    });
    expect(await dev.start()).toBe(true);
    const first = await peer.take((m) => m.method === 'REGISTER');
    // the raw peer grants what was asked (2 s): the refresh comes at ~80% of it
    const again = await peer.take((m) => m.method === 'REGISTER', 5000);
    expect(again.headers['call-id']).toBe(first.headers['call-id']);
    expect(again.headers.cseq!.seq).toBeGreaterThan(first.headers.cseq!.seq);

    const queries: string[] = [];
    dev.on('query', (e) => queries.push(e.cmdType));
    const q = peer.request(
      'MESSAGE',
      { user: deviceId(7), port: hub.sipPort },
      { body: peer.manscdp(deviceInfoQuery({ sn: 21, deviceId: deviceId(7) })), type: 'Application/MANSCDP+xml' },
    );
    q.resend();
    expect((await q.response()).status).toBe(200);
    // responses go back to the source of the request (RFC 3581), not to a Via port behind a NAT
    const natted = peer.request('OPTIONS', { user: deviceId(7), port: hub.sipPort }, { viaPort: 9 });
    expect((await natted.response()).status).toBe(200);
    expect((await q.response()).status).toBe(200); // the retransmission got the same answer
    await peer.take((m) => m.method === 'MESSAGE' && /DeviceInfo/.test(m.content ?? ''));
    const control = next<{ command: string }>(dev, 'control');
    const rec = peer.request(
      'MESSAGE',
      { user: deviceId(7), port: hub.sipPort },
      {
        body: peer.manscdp({
          kind: 'Control',
          CmdType: 'DeviceControl',
          SN: 22,
          DeviceID: dev.channelIds[0]!,
          RecordCmd: 'Record',
        } as ManscdpMessage),
        type: 'Application/MANSCDP+xml',
      },
    );
    expect((await rec.response()).status).toBe(200);
    expect((await control).command).toBe('Record');
    const resp = await peer.take((m) => m.method === 'MESSAGE' && /DeviceControl/.test(m.content ?? ''));
    expect(decodeManscdp(Buffer.from(resp.content!, 'latin1'))).toMatchObject({
      kind: 'Response',
      SN: 22,
      Result: 'OK',
    });
    // the query was handled once, though it came twice (the RecordCmd came after both)
    expect(queries).toEqual(['DeviceInfo', 'DeviceControl']);
  });
});

describe('GB28181 simulated device: hostile input', () => {
  it('survives garbage and mutated requests and still answers', async () => {
    const peer = await rawPeer();
    const hub = await startHub();
    const dev = hub.device({
      deviceId: deviceId(8),
      password: PASSWORD,
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: peer.port },
    });
    expect(await dev.start()).toBe(true);
    const warnings: string[] = [];
    dev.on('warn', (w) => warnings.push(w));
    const to = { user: deviceId(8), port: hub.sipPort };
    const sock = dgram.createSocket('udp4');
    cleanup.push(() => new Promise<void>((r) => sock.close(() => r())));
    const send = (b: Buffer) => new Promise<void>((r) => sock.send(b, hub.sipPort, DEVICE_IP, () => r()));
    await send(Buffer.alloc(70_000, 0x41)); // over the size limit
    await send(Buffer.from('\x00\x01garbage\r\n\r\n'));
    await send(Buffer.from(`MESSAGE sip:${deviceId(8)}@x SIP/2.0\r\n\r\n`)); // no mandatory headers
    // requests with bodies the device must refuse: bad XML, a DOCTYPE, bad SDP, an oversize SDP
    const refusals: [string, string, string][] = [
      ['MESSAGE', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><Query>&a;</Query>', 'Application/MANSCDP+xml'],
      ['MESSAGE', '<Query><CmdType>Catalog</CmdType>', 'Application/MANSCDP+xml'],
      ['SUBSCRIBE', peer.manscdp(deviceInfoQuery({ sn: 1, deviceId: deviceId(8) })), 'Application/MANSCDP+xml'],
      ['INVITE', 'v=0\r\n' + 'a=x\r\n'.repeat(3000), 'application/sdp'],
    ];
    const statuses: number[] = [];
    for (const [method, body, type] of refusals) {
      const r = peer.request(
        method,
        { ...to, user: method === 'INVITE' ? dev.channelIds[0]! : to.user },
        { body, type },
      );
      statuses.push((await r.response()).status!);
    }
    expect(statuses).toEqual([400, 400, 489, 488]);
    // seeded byte mutations of a valid query: whatever the device makes of them, it stays up
    let seed = 7;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const valid = Buffer.from(
      [
        `MESSAGE sip:${deviceId(8)}@${DEVICE_IP}:${hub.sipPort} SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.1:${peer.port};branch=z9hG4bKfuzz`,
        `From: <sip:${PLATFORM}@${DOMAIN}>;tag=f`,
        `To: <sip:${deviceId(8)}@${DOMAIN}>`,
        'Call-ID: fuzz',
        'CSeq: 1 MESSAGE',
        'Content-Type: Application/MANSCDP+xml',
        '',
        peer.manscdp(deviceStatusQuery({ sn: 3, deviceId: deviceId(8) })),
      ].join('\r\n'),
      'latin1',
    );
    for (let n = 0; n < 300; n++) {
      const b = Buffer.from(valid);
      b.write(`z9hG4bK${String(n).padStart(4, '0')}`, valid.indexOf('z9hG4bKfuzz'), 'latin1'); // a new transaction each
      for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      await send(b);
    }
    const ok = peer.request('MESSAGE', to, {
      body: peer.manscdp(deviceInfoQuery({ sn: 99, deviceId: deviceId(8) })),
      type: 'Application/MANSCDP+xml',
    });
    expect((await ok.response()).status).toBe(200);
    const answer = await peer.take((m) => m.method === 'MESSAGE' && /<SN>99<\/SN>/.test(m.content ?? ''));
    expect(decodeManscdp(Buffer.from(answer.content!, 'latin1'))).toMatchObject({ CmdType: 'DeviceInfo', SN: 99 });
    expect(hub.dropped).toBeGreaterThanOrEqual(3);
    expect(dev.registered).toBe(true);
    expect(warnings.filter((w) => /Internal|TypeError|undefined/.test(w))).toEqual([]);
  });
});

describe('GB28181 simulated device: INVITE and PS over RTP', () => {
  const FFMPEG = findFfmpeg();

  async function setup(opts: { audio?: boolean } = {}) {
    expect(FFMPEG, 'ffmpeg from @ffmpeg-installer/ffmpeg is needed').toBeTruthy();
    const peer = await rawPeer();
    const hub = await startHub();
    const dev = hub.device({
      ...opts,
      deviceId: deviceId(6),
      password: PASSWORD,
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: peer.port },
    });
    expect(await dev.start()).toBe(true);
    return { peer, hub, dev };
  }

  /** Demuxes RTP packets until a keyframe and a few more units came. */
  function demuxer(ssrc: number) {
    const reasm = new RtpReassembler({ ssrc });
    const ps = new PsDemuxer();
    const units: AccessUnit[] = [];
    const ssrcs = new Set<number>();
    return {
      units,
      ssrcs,
      psm: () => ps.psm,
      push(p: RtpPacket) {
        ssrcs.add(p.ssrc);
        for (const ev of reasm.push(p)) {
          if (ev.type !== 'frame') continue;
          units.push(...ps.push(ev.frame.data).units, ...ps.flush());
        }
      },
      enough: () => units.some((u) => u.kind === 'video' && u.keyframe) && units.length >= 10,
    };
  }

  async function byeAndCheck(
    peer: Awaited<ReturnType<typeof rawPeer>>,
    dev: GbDevice,
    port: number,
    callId: string,
    channel: string,
  ) {
    const stopped = next<{ reason: string }>(dev, 'streamStopped');
    const bye = peer.request('BYE', { user: channel, port }, { callId, toTag: 'x', fromTag: 'p1' });
    expect((await bye.response()).status).toBe(200);
    expect((await stopped).reason).toBe('BYE');
    expect(runningGbStreams()).toBe(0);
    expect(dev.streams).toBe(0);
  }

  it('answers an INVITE with its SDP and, after ACK, sends PS over RTP/UDP that demuxes to H.264 with a keyframe; BYE stops ffmpeg', async () => {
    const { peer, hub, dev } = await setup({ audio: false });
    const rtp = await rtpSocket();
    const y = new SsrcAllocator(PLATFORM).allocate('live');
    const channel = dev.channelIds[0]!;
    const offer = buildOffer({ platformId: PLATFORM, address: '127.0.0.1', port: rtp.address().port, ssrc: y });
    const invite = peer.request(
      'INVITE',
      { user: channel, port: hub.sipPort },
      { body: offer, type: 'application/sdp', headers: [`Subject: ${channel}:${y},${PLATFORM}:0`] },
    );
    const ok = await invite.response();
    expect(ok.status).toBe(200);
    const answer = parseSdp(ok.content!);
    expect(answer.ssrc).toBe(y);
    expect(answer.origin.username).toBe(channel);
    expect(answer.media[0]).toMatchObject({ direction: 'sendonly', transport: 'RTP/AVP', formats: [96] });
    const d = demuxer(ssrcNumber(y));
    rtp.on('message', (b) => d.push(parseRtp(b)));
    const streaming = next<{ pid: number }>(dev, 'streaming');
    peer.request(
      'ACK',
      { user: channel, port: hub.sipPort },
      { callId: invite.callId, toTag: ok.headers.to!.params.tag ?? '' },
    );
    expect((await streaming).pid).toBeGreaterThan(0);
    expect(runningGbStreams()).toBe(1);
    while (!d.enough()) await once(rtp, 'message');
    expect([...d.ssrcs]).toEqual([ssrcNumber(y)]);
    expect(d.units.every((u) => u.kind === 'video' && u.codec === 'h264')).toBe(true);
    // video only: the program stream map lists H.264 alone
    expect(d.psm()?.streams.map((s) => s.codec)).toEqual(['h264']);
    const key = d.units.find((u) => u.keyframe)!;
    // an IDR access unit from libx264: SPS (7), PPS (8) and an IDR slice (5)
    const types = new Set<number>();
    for (let i = 0; i + 3 < key.data.length; i++)
      if (key.data[i] === 0 && key.data[i + 1] === 0 && key.data[i + 2] === 1) types.add(key.data[i + 3]! & 0x1f);
    expect([7, 8, 5].every((t) => types.has(t))).toBe(true);
    await byeAndCheck(peer, dev, hub.sipPort, invite.callId, channel);
  }, 30_000);

  it('streams over TCP to a platform that listens (setup:passive offer, the device connects)', async () => {
    const { peer, hub, dev } = await setup();
    const server = await listenTcp();
    const y = '0200000042';
    const channel = dev.channelIds[1]!;
    const offer = buildOffer({
      platformId: PLATFORM,
      address: '127.0.0.1',
      port: (server.address() as net.AddressInfo).port,
      ssrc: y,
      transport: 'tcp-passive',
    });
    const invite = peer.request(
      'INVITE',
      { user: channel, port: hub.sipPort },
      { body: offer, type: 'application/sdp' },
    );
    const ok = await invite.response();
    expect(ok.status).toBe(200);
    expect(parseSdp(ok.content!).media[0]).toMatchObject({ transport: 'TCP/RTP/AVP', setup: 'active' });
    const conn = once(server, 'connection');
    peer.request(
      'ACK',
      { user: channel, port: hub.sipPort },
      { callId: invite.callId, toTag: ok.headers.to!.params.tag ?? '' },
    );
    const [socket] = (await conn) as [net.Socket];
    const framer = new RtpTcpFramer();
    const d = demuxer(ssrcNumber(y));
    while (!d.enough()) {
      const [chunk] = (await once(socket, 'data')) as [Buffer];
      for (const p of framer.push(chunk)) d.push(parseRtp(p));
    }
    expect(d.units.some((u) => u.keyframe && u.codec === 'h264')).toBe(true);
    await byeAndCheck(peer, dev, hub.sipPort, invite.callId, channel);
  }, 30_000);

  it('streams over TCP to a platform that connects (setup:active offer, the device listens)', async () => {
    const { peer, hub, dev } = await setup();
    const y = '0200000043';
    const channel = dev.channelIds[2]!;
    const offer = buildOffer({ platformId: PLATFORM, address: '127.0.0.1', port: 9, ssrc: y, transport: 'tcp-active' });
    const invite = peer.request(
      'INVITE',
      { user: channel, port: hub.sipPort },
      { body: offer, type: 'application/sdp' },
    );
    const ok = await invite.response();
    expect(ok.status).toBe(200);
    const answer = parseSdp(ok.content!);
    expect(answer.media[0]).toMatchObject({ transport: 'TCP/RTP/AVP', setup: 'passive', connectionNew: true });
    peer.request(
      'ACK',
      { user: channel, port: hub.sipPort },
      { callId: invite.callId, toTag: ok.headers.to!.params.tag ?? '' },
    );
    const socket = net.connect({ host: answer.address, port: answer.media[0]!.port });
    cleanup.push(async () => void socket.destroy());
    const framer = new RtpTcpFramer();
    const d = demuxer(ssrcNumber(y));
    while (!d.enough()) {
      const [chunk] = (await once(socket, 'data')) as [Buffer];
      for (const p of framer.push(chunk)) d.push(parseRtp(p));
    }
    expect(d.units.some((u) => u.keyframe && u.codec === 'h264')).toBe(true);
    await byeAndCheck(peer, dev, hub.sipPort, invite.callId, channel);
  }, 30_000);

  it('plays back a recorded span (u=, t= echoed) and hangs up with BYE when it is over', async () => {
    const { peer, hub, dev } = await setup();
    const rtp = await rtpSocket();
    const channel = dev.channelIds[0]!;
    const start = Math.floor(Date.now() / 1000) - 600;
    const y = new SsrcAllocator(PLATFORM).allocate('history');
    const offer = buildOffer({
      platformId: PLATFORM,
      address: '127.0.0.1',
      port: rtp.address().port,
      ssrc: y,
      session: 'Playback',
      channelId: channel,
      start,
      stop: start + 2,
    });
    const invite = peer.request(
      'INVITE',
      { user: channel, port: hub.sipPort },
      { body: offer, type: 'application/sdp' },
    );
    const ok = await invite.response();
    const answer = parseSdp(ok.content!);
    expect(answer).toMatchObject({ sessionName: 'Playback', uri: `${channel}:0`, start, stop: start + 2, ssrc: y });
    const d = demuxer(ssrcNumber(y));
    rtp.on('message', (b) => d.push(parseRtp(b)));
    const stopped = next<{ reason: string }>(dev, 'streamStopped', 15_000);
    peer.request(
      'ACK',
      { user: channel, port: hub.sipPort },
      { callId: invite.callId, toTag: ok.headers.to!.params.tag ?? '' },
    );
    // ffmpeg stops after the 2 s asked; the device then sends BYE in the call's dialog
    const bye = await peer.take((m) => m.method === 'BYE' && m.headers['call-id'] === invite.callId, 15_000);
    expect(bye.headers.to!.params.tag).toBe('p1');
    expect((await stopped).reason).toMatch(/ffmpeg ended \(code 0\)/);
    const video = d.units.filter((u) => u.kind === 'video');
    expect(video.some((u) => u.keyframe)).toBe(true);
    // 2 s at 25 fps
    expect(video.length).toBeGreaterThanOrEqual(45);
    expect(video.length).toBeLessThanOrEqual(50);
    // audio (the default): the stream map names G.711A (0x90) at 0xc0; 2 s of 20 ms A-law frames
    expect(d.psm()?.streams).toEqual([
      { streamType: 0x1b, streamId: 0xe0, codec: 'h264' },
      { streamType: 0x90, streamId: 0xc0, codec: 'g711a' },
    ]);
    const audio = d.units.filter((u) => u.kind === 'audio');
    expect(audio.every((u) => u.codec === 'g711a' && u.streamId === 0xc0 && u.data.length === 160)).toBe(true);
    expect(audio.length).toBeGreaterThanOrEqual(90);
    expect(audio.length).toBeLessThanOrEqual(100);
    // stamped from the sample count on the video's 90 kHz clock: 1800 apart, from the first video frame's
    expect(audio.slice(1).every((u, i) => u.pts! - audio[i]!.pts! === 1800)).toBe(true);
    expect(audio[0]!.pts).toBe(video[0]!.pts);
    // a tone, not A-law silence (0xd5/0x55 only)
    expect(new Set(audio.flatMap((u) => [...u.data])).size).toBeGreaterThan(20);
    expect(runningGbStreams()).toBe(0);
  }, 30_000);

  it('downloads a span at the asked speed (a=downloadspeed:4): all its frames, faster than real time', async () => {
    const { peer, hub, dev } = await setup();
    const rtp = await rtpSocket();
    const channel = dev.channelIds[0]!;
    const start = Math.floor(Date.now() / 1000) - 1200;
    const y = '1200000077';
    const offer = buildOffer({
      platformId: PLATFORM,
      address: '127.0.0.1',
      port: rtp.address().port,
      ssrc: y,
      session: 'Download',
      channelId: channel,
      start,
      stop: start + 2,
      downloadSpeed: 4,
    });
    const invite = peer.request(
      'INVITE',
      { user: channel, port: hub.sipPort },
      { body: offer, type: 'application/sdp' },
    );
    const ok = await invite.response();
    expect(parseSdp(ok.content!).media[0]!.fileSize).toBe(150_000);
    const d = demuxer(ssrcNumber(y));
    const arrivals: number[] = [];
    rtp.on('message', (b) => {
      arrivals.push(performance.now());
      d.push(parseRtp(b));
    });
    peer.request(
      'ACK',
      { user: channel, port: hub.sipPort },
      { callId: invite.callId, toTag: ok.headers.to!.params.tag ?? '' },
    );
    await peer.take((m) => m.method === 'BYE' && m.headers['call-id'] === invite.callId, 15_000);
    // first to last packet: 2 s of stream at 4x is ~0.5 s; in real time it would be ~1.9 s
    expect(arrivals[arrivals.length - 1]! - arrivals[0]!).toBeLessThan(1500);
    expect(d.units.length).toBeGreaterThanOrEqual(45);
    expect(d.units.length).toBeLessThanOrEqual(50);
    // time stamps stay 25 fps apart: the last unit is ~2 s of stream after the first
    const pts = d.units.map((u) => u.pts!);
    expect((pts[pts.length - 1]! - pts[0]!) / 90_000).toBeGreaterThan(1.7);
    expect(runningGbStreams()).toBe(0);
  }, 30_000);

  it('pauses and resumes a playback by MANSRTSP INFO: silent while paused, then on from the same recording time; the end not earlier', async () => {
    const { peer, hub, dev } = await setup();
    const rtp = await rtpSocket();
    const channel = dev.channelIds[0]!;
    const start = Math.floor(Date.now() / 1000) - 3600;
    const SPAN = 4;
    const y = new SsrcAllocator(PLATFORM).allocate('history');
    const offer = buildOffer({
      platformId: PLATFORM,
      address: '127.0.0.1',
      port: rtp.address().port,
      ssrc: y,
      session: 'Playback',
      channelId: channel,
      start,
      stop: start + SPAN,
    });
    const to = { user: channel, port: hub.sipPort };
    const invite = peer.request('INVITE', to, { body: offer, type: 'application/sdp' });
    const ok = await invite.response();
    expect(ok.status).toBe(200);
    const dialog = { callId: invite.callId, toTag: ok.headers.to!.params.tag ?? '', fromTag: 'p1' };
    const packets: { p: RtpPacket; at: number }[] = [];
    const d = demuxer(ssrcNumber(y));
    rtp.on('message', (b) => {
      const p = parseRtp(b);
      packets.push({ p, at: performance.now() });
      d.push(p);
    });
    const videoUnits = () => d.units.filter((u) => u.kind === 'video');
    const info = (body: string, o: typeof dialog = dialog) =>
      peer.request('INFO', to, { ...o, body, type: MANSRTSP_CONTENT_TYPE }).response();
    peer.request('ACK', to, dialog);
    while (videoUnits().length < 25) await once(rtp, 'message');
    const stream = dev.stream(invite.callId)!;

    // a body parseMansrtsp refuses: 400 naming the problem, and the stream goes on
    const bad = await info('SEEK RTSP/1.0\r\nCSeq: 1\r\n');
    expect(bad.status).toBe(400);
    expect(bad.reason).toMatch(/MANSRTSP request line/);
    expect(stream.paused).toBe(false);
    const before = packets.length;
    while (packets.length < before + 10) await once(rtp, 'message');

    const control = next(dev, 'playbackControl');
    const paused = await info(buildMansrtsp({ command: 'pause' }, 2));
    expect(paused.status).toBe(200);
    expect(paused.content).toMatch(/^RTSP\/1\.0 200 OK\r\nCSeq: 2\r\n/);
    expect(await control).toEqual({ channelId: channel, callId: invite.callId, command: 'pause' });
    expect(stream.paused).toBe(true);
    // what was sent before the pause arrives, then nothing
    const sent = stream.packets;
    const framesAtPause = stream.frames;
    while (packets.length < sent) await once(rtp, 'message');
    await new Promise((r) => setTimeout(r, 1500)); // the observation window
    expect(packets.length).toBe(sent);
    expect(stream.packets).toBe(sent);
    expect(runningGbStreams()).toBe(0);
    const lastPaused = packets[sent - 1]!;

    const resumedControl = next(dev, 'playbackControl');
    expect((await info(buildMansrtsp({ command: 'resume' }, 3))).status).toBe(200);
    expect(await resumedControl).toMatchObject({ command: 'resume' });
    expect(stream.paused).toBe(false);
    while (packets.length === sent) await once(rtp, 'message');
    const first = packets[sent]!;
    // the resumed ffmpeg starts at the recording time the pause left: the span's rest, and its clock from there
    const args = readFileSync(`/proc/${stream.pid}/cmdline`, 'latin1').split('\0');
    const rest = SPAN - framesAtPause / GB_STREAM_FPS;
    expect(Number(args[args.indexOf('-t') + 1])).toBeCloseTo(rest, 3);
    const shown = args.find((a) => a.includes('PLAYBACK'));
    if (shown) expect(shown).toContain(`gmtime\\:${+(start + 8 * 3600 + framesAtPause / GB_STREAM_FPS).toFixed(3)}}`);
    // RTP goes on: the next sequence number, the time stamp within a frame or so of the last one sent
    expect(first.p.sequence).toBe((lastPaused.p.sequence + 1) & 0xffff);
    expect(Math.abs(first.p.timestamp - lastPaused.p.timestamp)).toBeLessThan(90_000 / 10);
    expect(first.at - lastPaused.at).toBeGreaterThanOrEqual(1500);

    // the playback still ends with the span: all of its frames, one after the other, then BYE
    await peer.take((m) => m.method === 'BYE' && m.headers['call-id'] === invite.callId, 15_000);
    const video = videoUnits();
    expect(video.length).toBeGreaterThanOrEqual(SPAN * GB_STREAM_FPS - 5);
    expect(video.length).toBeLessThanOrEqual(SPAN * GB_STREAM_FPS);
    expect(video.slice(1).every((u, i) => u.pts! - video[i]!.pts! === 90_000 / GB_STREAM_FPS)).toBe(true);
    const audio = d.units.filter((u) => u.kind === 'audio');
    expect(audio.slice(1).every((u, i) => u.pts! > audio[i]!.pts!)).toBe(true);
    // sending took the span plus the pause
    expect(packets[packets.length - 1]!.at - packets[0]!.at).toBeGreaterThan((SPAN - 0.5) * 1000 + 1500);
    expect(runningGbStreams()).toBe(0);
  }, 30_000);

  it('over TCP: pause, resume and pause at once leave it paused with no ffmpeg and the connection open; BYE while paused ends it', async () => {
    const { peer, hub, dev } = await setup();
    const server = await listenTcp();
    const channel = dev.channelIds[2]!;
    const start = Math.floor(Date.now() / 1000) - 7200;
    const y = '1200000088';
    const offer = buildOffer({
      platformId: PLATFORM,
      address: '127.0.0.1',
      port: (server.address() as net.AddressInfo).port,
      ssrc: y,
      transport: 'tcp-passive',
      session: 'Playback',
      channelId: channel,
      start,
      stop: start + 60,
    });
    const to = { user: channel, port: hub.sipPort };
    const invite = peer.request('INVITE', to, { body: offer, type: 'application/sdp' });
    const ok = await invite.response();
    expect(ok.status).toBe(200);
    const dialog = { callId: invite.callId, toTag: ok.headers.to!.params.tag ?? '', fromTag: 'p1' };
    const conn = once(server, 'connection');
    peer.request('ACK', to, dialog);
    const [socket] = (await conn) as [net.Socket];
    const framer = new RtpTcpFramer();
    let count = 0;
    let closed = false;
    socket.on('data', (chunk: Buffer) => (count += framer.push(chunk).length));
    socket.on('close', () => (closed = true));
    while (count < 20) await once(socket, 'data');
    const stream = dev.stream(invite.callId)!;
    const info = (command: 'pause' | 'resume', cseq: number) =>
      peer
        .request('INFO', to, { ...dialog, body: buildMansrtsp({ command }, cseq), type: MANSRTSP_CONTENT_TYPE })
        .response();
    expect((await info('pause', 1)).status).toBe(200);
    expect((await info('resume', 2)).status).toBe(200);
    expect((await info('pause', 3)).status).toBe(200);
    expect(stream.paused).toBe(true);
    const sent = stream.packets;
    const deadline = Date.now() + 5000;
    while ((runningGbStreams() > 0 || count < sent) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(runningGbStreams()).toBe(0);
    expect(count).toBe(sent);
    await new Promise((r) => setTimeout(r, 500)); // the observation window
    expect(count).toBe(sent);
    expect(stream.pid).toBeUndefined();
    expect(closed).toBe(false);
    await byeAndCheck(peer, dev, hub.sipPort, invite.callId, channel);
  }, 30_000);

  /** A Playback of `span` s from an hour ago on the first channel, to a UDP socket; video units with their arrival times. */
  async function playback(span: number) {
    const { peer, hub, dev } = await setup();
    const rtp = await rtpSocket();
    const channel = dev.channelIds[0]!;
    const start = Math.floor(Date.now() / 1000) - 3600;
    const y = new SsrcAllocator(PLATFORM).allocate('history');
    const offer = buildOffer({
      platformId: PLATFORM,
      address: '127.0.0.1',
      port: rtp.address().port,
      ssrc: y,
      session: 'Playback',
      channelId: channel,
      start,
      stop: start + span,
    });
    const to = { user: channel, port: hub.sipPort };
    const invite = peer.request('INVITE', to, { body: offer, type: 'application/sdp' });
    const ok = await invite.response();
    expect(ok.status).toBe(200);
    const dialog = { callId: invite.callId, toTag: ok.headers.to!.params.tag ?? '', fromTag: 'p1' };
    const packets: RtpPacket[] = [];
    const d = demuxer(ssrcNumber(y));
    /** arrival time of each video unit */
    const video: { pts: number; at: number }[] = [];
    let audio = 0;
    rtp.on('message', (b) => {
      const p = parseRtp(b);
      packets.push(p);
      const had = d.units.length;
      d.push(p);
      for (const u of d.units.slice(had))
        if (u.kind === 'video') video.push({ pts: u.pts!, at: performance.now() });
        else audio++;
    });
    let cseq = 1;
    const info = (control: Parameters<typeof buildMansrtsp>[0]) =>
      peer
        .request('INFO', to, { ...dialog, body: buildMansrtsp(control, cseq++), type: MANSRTSP_CONTENT_TYPE })
        .response();
    peer.request('ACK', to, dialog);
    const frames = async (n: number) => {
      while (video.length < n) await once(rtp, 'message');
    };
    await frames(25);
    const ended = peer.take((m) => m.method === 'BYE' && m.headers['call-id'] === invite.callId, 60_000);
    ended.catch(() => {});
    return {
      dev,
      rtp,
      start,
      packets,
      video,
      audio: () => audio,
      info,
      frames,
      ended,
      stream: dev.stream(invite.callId)!,
    };
  }

  it('seeks a playback by MANSRTSP PLAY Range npt=<s>- (also out of a pause): the rest of the span from there, RTP going on; 400 outside the span', async () => {
    const SPAN = 20;
    const OFFSET = 15;
    const { dev, rtp, stream, info, video, packets, frames, ended, start } = await playback(SPAN);
    // a seek to the span's end or past it: 400 naming the span, and the stream goes on
    const outside = await info({ command: 'seek', offset: SPAN });
    expect(outside.status).toBe(400);
    expect(outside.reason).toMatch(/npt=20 is outside the asked 20 s/);
    expect(stream.paused).toBe(false);
    await frames(video.length + 5);

    expect((await info({ command: 'pause' })).status).toBe(200);
    const sent = stream.packets;
    while (packets.length < sent) await once(rtp, 'message');
    const last = packets[sent - 1]!;
    // a seek while paused plays again (it is a PLAY), from OFFSET s past the start
    const control = next(dev, 'playbackControl');
    const seekedAt = performance.now();
    expect((await info({ command: 'seek', offset: OFFSET })).status).toBe(200);
    expect(await control).toMatchObject({ command: 'seek', offset: OFFSET });
    expect(stream.paused).toBe(false);
    while (packets.length === sent) await once(rtp, 'message');
    const args = readFileSync(`/proc/${stream.pid}/cmdline`, 'latin1').split('\0');
    expect(Number(args[args.indexOf('-t') + 1])).toBe(SPAN - OFFSET);
    const shown = args.find((a) => a.includes('PLAYBACK'));
    if (shown) expect(shown).toContain(`gmtime\\:${start + 8 * 3600 + OFFSET}}`);
    // RTP goes on: the next sequence number, the time stamp within a frame or so of the last one sent
    const first = packets[sent]!;
    expect(first.sequence).toBe((last.sequence + 1) & 0xffff);
    expect(Math.abs(first.timestamp - last.timestamp)).toBeLessThan(90_000 / 10);

    // the device hangs up once the span's last SPAN - OFFSET s are sent, not after the whole span
    await ended;
    const tookMs = performance.now() - seekedAt;
    expect(tookMs).toBeGreaterThan((SPAN - OFFSET - 0.5) * 1000);
    expect(tookMs).toBeLessThan((SPAN - OFFSET) * 1000 * 2);
    const afterSeek = video.filter((u) => u.pts > last.timestamp);
    expect(afterSeek.length).toBeGreaterThanOrEqual((SPAN - OFFSET) * GB_STREAM_FPS - 5);
    expect(afterSeek.length).toBeLessThanOrEqual((SPAN - OFFSET) * GB_STREAM_FPS);
    expect(stream.position).toBeCloseTo(SPAN, 1);
    expect(runningGbStreams()).toBe(0);
  }, 60_000);

  it('plays at MANSRTSP Scale x: frames come x times as fast, each lasting 1/x of a frame; audio goes on in real time; the BYE at the span end, sooner', async () => {
    const SPAN = 12;
    const { dev, stream, info, video, frames, ended, audio } = await playback(SPAN);
    /** video units a second between arrivals `from` and `to` */
    const rate = (from: number, to: number) => ((to - from) * 1000) / (video[to]!.at - video[from]!.at);
    const steps = (from: number, to: number) =>
      new Set(video.slice(from + 1, to).map((u, i) => u.pts - video[from + i]!.pts));
    await frames(50);
    const normal = rate(25, 49);
    expect(steps(25, 49)).toEqual(new Set([3600]));

    const control = next(dev, 'playbackControl');
    expect((await info({ command: 'speed', scale: 2 })).status).toBe(200);
    expect(await control).toMatchObject({ command: 'speed', scale: 2 });
    expect(stream.scale).toBe(2);
    const n = video.length;
    // units of the 2x run (a few of the 1x run may still be on the way)
    await frames(n + 10);
    const audioAt2x = audio();
    await frames(n + 70);
    const double = rate(n + 10, n + 69);
    expect(steps(n + 10, n + 69)).toEqual(new Set([1800]));
    // 60 frames at 2x take 1.2 s: about 60 audio frames of 20 ms went on meanwhile (a player waits for them)
    expect(audio() - audioAt2x).toBeGreaterThan(40);
    // measured side by side on this machine: about twice as many frames a second
    expect(double / normal).toBeGreaterThan(1.4);
    expect(double / normal).toBeLessThan(2.8);

    expect((await info({ command: 'speed', scale: 4 })).status).toBe(200);
    const left = SPAN - stream.position;
    const at = performance.now();
    await ended;
    // the rest of the span at 4x takes a quarter of its time (at 1x it would take `left` s)
    const tookMs = performance.now() - at;
    expect(tookMs).toBeGreaterThan((left / 4) * 1000 * 0.8);
    expect(tookMs).toBeLessThan(left * 1000 * 0.75);
    expect(steps(video.length - 20, video.length)).toEqual(new Set([900]));
    // every frame of the span came, once
    expect(video.length).toBeGreaterThanOrEqual(SPAN * GB_STREAM_FPS - 5);
    expect(video.length).toBeLessThanOrEqual(SPAN * GB_STREAM_FPS);
    expect(runningGbStreams()).toBe(0);
  }, 60_000);

  it('streamArgs: a Scale below 1 makes frames more slowly, time stamps still 1/FPS apart; the audio made in real time, stamped at that pace', () => {
    const args = streamArgs({
      label: 'x',
      font: null,
      playbackStart: 1_700_000_000,
      seconds: 2,
      speed: 0.25,
      audio: true,
    });
    expect(args).toContain(`testsrc=size=640x360:rate=${GB_STREAM_FPS * 0.25}`);
    expect(args[args.indexOf('-vf') + 1]).toBe(`settb=AVTB,setpts=N/(${GB_STREAM_FPS}*TB)`);
    expect(args[args.indexOf('-t') + 1]).toBe('2');
    expect(args[args.lastIndexOf('-t') + 1]).toBe('2');
    expect(args[args.indexOf('-af') + 1]).toBe('asetpts=PTS*0.25,volume=0.3');
    expect(args.some((a) => a.startsWith('sine='))).toBe(true);
  });

  it('answers INFO in an unknown dialog 481 and refuses playback control of a live stream, which goes on', async () => {
    const { peer, hub, dev } = await setup({ audio: false });
    const rtp = await rtpSocket();
    const channel = dev.channelIds[1]!;
    const to = { user: channel, port: hub.sipPort };
    const unknown = peer.request('INFO', to, {
      callId: 'no-such-call',
      toTag: 'x',
      body: buildMansrtsp({ command: 'pause' }, 1),
      type: MANSRTSP_CONTENT_TYPE,
    });
    expect((await unknown.response()).status).toBe(481);
    const y = '0200000051';
    const offer = buildOffer({ platformId: PLATFORM, address: '127.0.0.1', port: rtp.address().port, ssrc: y });
    const invite = peer.request('INVITE', to, { body: offer, type: 'application/sdp' });
    const ok = await invite.response();
    const dialog = { callId: invite.callId, toTag: ok.headers.to!.params.tag ?? '', fromTag: 'p1' };
    let count = 0;
    rtp.on('message', () => count++);
    peer.request('ACK', to, dialog);
    while (count < 10) await once(rtp, 'message');
    const refused = await peer
      .request('INFO', to, { ...dialog, body: buildMansrtsp({ command: 'pause' }, 1), type: MANSRTSP_CONTENT_TYPE })
      .response();
    expect(refused.status).toBe(400);
    expect(refused.reason).toMatch(/live stream/);
    expect(dev.stream(invite.callId)!.paused).toBe(false);
    const seen = count;
    while (count < seen + 10) await once(rtp, 'message');
    // INFO is allowed
    const options = await peer.request('OPTIONS', to).response();
    expect(String(options.headers.allow)).toMatch(/\bINFO\b/);
    await byeAndCheck(peer, dev, hub.sipPort, invite.callId, channel);
  }, 30_000);

  it('draws a resumed playback clock from a fractional recording time and plays the rest of the span', () => {
    const args = streamArgs({ label: 'x', font: '/f.ttf', playbackStart: 1_700_000_000.04, seconds: 1.24 });
    expect(args.find((a) => a.includes('PLAYBACK'))).toContain(`gmtime\\:${1_700_000_000.04 + 8 * 3600}}`);
    expect(args[args.indexOf('-t') + 1]).toBe('1.24');
  });

  it('refuses a bad SDP offer with 488 and an unknown channel with 404, starting nothing', async () => {
    const { peer, hub, dev } = await setup();
    const bad = peer.request(
      'INVITE',
      { user: dev.channelIds[0]!, port: hub.sipPort },
      { body: 'v=0\r\nm=video x\r\n', type: 'application/sdp' },
    );
    expect((await bad.response()).status).toBe(488);
    const offer = buildOffer({ platformId: PLATFORM, address: '127.0.0.1', port: 9000, ssrc: '0200000001' });
    const unknown = peer.request(
      'INVITE',
      { user: deviceId(777), port: hub.sipPort },
      { body: offer, type: 'application/sdp' },
    );
    // the hub routes by user: an unknown one reaches no device and is dropped
    const before = hub.dropped;
    void unknown;
    const deadline = Date.now() + 5000;
    while (hub.dropped === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(hub.dropped).toBe(before + 1);
    expect(runningGbStreams()).toBe(0);
  }, 30_000);
});
