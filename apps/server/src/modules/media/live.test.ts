import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MenuId, type DeviceCommand, type Envelope, type GetVideoAnswer, type LivePlay } from '@bwc/protocol';
import { WebSocket } from '@bwc/simulator/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../test/devices';
import type { SosRecording } from './sos-recorder';
import { createRole, createTestApp, createUser, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { freePort, until } from '../../../test/wait';

const require = createRequire(import.meta.url);
const FFMPEG = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
/** short, so that the idle stop is seen within the test; the product's default is LIVE_IDLE_MS */
const IDLE_MS = 1500;

let t: TestApp;
let base: string;
let admin: Session;
let luohu: Session;
let noVideo: Session;
const children: ChildProcess[] = [];

/** A device as a terminal runs it: logged in, online, fetching its commands over HTTP. */
class Terminal {
  headers: Record<string, string> = {};
  camera: ChildProcess | null = null;
  constructor(readonly d: CreatedDevice) {}

  async online(): Promise<void> {
    this.headers = await deviceLogin(t.app, this.d);
    await this.state('online');
  }

  async state(state: 'online' | 'offline'): Promise<void> {
    const res = await fetch(`${base}/rest/device/api/status`, {
      method: 'POST',
      headers: { ...this.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ state }),
    });
    expect(((await res.json()) as Envelope<unknown>).code).toBe(200);
  }

  async commands(): Promise<DeviceCommand[]> {
    const res = await fetch(`${base}/rest/device/api/commands?wait=0`, { headers: this.headers });
    const env = (await res.json()) as Envelope<DeviceCommand[]>;
    expect(env.code).toBe(200);
    for (const c of env.data)
      await fetch(`${base}/rest/device/api/commands/ack`, {
        method: 'POST',
        headers: { ...this.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ id: c.id, result: 'ok' }),
      });
    return env.data;
  }

  /** Wait for a command of `type` and answer it as a camera does. */
  async obey(type: 'startlive' | 'stoplive'): Promise<DeviceCommand> {
    let found: DeviceCommand | undefined;
    await until(`the device gets ${type}`, async () => {
      found = (await this.commands()).find((c) => c.type === type);
      return !!found;
    });
    if (type === 'startlive') this.publish(String(found!.payload!.url));
    else this.camera?.kill('SIGKILL');
    return found!;
  }

  publish(url: string): void {
    const child = spawn(FFMPEG, [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'],
      ...['-t', '120', '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '15'],
      ...['-c:a', 'aac', '-f', 'flv', url],
    ]);
    child.stderr?.resume();
    children.push(child);
    this.camera = child;
  }
}

/** A WS-FLV viewer: counts the video tags it receives; `closed` once the server closes it. */
function view(path: string, lang = 'zh-CN') {
  const v = { bytes: 0, videoTags: 0, text: '', closed: null as null | { code: number; reason: string } };
  const ws = new WebSocket(`${base.replace('http', 'ws')}${path}&lang=${lang}`);
  let pending = Buffer.alloc(0);
  let headerSeen = false;
  ws.on('message', (data, binary) => {
    if (!binary) {
      v.text = String(data);
      return;
    }
    v.bytes += (data as Buffer).length;
    pending = Buffer.concat([pending, data as Buffer]);
    if (!headerSeen && pending.length >= 13) {
      pending = pending.subarray(13);
      headerSeen = true;
    }
    while (headerSeen && pending.length >= 11) {
      const size = pending.readUIntBE(1, 3);
      if (pending.length < 11 + size + 4) break;
      if (pending[0] === 9) v.videoTags += 1;
      pending = pending.subarray(11 + size + 4);
    }
  });
  ws.on('close', (code, reason) => (v.closed = { code, reason: String(reason) }));
  return { v, ws };
}

async function addOnline(unitBh = '440304000000'): Promise<Terminal> {
  const term = new Terminal(await addDevice(t.app, admin, await unitIdOf(t.db, unitBh)));
  await term.online();
  return term;
}

