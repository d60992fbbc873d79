import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeviceCommand, Envelope, LivePlay } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { addDevice, deviceLogin, deviceRow, unitIdOf, type CreatedDevice } from '../../../test/devices';
import { createTestApp, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { freePort, until } from '../../../test/wait';
import { FFMPEG, probe } from '../evidence/ingest/media-tools';

/** the test's segment length (the product cuts at record_minutes) */
const SEGMENT_MS = 2000;

let t: TestApp;
let base: string;
let admin: Session;
const children: ChildProcess[] = [];

/** A logged-in, online device that publishes `seconds` of test video when told to start. */
async function publishingDevice(seconds: number): Promise<{ d: CreatedDevice; camera: ChildProcess }> {
  const d = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'));
  const headers = await deviceLogin(t.app, d);
  const status = await fetch(`${base}/rest/device/api/status`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ state: 'online' }),
  });
  expect(((await status.json()) as Envelope<unknown>).code).toBe(200);
  const asked = await api<LivePlay>(t.app, 'liveAdd', admin, { imei: d.imei });
  expect(asked.code).toBe(200);
  let start: DeviceCommand | undefined;
  await until('the device gets startlive', async () => {
    const res = await fetch(`${base}/rest/device/api/commands?wait=0`, { headers });
    start = ((await res.json()) as Envelope<DeviceCommand[]>).data.find((c) => c.type === 'startlive');
    return !!start;
  });
  // 15 fps with a keyframe every 2 s: segments are cut at the first keyframe after SEGMENT_MS; the
  // recorder, which joins at the last keyframe, has 2 s to tap the stream before frames are missed
  const camera = spawn(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-re'],
    ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'],
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30'],
    ...['-c:a', 'aac', '-f', 'flv', String(start!.payload!.url)],
  ]);
  camera.stderr.resume();
  children.push(camera);
  await until('the device publishes', () => t.app.media.streams.has(d.id));
  return { d, camera };
}

async function setRecordLive(on: 0 | 1): Promise<void> {
  const set = await api(t.app, 'settingsUpdate', admin, {
    type: 'cloudstorage',
    record_path: 'recordings',
    record_minutes: 20,
    keep_days: 180,
    record_live: on,
  });
  expect(set.code).toBe(200);
}

const itemsOf = (deviceId: number) =>
  t.db.selectFrom('evidence_items').selectAll().where('device_id', '=', deviceId).orderBy('recorded_at').execute();

const segmentFiles = (hostbody: string) => {
  const dir = join(t.app.config.dataDir, 'recordings', hostbody);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.flv')) : [];
};

beforeAll(async () => {
  // viewers never connect here: the idle stop must not end the streams before ffmpeg does
  t = await createTestApp({ rtmpPort: await freePort(), liveIdleMs: 120_000 });
  t.app.liveRecorder.segmentMs = SEGMENT_MS;
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await t.close();
});

