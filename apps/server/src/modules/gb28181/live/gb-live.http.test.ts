/**
 * The play path of a GB channel through the server's own FLV output (/live/gb-<device>_<channel>.flv over
 * HTTP and websocket) with a signed, expiring play token checked against the user's unit scope: a
 * test app, the server's GbSipPlatform and a simulated GB device (ffmpeg H.264 in PS over RTP).
 */
import { GbSimHub } from '@bwc/simulator/gb';
import { WebSocket } from '@bwc/simulator/ws';
import { MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitIdOf } from '../../../../test/devices';
import { createRole, createTestApp, createUser, type TestApp } from '../../../../test/helpers';
import { until } from '../../../../test/wait';
import { GbSipPlatform } from '../sip';
import { createGbLive, type GbLive } from './gb-live.module';

const PLATFORM = '34020000002000000001';
const DOMAIN = '3402000000';
const PASSWORD = '12345678';
const base = 45000 + Math.floor(Math.random() * 2000) * 10;

let t: TestApp;
let url: string;
let platform: GbSipPlatform;
let hub: GbSimHub;
let gb: GbLive;
let channel: string;
const DEVICE = '34020000001320000001';
let admin: { id: number; unit_id: number; ifadmin: number };
let luohu: { id: number; unit_id: number; ifadmin: number };

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  platform = new GbSipPlatform({
    platformId: PLATFORM,
    domain: DOMAIN,
    host: '127.0.0.1',
    port: 0,
    passwordFor: async () => PASSWORD,
  });
  await platform.start();
  hub = new GbSimHub({ host: '127.0.0.2' });
  await hub.start();
  const dev = hub.device({
    deviceId: DEVICE,
    password: PASSWORD,
    channels: 1,
    server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port: platform.port },
  });
  expect(await dev.start()).toBe(true);
  channel = dev.channelIds[0]!;
  // the channel belongs to Futian (440304); a Luohu (440303) user may not watch it
  const futian = await unitIdOf(t.db, '440304000000');
  const role = await createRole(t.db, 'video wall', [{ ids: [MenuId.DISPATCH_VIDEO], actions: ['view'] }]);
  const a = await createUser(t.db, { roleId: role, unitBh: '440300000000' });
  const l = await createUser(t.db, { roleId: role, unitBh: '440303000000' });
  admin = { id: a.id, unit_id: await unitIdOf(t.db, '440300000000'), ifadmin: 0 };
  luohu = { id: l.id, unit_id: await unitIdOf(t.db, '440303000000'), ifadmin: 0 };
  gb = await createGbLive(t.app, {
    platform,
    lookupChannel: async (id, device) =>
      id === channel && (device === undefined || device === dev.id) ? { deviceId: dev.id, unitId: futian } : null,
    settings: {
      platformId: PLATFORM,
      domain: DOMAIN,
      mediaAddress: '127.0.0.1',
      bindHost: '127.0.0.1',
      videoPort: base,
      portCount: 10,
      idleMs: 1000,
    },
  });
}, 60_000);

afterAll(async () => {
  gb?.close();
  await hub?.stop();
  await platform?.stop();
  await t?.close();
});

/** Read an HTTP-FLV answer until `videoTags` video tags came; answers the status and the tags' first bytes. */
async function readFlv(path: string, videoTags: number): Promise<{ status: number; body: string; video: Buffer[] }> {
  const ac = new AbortController();
  const res = await fetch(`${url}${path}`, { signal: ac.signal });
  if (res.status !== 200) return { status: res.status, body: await res.text(), video: [] };
  expect(res.headers.get('content-type')).toBe('video/x-flv');
  const reader = res.body!.getReader();
  let buf = Buffer.alloc(0);
  const video: Buffer[] = [];
  let at = 13;
  while (video.length < videoTags) {
    const { value, done } = await reader.read();
    if (done) break;
    buf = Buffer.concat([buf, Buffer.from(value)]);
    while (at + 11 <= buf.length) {
      const size = buf.readUIntBE(at + 1, 3);
      if (at + 15 + size > buf.length) break;
      if (buf[at] === 9) video.push(buf.subarray(at + 11, at + 11 + Math.min(size, 8)));
      at += 15 + size;
    }
  }
  expect(buf.subarray(0, 3).toString()).toBe('FLV');
  ac.abort();
  return { status: 200, body: '', video };
}

describe('GB28181 live play path', () => {
  it('a user in scope plays /live/gb-<device>_<channel>.flv over HTTP and websocket; refusals; the stream stops when both leave', async () => {
    const play = await gb.play(admin, channel);
    expect(play.flv).toMatch(new RegExp(`^/live/gb-${DEVICE}_${channel}\\.flv\\?token=`));
    const got = await readFlv(play.flv, 10);
    expect(got.status).toBe(200);
    // AVC sequence header, then a keyframe
    expect(got.video[0]!.subarray(0, 2)).toEqual(Buffer.from([0x17, 0x00]));
    expect(got.video[1]!.subarray(0, 2)).toEqual(Buffer.from([0x17, 0x01]));

    // websocket, same path
    const ws = new WebSocket(`${url.replace('http', 'ws')}${play.ws}`);
    let wsBytes = 0;
    ws.on('message', (d: Buffer) => (wsBytes += d.length));
    await until('ws FLV bytes', () => wsBytes > 10_000, 20_000);
    ws.close();

    // another channel's token, a forged one, a wrong namespace
    const other = play.flv.replace(channel, channel.slice(0, -1) + (channel.endsWith('9') ? '8' : '9'));
    expect((await readFlv(other, 1)).status).toBe(401);
    expect((await readFlv(play.flv.replace(/token=\d+/, 'token=999'), 1)).status).toBe(401);
    expect((await readFlv(play.flv.replace('/gb-', '/xx-'), 1)).status).toBe(404);
    expect((await readFlv(play.flv.replace('/gb-', '/gbpb-'), 1)).status).toBe(401);

    // out of scope: refused at play and at the FLV output
    await expect(gb.play(luohu, channel)).rejects.toMatchObject({ key: 'errors.media.outOfScope' });
    const luohuToken = gb.service.playToken(luohu.id, `gb:${DEVICE}_${channel}`, 60_000);
    const refused = await readFlv(`/live/gb-${DEVICE}_${channel}.flv?token=${luohuToken}`, 1);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 403 });

    // everyone left: the idle stop (1 s) BYEs the device
    await until('stream stopped', () => !gb.service.has(`gb:${DEVICE}_${channel}`), 10_000);
    expect((await readFlv(play.flv, 1)).status).toBe(404);
  }, 60_000);
});
