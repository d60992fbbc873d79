import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../test/devices';
import { createRole, createTestApp, createUser, DEMO, login, type TestApp } from '../../../test/helpers';
import { WebSocket } from '@bwc/simulator/ws';
import { MediaKeys, readMediaKey } from './keys';
import { freePort, until } from '../../../test/wait';

const require = createRequire(import.meta.url);
const FFMPEG = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;

let t: TestApp;
let base: string;
let rtmpPort: number;
let cam: CreatedDevice;
let adminId: number;
let luohuUserId: number;
const children: ChildProcess[] = [];

/** ffmpeg publishing a test pattern with a tone, as a camera would (H.264 + AAC over RTMP). */
function publish(deviceId: number, key: string, seconds = 30): ChildProcess {
  const child = spawn(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-re'],
    ...[
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=15',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
    ],
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '15'],
    ...['-c:a', 'aac', '-f', 'flv', `rtmp://127.0.0.1:${rtmpPort}/live/${deviceId}?key=${encodeURIComponent(key)}`],
  ]);
  child.stderr?.resume();
  children.push(child);
  return child;
}

interface Tag {
  type: number;
  data: Buffer;
}

/** FLV header and tags of a byte stream (as far as it goes). */
function parseFlv(bytes: Buffer): { header: string; tags: Tag[] } {
  const header = bytes.subarray(0, 3).toString('latin1');
  const tags: Tag[] = [];
  let p = 9 + 4;
  while (p + 11 <= bytes.length) {
    const size = bytes.readUIntBE(p + 1, 3);
    if (p + 11 + size + 4 > bytes.length) break;
    tags.push({ type: bytes[p]!, data: bytes.subarray(p + 11, p + 11 + size) });
    p += 11 + size + 4;
  }
  return { header, tags };
}

/** Reads an HTTP-FLV answer until `enough` says so; answers the bytes. */
async function readFlv(url: string, enough: (b: Buffer) => boolean): Promise<Buffer> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('video/x-flv');
  const chunks: Buffer[] = [];
  const reader = res.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
    if (enough(Buffer.concat(chunks))) break;
  }
  controller.abort();
  return Buffer.concat(chunks);
}

const firstVideoFrames = (tags: Tag[]) => tags.filter((x) => x.type === 9 && x.data[1] === 1);

