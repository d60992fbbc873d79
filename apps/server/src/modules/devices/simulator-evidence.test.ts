import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CameraEvidence,
  DeviceClient,
  findFfmpeg,
  provisionDevices,
  simulatedIdentity,
  startSimulator,
  Transport,
  type StopSimulator,
} from '@bwc/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { until } from '../../../test/wait';
import { LocalContentStore } from '../evidence/store';
import { PROVISION_KEY_FILE } from './device-api.routes';

/**
 * Simulated cameras' evidence against a real listening server: clips recorded with ffmpeg, sent
 * with tus-js-client to the device upload endpoint, stored as evidence items.
 */

let t: TestApp;
let server: string;
let key: string;
let transport: Transport;
let sim: StopSimulator | null = null;
const work = mkdtempSync(join(tmpdir(), 'bwc-sim-evidence-test-'));
const CHUNK = 64 * 1024;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  key = readFileSync(join(t.config.dataDir, PROVISION_KEY_FILE), 'utf8').trim();
  transport = new Transport({ server });
});
afterAll(async () => {
  await sim?.();
  transport?.close();
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A simulated camera provisioned and logged in as the fleet does it. */
async function camera(
  index: number,
): Promise<{ client: DeviceClient; identity: ReturnType<typeof simulatedIdentity> }> {
  const identity = simulatedIdentity('EVSIM', index);
  const answer = await provisionDevices(transport, key, [identity]);
  const client = new DeviceClient(transport, identity.hostbody, answer.devices[0]!.secret);
  await client.login();
  return { client, identity };
}

function itemsWith(sha: string) {
  return t.db.selectFrom('evidence_items').selectAll().where('sha256', '=', sha).execute();
}

describe.runIf(findFfmpeg())('simulated camera evidence', () => {
  it('uploads a recorded clip that arrives as an evidence item with its SHA-256, and a re-send is not stored twice', async () => {
    const { client, identity } = await camera(1);
    const dir = join(work, identity.hostbody);
    const target = { server, authorization: () => client.bearer, chunkBytes: CHUNK };
    const ev = new CameraEvidence({ identity, dir, target });
    const clip = await ev.record('video', 6);
    const sha = sha256(clip.path);
    // kept aside: the clip and its queue entry as they were before the upload
    copyFileSync(clip.path, join(work, 'copy.mp4'));
    copyFileSync(`${clip.path}.json`, join(work, 'copy.json'));

    expect(await ev.send()).toEqual({ stored: 1, duplicates: 0, refused: 0, left: 0 });
    expect(ev.queue.pending()).toEqual([]);
    const [item, ...more] = await itemsWith(sha);
    expect(more).toEqual([]);
    // the demo camera's officer (its police number his username), whom the library shows
    const officer = await t.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', identity.hostcode)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({
      media_type: 1,
      source: 'device',
      device_id: client.id,
      user_id: officer.id,
      hostbody: identity.hostbody,
      file_name: clip.filename,
      size: clip.size,
      width: 640,
      height: 360,
    });
    expect(item!.duration).toBeGreaterThan(5.5);
    expect(item!.duration).toBeLessThan(6.5);
    expect(new Date(item!.recorded_at).getTime()).toBe(new Date(clip.recorded_at).getTime());
    // the stored original is the very file the camera recorded
    expect(sha256(new LocalContentStore(t.config.dataDir).localPath(sha))).toBe(sha);

    // a restarted simulator that never heard the confirmation sends the same clip again
    copyFileSync(join(work, 'copy.mp4'), clip.path);
    copyFileSync(join(work, 'copy.json'), `${clip.path}.json`);
    const again = new CameraEvidence({ identity, dir, target });
    expect(again.pending).toBe(1);
    expect(await again.send()).toEqual({ stored: 0, duplicates: 1, refused: 0, left: 0 });
    expect(again.queue.pending()).toEqual([]);
    expect(await itemsWith(sha)).toHaveLength(1);
  }, 120_000);

  it('uploads audio notes and photos as audio and image items', async () => {
    const { client, identity } = await camera(3);
    const fleetStop = new AbortController();
    const ev = new CameraEvidence({
      identity,
      dir: join(work, identity.hostbody),
      target: { server, authorization: () => client.bearer, signal: fleetStop.signal },
    });
    const audio = await ev.record('audio', 4);
    const photo = await ev.record('photo');
    const shas = [sha256(audio.path), sha256(photo.path)];
    expect(await ev.send()).toEqual({ stored: 2, duplicates: 0, refused: 0, left: 0 });
    // the fleet's stop signal is not left holding a listener per upload
    expect(getEventListeners(fleetStop.signal, 'abort')).toHaveLength(0);
    const [a] = await itemsWith(shas[0]!);
    const [p] = await itemsWith(shas[1]!);
    expect(a).toMatchObject({ media_type: 2, ext: 'mp3', file_name: audio.filename, device_id: client.id });
    expect(a!.duration).toBeGreaterThan(3.5);
    expect(p).toMatchObject({ media_type: 3, ext: 'jpg', width: 640, height: 360, device_id: client.id });
  }, 120_000);

  it('resumes an upload broken off at the server offset, in a restarted simulator', async () => {
    const { client, identity } = await camera(2);
    const dir = join(work, identity.hostbody);
    const stop = new AbortController();
    const first = new CameraEvidence({
      identity,
      dir,
      target: {
        server,
        authorization: () => client.bearer,
        chunkBytes: CHUNK,
        signal: stop.signal,
        // broken off once the server has two chunks
        onProgress: (_entry, accepted) => accepted >= 2 * CHUNK && stop.abort(),
      },
    });
    const clip = await first.record('video', 10);
    const sha = sha256(clip.path);
    expect(clip.size).toBeGreaterThan(4 * CHUNK);
    await expect(first.send()).rejects.toThrow(/stopped/);
    const [entry] = first.queue.pending();
    expect(entry).toMatchObject({ fileid: clip.fileid, attempts: 1 });
    expect(entry!.upload_url).toMatch(/\/rest\/device\/api\/upload\/.+/);
    const uploadId = entry!.upload_url!.split('/').pop()!;
    const open = await t.db
      .selectFrom('evidence_uploads')
      .selectAll()
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();
    expect(open.state).toBe('open');

    // where the server stands
    const head = await fetch(entry!.upload_url!, {
      method: 'HEAD',
      headers: { authorization: client.bearer, 'tus-resumable': '1.0.0' },
    });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(2 * CHUNK);
    expect(offset).toBeLessThan(clip.size);

    const progress: number[] = [];
    const second = new CameraEvidence({
      identity,
      dir,
      target: {
        server,
        authorization: () => client.bearer,
        chunkBytes: CHUNK,
        onProgress: (_entry, accepted) => progress.push(accepted),
      },
    });
    expect(await second.send()).toMatchObject({ stored: 1, left: 0 });
    // it went on from the server's offset rather than from the start
    expect(progress[0]).toBeGreaterThan(offset);
    expect(progress.at(-1)).toBe(clip.size);
    const uploads = await t.db
      .selectFrom('evidence_uploads')
      .select(['id', 'state'])
      .where('owner_kind', '=', 'device')
      .where('owner_id', '=', client.id)
      .execute();
    expect(uploads).toEqual([{ id: uploadId, state: 'done' }]);
    expect(await itemsWith(sha)).toHaveLength(1);
  }, 120_000);

  it('a fleet told to record sends its cameras’ clips on its own', async () => {
    sim = await startSimulator({
      server,
      devices: 2,
      provisionKey: key,
      prefix: 'EVFLT',
      seed: 3,
      intervalS: [1, 2],
      offlineRate: 0,
      sosRate: 0,
      terminals: false,
      commands: false,
      recordEveryS: [1, 2],
      evidenceDir: join(work, 'fleet'),
    });
    await until('clips uploaded', () => sim!.stats.clipsUploaded >= 3, 90_000);
    const items = await t.db
      .selectFrom('evidence_items')
      .select(['hostbody', 'media_type', 'device_id'])
      .where('hostbody', 'like', 'EVFLT%')
      .execute();
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.every((i) => i.device_id !== null)).toBe(true);
    expect(sim.stats.clipsRecorded).toBeGreaterThanOrEqual(sim.stats.clipsUploaded);
    expect(sim.stats.errors).toBe(0);
  }, 120_000);
});