beforeAll(async () => {
  t = await createTestApp({ rtmpPort: await freePort(), liveIdleMs: IDLE_MS });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const desk = await createRole(t.db, 'video wall', [{ ids: [MenuId.DISPATCH_VIDEO], actions: ['view'] }]);
  const luohuUser = await createUser(t.db, { roleId: desk, unitBh: '440303000000' });
  luohu = await login(t.app, luohuUser.username, luohuUser.password);
  const mapOnly = await createRole(t.db, 'map only', [{ ids: [MenuId.TRACK], actions: ['view'] }]);
  const plain = await createUser(t.db, { roleId: mapOnly, unitBh: '440300000000' });
  noVideo = await login(t.app, plain.username, plain.password);
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await t.close();
});

describe('live video on demand', () => {
  it('live_add tells the device to publish; a viewer that came early is held and sees frames; gisstatus follows', async () => {
    const term = await addOnline();
    const asked = await api<LivePlay>(t.app, 'liveAdd', admin, { imei: term.d.imei });
    expect(asked).toMatchObject({ code: 200, data: { device_id: term.d.id, state: 'starting' } });
    expect(asked.data.ws).toMatch(new RegExp(`^/live/${term.d.id}\\.flv\\?token=`));
    // the viewer connects before the device publishes: it waits
    const { v, ws } = view(asked.data.ws);
    const status = await api<{ live: { state: string } }>(t.app, 'gisStatus', admin, { imei: term.d.imei });
    expect(status.data.live.state).toBe('starting');

    const cmd = await term.obey('startlive');
    expect(cmd.payload).toMatchObject({ url: expect.stringMatching(/^rtmp:\/\/127\.0\.0\.1:\d+\/live\/\d+\?key=/) });
    await until('frames reach the viewer', () => v.videoTags >= 10);
    const live = await api<{ live: { state: string; viewers: number; since: string } }>(t.app, 'gisStatus', admin, {
      imei: term.d.imei,
    });
    expect(live.data.live).toMatchObject({ state: 'live', viewers: 1, since: expect.any(String) });

    // a second live_add while live answers 'live' and does not queue another startlive
    const again = await api<LivePlay>(t.app, 'liveAdd', admin, { imei: term.d.imei });
    expect(again.data.state).toBe('live');
    expect((await term.commands()).filter((c) => c.type === 'startlive')).toEqual([]);

    // the last viewer leaves: after the idle time the device is told to stop and the publish is cut
    ws.close();
    await term.obey('stoplive');
    await until('the stream is gone', () => !t.app.media.streams.has(term.d.id));
    const after = await api<{ live: { state: string } }>(t.app, 'gisStatus', admin, { imei: term.d.imei });
    expect(after.data.live.state).toBe('idle');
  });

  it('live_del by the only viewer stops at once; live_delimei stops for everyone; live_alldel releases all', async () => {
    const term = await addOnline();
    const play = (await api<LivePlay>(t.app, 'liveAdd', admin, { imei: term.d.imei })).data;
    await term.obey('startlive');
    const { v, ws } = view(play.ws);
    await until('frames', () => v.videoTags >= 3);
    // live_del while its player still plays: the viewer keeps it alive
    expect((await api(t.app, 'liveDel', admin, { imei: term.d.imei })).data).toEqual({ stopped: 0 });
    ws.close();
    await until('the viewer is gone', () => t.app.media.streams.get(term.d.id)?.stream.viewers.size === 0);
    await api(t.app, 'liveAdd', admin, { imei: term.d.imei });
    expect((await api(t.app, 'liveDel', admin, { imei: term.d.imei })).data).toEqual({ stopped: 1 });
    await term.obey('stoplive');
    expect(t.app.media.streams.has(term.d.id)).toBe(false);

    // live_delimei: every viewer is closed
    const again = (await api<LivePlay>(t.app, 'liveAdd', admin, { imei: term.d.imei })).data;
    await term.obey('startlive');
    const second = view(again.ws);
    await until('frames', () => second.v.videoTags >= 3);
    const stopped = await api(t.app, 'liveDelImei', admin, { imei: term.d.imei, type: 'startlive' }, 'en-US');
    expect(stopped).toMatchObject({ code: 200, msg: "The device's live video was stopped", data: { stopped: 1 } });
    await until('the viewer is closed', () => second.v.closed !== null);
    expect(second.v.closed).toEqual({ code: 1000, reason: 'stopped' });
    await term.obey('stoplive');

    // live_alldel: each device this user asked for and nobody watches stops
    await api(t.app, 'liveAdd', admin, { imei: term.d.imei });
    await term.obey('startlive');
    await until('publishing', () => t.app.media.streams.has(term.d.id));
    expect((await api(t.app, 'liveAllDel', admin)).data).toEqual({ stopped: 1 });
    await until('stopped', () => !t.app.media.streams.has(term.d.id));
  });

  it('getVideo asks several devices at once and names each one that cannot start', async () => {
    const a = await addOnline();
    const off = new Terminal(await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000')));
    const answer = await api<GetVideoAnswer>(
      t.app,
      'getVideo',
      admin,
      { ids: `${a.d.id},${off.d.id},99999`, issos: '1', messid: 12, type: 'startlive', getvideo_switch: 1 },
      'en-US',
    );
    expect(answer.code).toBe(200);
    expect(answer.data.plays.map((p) => p.device_id)).toEqual([a.d.id]);
    expect(answer.data.failed).toEqual([
      { id: off.d.id, msg: `officer ${off.d.hostbody} is offline: its live video cannot be opened` },
      { id: 99999, msg: 'No such device' },
    ]);
    await a.obey('startlive');
    await until('publishing', () => t.app.media.streams.has(a.d.id));
    // nobody opened it: stopped after the idle time
    await a.obey('stoplive');
    await until('stopped', () => !t.app.media.streams.has(a.d.id));

    const bad = await api(t.app, 'getVideo', admin, { ids: 'x', issos: '2' }, 'en-US');
    expect(bad.code).toBe(400);
    expect(bad.msg).toBe('Ids.0 must be a number.');
    expect((await api(t.app, 'getVideo', admin, { ids: [1], issos: '2' }, 'en-US')).msg).toBe(
      'Issos is not one of the allowed choices.',
    );
    expect((await api(t.app, 'getVideo', admin, { ids: [] }, 'en-US')).code).toBe(400);
  });

  it('a device that goes offline mid-stream closes its viewers; a new request after it is back works', async () => {
    const term = await addOnline();
    const play = (await api<LivePlay>(t.app, 'liveAdd', admin, { imei: term.d.imei })).data;
    await term.obey('startlive');
    const first = view(play.ws);
    await until('frames', () => first.v.videoTags >= 3);
    await term.state('offline');
    await until('the viewer is closed', () => first.v.closed !== null);
    // the reason tells the player to wait for the device rather than end
    expect(first.v.closed).toEqual({ code: 1000, reason: 'offline' });
    expect(t.app.media.streams.has(term.d.id)).toBe(false);
    const refused = await api(t.app, 'liveAdd', admin, { imei: term.d.imei }, 'en-US');
    expect(refused).toMatchObject({
      code: 409,
      msg: `officer ${term.d.hostbody} is offline: its live video cannot be opened`,
    });

    await term.state('online');
    const back = (await api<LivePlay>(t.app, 'liveAdd', admin, { imei: term.d.imei })).data;
    const second = view(back.ws);
    await term.obey('startlive');
    await until('frames again', () => second.v.videoTags >= 3);
    second.ws.close();
    await term.obey('stoplive');
  });

  it('permissions: menu and unit scope on every call; the ops centre lists and kicks', async () => {
    const term = await addOnline();
    // a video-wall user of another unit: the device is outside its scope
    expect((await api(t.app, 'liveAdd', luohu, { imei: term.d.imei })).code).toBe(403);
    expect((await api<GetVideoAnswer>(t.app, 'getVideo', luohu, { ids: [term.d.id] })).data.plays).toEqual([]);
    // a user without any live menu
    expect((await api(t.app, 'liveAdd', noVideo, { imei: term.d.imei })).code).toBe(403);
    expect((await api(t.app, 'mediaGateway', noVideo)).code).toBe(403);
    expect((await api(t.app, 'liveDelImei', luohu, { imei: term.d.imei })).code).toBe(403);

    const play = (await api<LivePlay>(t.app, 'liveAdd', admin, { imei: term.d.imei })).data;
    await term.obey('startlive');
    const one = view(play.ws);
    await until('frames', () => one.v.videoTags >= 3);
    const listed = await api<{ streams: { device_id: number; viewers: { id: number; username: string }[] }[] }>(
      t.app,
      'mediaGateway',
      admin,
    );
    const stream = listed.data.streams.find((s) => s.device_id === term.d.id)!;
    expect(stream.viewers).toEqual([expect.objectContaining({ username: 'admin' })]);
    expect((await api(t.app, 'mediaKick', admin, { device_id: term.d.id, viewer: stream.viewers[0]!.id })).code).toBe(
      200,
    );
    await until('the viewer is kicked', () => one.v.closed !== null);
    expect((await api(t.app, 'mediaKick', admin, { device_id: term.d.id, viewer: 424242 })).code).toBe(404);
    expect((await api(t.app, 'mediaKick', admin, { device_id: term.d.id })).code).toBe(200);
    await term.obey('stoplive');
    expect((await api(t.app, 'mediaKick', admin, { device_id: term.d.id })).code).toBe(404);
  });

  it('an SOS records getvideo_time seconds of its live video and a first-frame picture under DATA_DIR, stored as evidence of its alarm', async () => {
    const set = await api(t.app, 'settingsUpdate', admin, {
      type: 'digitailmap',
      mapinfo: 0,
      gpscenter_lon: 114.05,
      gpscenter_lat: 22.54,
      map_url: '',
      map_crs: 'WGS84',
      getvideo_switch: 1,
      getvideo_time: 10,
      getvideo_num: 4,
      getvideo_path: 'sos/video',
      getpic_path: 'sos/picture',
    });
    expect(set.code).toBe(200);
    const term = await addOnline();
    const recorded = new Promise<SosRecording | null>((res) => {
      const original = t.app.sosRecorder.onSos.bind(t.app.sosRecorder);
      t.app.sosRecorder.onSos = async (id, at, eventId) => {
        const r = await original(id, at, eventId);
        if (id === term.d.id) res(r);
        return r;
      };
    });
    const sos = await fetch(`${base}/rest/device/api/sos`, {
      method: 'POST',
      headers: { ...term.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'help' }),
    });
    expect(((await sos.json()) as Envelope<unknown>).code).toBe(200);
    await term.obey('startlive');
    const r = (await recorded)!;
    expect(r.video).toContain(join(t.app.config.dataDir, 'sos', 'video', term.d.hostbody));
    // about 10 s of a 15 fps stream: its tags are all there
    expect(r.bytes).toBeGreaterThan(50_000);
    expect(readFileSync(r.video).subarray(0, 3).toString('latin1')).toBe('FLV');
    expect(r.picture).toContain(join(t.app.config.dataDir, 'sos', 'picture', term.d.hostbody));
    // a JPEG (SOI marker)
    expect(readFileSync(r.picture!).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // the recording is an evidence item (remuxed to MP4, playable as it is) linked to the SOS alarm
    const alarm = await t.db
      .selectFrom('alarms')
      .select('id')
      .where('device_id', '=', term.d.id)
      .where('eid', 'like', 'sos:%')
      .executeTakeFirstOrThrow();
    const item = await t.db
      .selectFrom('evidence_items')
      .selectAll()
      .where('device_id', '=', term.d.id)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({ source: 'live', alarm_id: alarm.id, ext: 'mp4', media_type: 1, video_codec: 'h264' });
    expect(item.playable).toBe('ready');
    expect(item.duration).toBeGreaterThan(5);
    expect(await t.app.evidenceLibrary.store.rehash(item.sha256)).toBe(item.sha256);
    const custody = await t.db.selectFrom('evidence_custody').selectAll().where('media_id', '=', item.id).execute();
    expect(custody.map((c) => [c.action, c.actor])).toEqual([['uploaded', 'gateway']]);
    // nobody watches once the recording ends: the stream stops
    await term.obey('stoplive');
  }, 60_000);

  it('a viewer waiting for a device that never publishes gets a clear message', async () => {
    const term = await addOnline();
    const play = (await api<LivePlay>(t.app, 'liveAdd', admin, { imei: term.d.imei })).data;
    // the device ignores the command; the server gives up after LIVE_START_WAIT_MS
    const { v } = view(play.ws, 'en-US');
    await until('the viewer is refused', () => v.closed !== null, 40_000);
    expect(v.closed!.code).toBe(4404);
    expect(JSON.parse(v.text)).toMatchObject({
      code: 404,
      msg: `Device ${term.d.id} did not start streaming within 15 seconds: check its network and try again`,
    });
  }, 60_000);
});