beforeAll(async () => {
  rtmpPort = await freePort();
  t = await createTestApp({ rtmpPort });
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  adminId = (await t.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
  cam = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'));
  const role = await createRole(t.db, 'video desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  luohuUserId = (await createUser(t.db, { roleId: role, unitBh: '440303000000' })).id;
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await t.close();
});

describe('media gateway', () => {
  it('refuses a publish with a wrong key, then takes a signed one; a replayed key is refused', async () => {
    const wrong = publish(cam.id, 'not-a-key', 5);
    await new Promise((r) => wrong.once('exit', r));
    expect(t.app.media.streams.has(cam.id)).toBe(false);

    const key = t.app.media.keys.publishKey(cam.id, 60_000);
    publish(cam.id, key);
    await until('the camera publishes', () => t.app.media.streams.has(cam.id));

    const replay = publish(cam.id, key, 5);
    await new Promise((r) => replay.once('exit', r));
    // the first publish still runs: the replay did not replace it
    expect(t.app.media.publishers()).toEqual([expect.objectContaining({ deviceId: cam.id })]);
    // the key is spent in the database: another node (or this one after a restart) refuses it too
    const otherNode = new MediaKeys(await readMediaKey(t.db), t.db);
    expect(await otherNode.usePublishKey(cam.id, key)).toBe('replayed');
    expect(await otherNode.usePublishKey(cam.id + 1, key)).toBe('signature');
    expect(await otherNode.usePublishKey(cam.id, t.app.media.keys.publishKey(cam.id, -1))).toBe('expired');
    expect(await otherNode.usePublishKey(cam.id, 'a.b')).toBe('malformed');
  });

  it('a viewer starts at a keyframe: FLV header, sequence headers, then the cached GOP', async () => {
    // joins mid-stream, after a few GOPs have gone by
    await until('some video went through', () => (t.app.media.publishers()[0]?.bytesIn ?? 0) > 20_000);
    const token = t.app.media.keys.playToken(adminId, cam.id, 60_000);
    const bytes = await readFlv(
      `${base}/live/${cam.id}.flv?token=${token}`,
      (b) => firstVideoFrames(parseFlv(b).tags).length >= 3,
    );
    const { header, tags } = parseFlv(bytes);
    expect(header).toBe('FLV');
    const video = tags.filter((x) => x.type === 9);
    // AVC sequence header first, then the first frame is a keyframe (frame type 1, codec 7)
    expect(video[0]!.data[1]).toBe(0);
    expect(firstVideoFrames(tags)[0]!.data[0]).toBe(0x17);
    expect(tags.some((x) => x.type === 8)).toBe(true);
  });

  it('WS-FLV gives the same stream as binary frames', async () => {
    const token = t.app.media.keys.playToken(adminId, cam.id, 60_000);
    const chunks: Buffer[] = [];
    const ws = new WebSocket(`${base.replace('http', 'ws')}/live/${cam.id}.flv?token=${token}`);
    ws.on('message', (data, isBinary) => {
      expect(isBinary).toBe(true);
      chunks.push(Buffer.from(data as Buffer));
    });
    await until(
      'video frames over the websocket',
      () => firstVideoFrames(parseFlv(Buffer.concat(chunks)).tags).length >= 2,
    );
    expect(parseFlv(Buffer.concat(chunks)).header).toBe('FLV');
    ws.close();
  });

  it('refuses viewers without a valid token, out of scope, or of a device that is not streaming, with a message', async () => {
    const url = (id: number, token: string) => `${base}/live/${id}.flv?token=${token}`;
    const bad = await fetch(url(cam.id, 'forged.token.value'), { headers: { 'x-lang': 'en-US' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ code: 401, msg: 'The video viewing token is not valid' });

    const expired = t.app.media.keys.playToken(adminId, cam.id, -1);
    const old = await fetch(url(cam.id, expired));
    expect(old.status).toBe(401);
    expect(((await old.json()) as { msg: string }).msg).toContain('过期');

    // a token for another device does not open this one
    const other = t.app.media.keys.playToken(adminId, cam.id + 1000, 60_000);
    expect((await fetch(url(cam.id, other))).status).toBe(401);

    const luohu = t.app.media.keys.playToken(luohuUserId, cam.id, 60_000);
    const scoped = await fetch(url(cam.id, luohu), { headers: { 'x-lang': 'en-US' } });
    expect(scoped.status).toBe(403);
    expect(((await scoped.json()) as { msg: string }).msg).toContain('outside your unit');

    const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
    const idle = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'));
    const none = await fetch(url(idle.id, t.app.media.keys.playToken(adminId, idle.id, 60_000)), {
      headers: { 'x-lang': 'en-US' },
    });
    expect(none.status).toBe(404);
    expect(((await none.json()) as { msg: string }).msg).toBe(`Device ${idle.id} is not streaming video now`);

    expect((await fetch(`${base}/live/abc.flv?token=x`)).status).toBe(404);
  });

  it('a kicked publisher ends its viewers', async () => {
    const token = t.app.media.keys.playToken(adminId, cam.id, 60_000);
    const res = await fetch(`${base}/live/${cam.id}.flv?token=${token}`);
    const reader = res.body!.getReader();
    await reader.read();
    expect(t.app.media.kick(cam.id)).toBe(true);
    for (;;) if ((await reader.read()).done) break;
    await until('the stream is gone', () => !t.app.media.streams.has(cam.id));
  });
});