describe('recording of live streams (cloudstorage.record_live)', () => {
  it('is off by default: a published stream is not recorded', async () => {
    expect(
      (await api<{ record_live: number }>(t.app, 'settingsGet', admin, { type: 'cloudstorage' })).data,
    ).toMatchObject({ record_live: 0 });
    const { d } = await publishingDevice(3);
    expect(t.app.liveRecorder.recording()).not.toContain(d.id);
    await until('the stream ends', () => !t.app.media.streams.has(d.id), 20_000);
    expect(t.app.liveRecorder.recording()).not.toContain(d.id);
    expect(segmentFiles(d.hostbody)).toEqual([]);
    expect(await itemsOf(d.id)).toEqual([]);
  }, 60_000);

  it('on: each segment of a stream becomes an MP4 evidence item of the device; the end of the stream is kept', async () => {
    await setRecordLive(1);
    const { d } = await publishingDevice(7);
    await until('the stream is recorded', () => t.app.liveRecorder.recording().includes(d.id));
    await until('the stream ends', () => !t.app.media.streams.has(d.id), 30_000);
    expect(t.app.liveRecorder.recording()).not.toContain(d.id);
    const files = segmentFiles(d.hostbody);
    expect(files.length).toBeGreaterThanOrEqual(3);
    await until('every segment is stored', async () => (await itemsOf(d.id)).length === files.length, 30_000);
    const items = await itemsOf(d.id);
    const device = await deviceRow(t.db, d.id);
    let total = 0;
    for (const item of items) {
      expect(item).toMatchObject({
        source: 'live',
        unit_id: device.unit_id,
        user_id: device.owner_id,
        hostbody: d.hostbody,
        ext: 'mp4',
        media_type: 1,
        video_codec: 'h264',
        playable: 'ready',
      });
      const file = t.app.evidenceLibrary.store.localPath(item.sha256)!;
      expect(readFileSync(file).subarray(4, 8).toString('latin1')).toBe('ftyp');
      const probed = await probe(file);
      expect(probed.duration).toBeGreaterThan(0);
      total += probed.duration!;
    }
    // full segments last about SEGMENT_MS (cut at the next keyframe); the last one is what was left
    for (const item of items.slice(0, -1)) expect(item.duration).toBeGreaterThanOrEqual(SEGMENT_MS / 1000 - 0.2);
    expect(items.at(-1)!.duration).toBeLessThan(SEGMENT_MS / 1000 + 1.2);
    // nothing is lost between segments nor at the end: together they hold the 7 s published
    expect(total).toBeGreaterThan(6.3);
    expect(total).toBeLessThan(8);
    // recorded-on times: one per segment, in order (wall clock; a loaded publisher may send in bursts)
    const times = items.map((i) => Date.parse(i.recorded_at));
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    const custody = await t.db
      .selectFrom('evidence_custody')
      .selectAll()
      .where('media_id', '=', items[0]!.id)
      .execute();
    expect(custody.map((c) => [c.action, c.actor])).toEqual([['uploaded', 'gateway']]);
  }, 90_000);

  it('turned off while recording: the open segment is finished and stored, no new one starts', async () => {
    await setRecordLive(1);
    const { d, camera } = await publishingDevice(60);
    await until('the stream is recorded', () => t.app.liveRecorder.recording().includes(d.id));
    await until('a first segment is stored', async () => (await itemsOf(d.id)).length >= 1, 30_000);
    await setRecordLive(0);
    // the recorder reads the setting again within its poll interval, then stops at the next cut
    await until('recording stops', () => !t.app.liveRecorder.recording().includes(d.id), 30_000);
    const written = segmentFiles(d.hostbody).length;
    await until('the last segment is stored', async () => (await itemsOf(d.id)).length === written, 30_000);
    // the stream goes on without being recorded
    expect(t.app.media.streams.has(d.id)).toBe(true);
    const before = t.app.media.streams.get(d.id)!.stream.bytesIn;
    await until('the stream goes on', () => t.app.media.streams.get(d.id)!.stream.bytesIn > before + 100_000);
    expect(segmentFiles(d.hostbody).length).toBe(written);
    expect(await itemsOf(d.id)).toHaveLength(written);
    camera.kill('SIGKILL');
    await until('the stream ends', () => !t.app.media.streams.has(d.id));
  }, 90_000);

  it('segment files older than keep_days are removed; newer ones and other files stay', async () => {
    await setRecordLive(0);
    const dir = join(t.app.config.dataDir, 'recordings', 'SWEEP01');
    mkdirSync(dir, { recursive: true });
    const old = new Date(Date.now() - 181 * 86_400_000);
    for (const name of ['20250101-000000-000.flv', 'notes.flv', '20260101-000000-000.flv']) {
      writeFileSync(join(dir, name), 'FLV');
      if (name !== '20260101-000000-000.flv') utimesSync(join(dir, name), old, old);
    }
    expect(await t.app.liveRecorder.sweep()).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['20260101-000000-000.flv', 'notes.flv']);
  });

  // last: it closes the recorder of the shared app
  it('closing the recorder (app close) stores the open segment and leaves no tool process running', async () => {
    await setRecordLive(1);
    const { d, camera } = await publishingDevice(60);
    const dir = join(t.app.config.dataDir, 'recordings', d.hostbody);
    await until('a segment holds frames', () =>
      segmentFiles(d.hostbody).some((f) => statSync(join(dir, f)).size > 20_000),
    );
    await t.app.liveRecorder.close();
    expect(t.app.liveRecorder.recording()).toEqual([]);
    const written = segmentFiles(d.hostbody).length;
    expect(await itemsOf(d.id)).toHaveLength(written);
    // the only child processes left are the test's publishers (the remux ffmpeg has ended)
    const ps = spawnSync('ps', ['-o', 'pid=', '--ppid', String(process.pid)], { encoding: 'utf8' });
    const mine = new Set(children.map((c) => c.pid));
    const others = ps.stdout
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((pid) => pid && pid !== ps.pid && !mine.has(pid));
    expect(others).toEqual([]);
    camera.kill('SIGKILL');
  }, 60_000);
});
