import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/utils';
import { DEVICE_UPLOAD_PATH, MenuId, UPLOAD_EXPIRY_H, UPLOAD_PATH } from '@bwc/protocol';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../../test/helpers';
import { until } from '../../../../test/wait';
import { verifyChain } from '../custody';
import { LocalContentStore } from '../store';
import { directWritesWork, SlabPool } from './direct-write';
import { FFMPEG, probe } from './media-tools';
import { EvidenceUploadStore } from './upload-store';

const work = mkdtempSync(join(tmpdir(), 'bwc-ingest-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A real media file made by ffmpeg (lavfi test sources). */
function make(name: string, args: string[]): string {
  const out = join(work, name);
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return out;
}
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

export interface Sent {
  url: string | null;
  itemId: number | null;
}

/** Upload a Buffer with tus-js-client; resolves the upload URL and the Evidence-Item header. */
export function send(
  endpoint: string,
  data: Buffer,
  metadata: Record<string, string>,
  headers: Record<string, string>,
  options: Partial<tus.UploadOptions> = {},
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let itemId: number | null = null;
    const upload = new tus.Upload(data, {
      endpoint,
      metadata,
      headers,
      chunkSize: 64 * 1024,
      retryDelays: [0, 200, 500],
      storeFingerprintForResuming: false,
      onAfterResponse: (_req, res) => {
        const item = res.getHeader('Evidence-Item');
        if (item) itemId = Number(item);
      },
      onError: reject,
      onSuccess: () => resolve({ url: upload.url, itemId }),
      ...options,
    });
    upload.start();
  });
}

/** The tus error's HTTP status and response text. */
function failure(err: unknown): { status: number; text: string; item: string | undefined } {
  const e = err as tus.DetailedError;
  return {
    status: e.originalResponse?.getStatus() ?? 0,
    text: e.originalResponse?.getBody() ?? '',
    item: e.originalResponse?.getHeader('Evidence-Item'),
  };
}

let t: TestApp;
let base: string;
let admin: Session;
let cam: CreatedDevice;
let camAuth: Record<string, string>;
let mp4: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  cam = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'));
  camAuth = await deviceLogin(t.app, cam);
  mp4 = make('clip.mp4', [
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=2:size=320x240:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=duration=2',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-metadata',
    'creation_time=2024-05-01T08:00:00Z',
  ]);
}, 60_000);
afterAll(async () => t?.close());

/** A camera upload of `data` (named `<fileid>.mp4`) stopped once `share` of it was sent; answers its address. */
function sendPart(data: Buffer, fileid: string, share: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const upload: tus.Upload = new tus.Upload(data, {
      endpoint: `${base}${DEVICE_UPLOAD_PATH}`,
      metadata: { filename: `${fileid}.mp4`, fileid },
      headers: camAuth,
      chunkSize: 16 * 1024,
      storeFingerprintForResuming: false,
      onError: reject,
      onChunkComplete: (_chunk, sent) => {
        if (sent >= data.length * share) void upload.abort().then(() => resolve(upload.url!), reject);
      },
    });
    upload.start();
  });
}
describe('evidence ingest (tus)', () => {
  it('a camera uploads an mp4: item with its hash, metadata, thumbnail and custody entry', async () => {
    const sent = await send(
      `${base}${DEVICE_UPLOAD_PATH}`,
      readFileSync(mp4),
      { filename: 'clip.mp4', fileid: 'f-1' },
      camAuth,
    );
    expect(sent.itemId).toBeGreaterThan(0);
    const item = await t.db
      .selectFrom('evidence_items')
      .selectAll()
      .where('id', '=', sent.itemId!)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({
      sha256: sha256(mp4),
      size: readFileSync(mp4).length,
      media_type: 1,
      ext: 'mp4',
      title: 'clip',
      source: 'device',
      device_id: cam.id,
      hostbody: cam.hostbody,
      width: 320,
      height: 240,
      video_codec: 'h264',
      audio_codec: 'aac',
      playable: 'ready',
      recorded_at: '2024-05-01T08:00:00.000Z',
      origin_key: `${cam.id}:f-1`,
    });
    expect(item.duration).toBeGreaterThan(1.9);
    expect(item.thumb_sha256).toMatch(/^[0-9a-f]{64}$/);
    const chain = await verifyChain(t.db, item.id);
    expect(chain.ok).toBe(true);
    expect(chain.entries.map((e) => e.action)).toEqual(['uploaded']);
    expect(JSON.parse(chain.entries[0]!.detail)).toMatchObject({ sha256: item.sha256, size: item.size });
    const upload = await t.db
      .selectFrom('evidence_uploads')
      .selectAll()
      .where('item_id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(upload.state).toBe('done');
  }, 60_000);

  it('refuses at creation: bad metadata, unknown extension, a size over the class limit', async () => {
    const create = (metadata: string, length: number) =>
      fetch(`${base}${DEVICE_UPLOAD_PATH}`, {
        method: 'POST',
        headers: {
          ...camAuth,
          'tus-resumable': '1.0.0',
          'upload-length': String(length),
          'upload-metadata': metadata,
          'x-lang': 'en-US',
        },
      });
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const noName = await create(`fileid ${b64('x')}`, 10);
    expect(noName.status).toBe(400);
    expect(await noName.text()).toMatch(/filename/i);
    const exe = await create(`filename ${b64('tool.exe')}`, 10);
    expect(exe.status).toBe(415);
    expect(await exe.text()).toContain('.exe');
    const big = await create(`filename ${b64('photo.jpg')}`, 50 * 1024 * 1024 + 1);
    expect(big.status).toBe(413);
    expect(await big.text()).toContain('50 MB');
    const zh = await fetch(`${base}${DEVICE_UPLOAD_PATH}`, {
      method: 'POST',
      headers: {
        ...camAuth,
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': `filename ${b64('a.exe')}`,
      },
    });
    expect(zh.status).toBe(415);
    expect(await zh.text()).toContain('不接受');
    expect(
      await t.db.selectFrom('evidence_uploads').select('id').where('metadata', 'like', '%tool.exe%').execute(),
    ).toEqual([]);
  });

  it('a file whose content is not of its extension is refused when finished and removed', async () => {
    const png = make('picture.png', ['-f', 'lavfi', '-i', 'testsrc=size=64x64', '-frames:v', '1']);
    const err = await send(
      `${base}${DEVICE_UPLOAD_PATH}`,
      readFileSync(png),
      { filename: 'fake.mp4', fileid: 'fake' },
      camAuth,
    ).catch((e: unknown) => e);
    expect(failure(err).status).toBe(415);
    const row = await t.db
      .selectFrom('evidence_uploads')
      .selectAll()
      .where('origin_key', '=', `${cam.id}:fake`)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('failed');
    expect(existsSync(t.app.evidenceIngest.store.path(row.id))).toBe(false);
    expect(
      await t.db.selectFrom('evidence_items').select('id').where('origin_key', '=', `${cam.id}:fake`).execute(),
    ).toEqual([]);
    // the same picture under its own name is an image item
    const ok = await send(`${base}${DEVICE_UPLOAD_PATH}`, readFileSync(png), { filename: 'picture.png' }, camAuth);
    const item = await t.db
      .selectFrom('evidence_items')
      .selectAll()
      .where('id', '=', ok.itemId!)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({ media_type: 3, width: 64, height: 64, playable: 'none', duration: null });
    expect(item.thumb_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the same device file twice: the second is refused with 409 naming the item, nothing is stored twice', async () => {
    const data = readFileSync(mp4);
    const first = await send(`${base}${DEVICE_UPLOAD_PATH}`, data, { filename: 'twice.mp4', fileid: 'twice' }, camAuth);
    const err = await send(
      `${base}${DEVICE_UPLOAD_PATH}`,
      data,
      { filename: 'twice.mp4', fileid: 'twice' },
      camAuth,
    ).catch((e: unknown) => e);
    expect(failure(err)).toMatchObject({ status: 409, item: String(first.itemId) });
    const items = await t.db
      .selectFrom('evidence_items')
      .select('id')
      .where('origin_key', '=', `${cam.id}:twice`)
      .execute();
    expect(items).toHaveLength(1);
    const uploads = await t.db
      .selectFrom('evidence_uploads')
      .select('id')
      .where('origin_key', '=', `${cam.id}:twice`)
      .execute();
    expect(uploads).toHaveLength(1);
  });

  it('an interrupted upload resumes from its offset with another client and the hash matches', async () => {
    const data = readFileSync(mp4);
    const { store } = t.app.evidenceIngest;
    const rehashes = store.rehashes;
    const url = await sendPart(data, 'resumed', 1 / 3);
    const head = await fetch(new URL(url, base), { method: 'HEAD', headers: { ...camAuth, 'tus-resumable': '1.0.0' } });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(data.length);
    // a new client (e.g. after the camera restarted) resumes at the offset
    const firstPatch: string[] = [];
    const resumed = await send(
      `${base}${DEVICE_UPLOAD_PATH}`,
      data,
      { filename: 'resumed.mp4', fileid: 'resumed' },
      camAuth,
      {
        uploadUrl: url,
        onBeforeRequest: (req) => {
          if (req.getMethod() === 'PATCH') firstPatch.push(req.getHeader('Upload-Offset') ?? '');
        },
      },
    );
    expect(Number(firstPatch[0])).toBe(offset);
    const item = await t.db
      .selectFrom('evidence_items')
      .select('sha256')
      .where('id', '=', resumed.itemId!)
      .executeTakeFirstOrThrow();
    expect(item.sha256).toBe(sha256(mp4));
    // the server kept the streamed hash state across the break (nothing read again)
    expect(store.rehashes).toBe(rehashes);
  });

  it('a new creation of a file whose upload is open resumes that upload', async () => {
    const data = readFileSync(mp4);
    const partial = await sendPart(data, 'again', 1 / 2);
    const done = await send(`${base}${DEVICE_UPLOAD_PATH}`, data, { filename: 'again.mp4', fileid: 'again' }, camAuth);
    expect(done.url).toBe(partial);
    const uploads = await t.db
      .selectFrom('evidence_uploads')
      .select('state')
      .where('origin_key', '=', `${cam.id}:again`)
      .execute();
    expect(uploads).toEqual([{ state: 'done' }]);
  });

  it('another device cannot see or continue an upload; a console upload belongs to the user and his unit', async () => {
    const luohu = await unitIdOf(t.db, '440303000000');
    const other = await addDevice(t.app, admin, luohu);
    const otherAuth = await deviceLogin(t.app, other);
    const data = readFileSync(mp4);
    const url = await new Promise<string>((resolve, reject) => {
      const upload: tus.Upload = new tus.Upload(data, {
        endpoint: `${base}${DEVICE_UPLOAD_PATH}`,
        metadata: { filename: 'mine.mp4' },
        headers: camAuth,
        chunkSize: 16 * 1024,
        storeFingerprintForResuming: false,
        onError: reject,
        onChunkComplete: () => void upload.abort().then(() => resolve(upload.url!), reject),
      });
      upload.start();
    });
    const head = await fetch(new URL(url, base), {
      method: 'HEAD',
      headers: { ...otherAuth, 'tus-resumable': '1.0.0' },
    });
    expect(head.status).toBe(404);
    const patch = await fetch(new URL(url, base), {
      method: 'PATCH',
      headers: {
        ...otherAuth,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(10),
    });
    expect(patch.status).toBe(404);
    const none = await fetch(new URL(url, base), { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    expect(none.status).toBe(401);
    // termination by its owner
    const del = await fetch(new URL(url, base), {
      method: 'DELETE',
      headers: { ...camAuth, 'tus-resumable': '1.0.0' },
    });
    expect(del.status).toBe(204);

    const roleId = await createRole(t.db, 'uploader', [{ ids: [MenuId.LAW_MEDIA], actions: ['view', 'add'] }]);
    const u = await createUser(t.db, { roleId, unitBh: '440303000000' });
    const s = await login(t.app, u.username, u.password);
    const sent = await send(
      `${base}${UPLOAD_PATH}`,
      data,
      { filename: 'desk.mp4', title: 'From the desk' },
      { cookie: `bwc_sid=${s.cookie}` },
    );
    const item = await t.db
      .selectFrom('evidence_items')
      .selectAll()
      .where('id', '=', sent.itemId!)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({
      source: 'console',
      user_id: u.id,
      uploaded_by: u.id,
      unit_id: luohu,
      title: 'From the desk',
      outside: 0,
    });
    // outside imports need add on outside media
    const err = await send(
      `${base}${UPLOAD_PATH}`,
      data,
      { filename: 'o.mp4', outside: '1' },
      { cookie: `bwc_sid=${s.cookie}` },
    ).catch((e: unknown) => e);
    expect(failure(err).status).toBe(403);
  });

  it('an unfinished upload expires UPLOAD_EXPIRY_H after its last byte', async () => {
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const tusHeaders = { ...camAuth, 'tus-resumable': '1.0.0' };
    const created = await fetch(`${base}${DEVICE_UPLOAD_PATH}`, {
      method: 'POST',
      headers: { ...tusHeaders, 'upload-length': '1000', 'upload-metadata': `filename ${b64('late.mp4')}` },
    });
    expect(created.status).toBe(201);
    expect(Date.parse(created.headers.get('upload-expires')!)).toBeGreaterThan(
      Date.now() + (UPLOAD_EXPIRY_H - 1) * 3_600_000,
    );
    const url = new URL(created.headers.get('location')!, base);
    const id = url.pathname.split('/').pop()!;
    const { store } = t.app.evidenceIngest;
    expect(await store.deleteExpired()).toBe(0);
    const old = new Date(Date.now() - (UPLOAD_EXPIRY_H * 3_600_000 + 60_000)).toISOString();
    await t.db.updateTable('evidence_uploads').set({ updated: old }).where('id', '=', id).execute();
    // past its expiry and not yet swept: tus answers 410 Gone
    const late = await fetch(url, {
      method: 'PATCH',
      headers: { ...tusHeaders, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(10),
    });
    expect(late.status).toBe(410);
    expect(await store.deleteExpired()).toBe(1);
    expect(existsSync(store.path(id))).toBe(false);
    const row = await t.db
      .selectFrom('evidence_uploads')
      .select(['state', 'error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'failed', error: 'expired' });
    expect((await fetch(url, { method: 'HEAD', headers: tusHeaders })).status).toBe(404);
  });

  it('an upload whose bytes all arrived before a crash is stored at the next HEAD', async () => {
    const data = readFileSync(mp4);
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const tusHeaders = { ...camAuth, 'tus-resumable': '1.0.0' };
    const created = await fetch(`${base}${DEVICE_UPLOAD_PATH}`, {
      method: 'POST',
      headers: {
        ...tusHeaders,
        'upload-length': String(data.length),
        'upload-metadata': `filename ${b64('complete.mp4')}`,
      },
    });
    const url = new URL(created.headers.get('location')!, base);
    // the state a server killed between the last byte and the item leaves behind
    writeFileSync(t.app.evidenceIngest.store.path(url.pathname.split('/').pop()!), data);
    const head = await fetch(url, { method: 'HEAD', headers: tusHeaders });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(data.length));
    const itemId = Number(head.headers.get('evidence-item'));
    const item = await t.db
      .selectFrom('evidence_items')
      .select(['sha256', 'title'])
      .where('id', '=', itemId)
      .executeTakeFirstOrThrow();
    expect(item).toEqual({ sha256: sha256(mp4), title: 'complete' });
  });

  it('an avi (MPEG-4 part 2) gets an H.264/AAC derivative in the background', async () => {
    const avi = make('old.avi', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=2:size=320x240:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=duration=2',
      '-c:v',
      'mpeg4',
      '-c:a',
      'libmp3lame',
      '-shortest',
    ]);
    const sent = await send(`${base}${DEVICE_UPLOAD_PATH}`, readFileSync(avi), { filename: 'old.avi' }, camAuth);
    const row = () =>
      t.db.selectFrom('evidence_items').selectAll().where('id', '=', sent.itemId!).executeTakeFirstOrThrow();
    expect((await row()).video_codec).toBe('mpeg4');
    await until('derivative ready', async () => (await row()).playable !== 'pending', 60_000);
    const item = await row();
    expect(item.playable).toBe('ready');
    expect(item.derivative_sha256).toMatch(/^[0-9a-f]{64}$/);
    const info = await probe(new LocalContentStore(t.config.dataDir).localPath(item.derivative_sha256!));
    expect(info).toMatchObject({ video_codec: 'h264', audio_codec: 'aac', width: 320, height: 240 });
  }, 90_000);

  it('a console user without add on the media menus is refused', async () => {
    const roleId = await createRole(t.db, 'viewer', [{ ids: [MenuId.LAW_MEDIA], actions: ['view'] }]);
    const u = await createUser(t.db, { roleId, unitBh: '440304000000' });
    const s = await login(t.app, u.username, u.password);
    const err = await send(`${base}${UPLOAD_PATH}`, readFileSync(mp4), { filename: 'x.mp4' }, s.headers).catch(
      (e: unknown) => e,
    );
    expect(failure(err).status).toBe(403);
  });
});

describe('evidence ingest: PATCH served from the Node request', () => {
  const tusHeaders = (extra: Record<string, string> = {}) => ({ ...camAuth, 'tus-resumable': '1.0.0', ...extra });
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  /** A new camera upload of `length` bytes named `<fileid>.mp4`; answers its absolute address. */
  async function create(fileid: string, length: number): Promise<string> {
    const res = await fetch(`${base}${DEVICE_UPLOAD_PATH}`, {
      method: 'POST',
      headers: tusHeaders({
        'upload-length': String(length),
        'upload-metadata': `filename ${b64(`${fileid}.mp4`)},fileid ${b64(fileid)}`,
      }),
    });
    expect(res.status).toBe(201);
    return new URL(res.headers.get('location')!, base).href;
  }
  /** Bytes on disk of an upload, read without a request (a HEAD would stop a running PATCH). */
  const onDisk = (url: string) => statSync(t.app.evidenceIngest.store.path(url.split('/').pop()!)).size;
  const offsetOf = async (url: string) =>
    Number((await fetch(url, { method: 'HEAD', headers: tusHeaders() })).headers.get('upload-offset'));

  /** A PATCH whose body is written by the caller through the returned request (node:http, chunked). */
  function openPatch(url: string, offset: number) {
    const req = request(url, {
      method: 'PATCH',
      headers: tusHeaders({ 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }),
    });
    const answered = new Promise<{ status: number; headers: Record<string, unknown> } | Error>((resolve) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
      });
      req.on('error', (err) => resolve(err));
    });
    return { req, answered };
  }

  it('refuses bad PATCH headers and bodies with a named reason, the upload unchanged', async () => {
    const data = readFileSync(mp4);
    const url = await create('patch-refusals', data.length);
    const patch = (headers: Record<string, string>, body: Buffer) =>
      fetch(url, { method: 'PATCH', headers: { ...camAuth, 'accept-language': 'en-US', ...headers }, body });
    const octet = { 'content-type': 'application/offset+octet-stream' };
    let res = await patch({ 'tus-resumable': '0.2.2', 'upload-offset': '0', ...octet }, data.subarray(0, 10));
    expect([res.status, res.headers.get('tus-version'), await res.text()]).toEqual([
      412,
      '1.0.0',
      'Only tus 1.0.0 is supported (header Tus-Resumable: 1.0.0)\n',
    ]);
    res = await patch(
      { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'text/plain' },
      data.subarray(0, 10),
    );
    expect(res.status).toBe(415);
    res = await patch({ 'tus-resumable': '1.0.0', 'upload-offset': '-5', ...octet }, data.subarray(0, 10));
    expect([res.status, await res.text()]).toEqual([400, 'Upload-Offset must be a non-negative integer\n']);
    res = await patch({ 'tus-resumable': '1.0.0', 'upload-offset': '7', ...octet }, data.subarray(7, 17));
    expect([res.status, await res.text()]).toEqual([
      409,
      'Upload-Offset is 7 but the server has 0 bytes: continue from 0\n',
    ]);
    // more than the file: refused by its Content-Length before a byte is written
    res = await patch({ 'tus-resumable': '1.0.0', 'upload-offset': '0', ...octet }, Buffer.concat([data, data]));
    expect([res.status, await res.text()]).toEqual([
      413,
      `The data sent is more than the ${data.length} bytes left of the file\n`,
    ]);
    expect(await offsetOf(url)).toBe(0);
    // the same upload then goes through
    res = await patch({ 'tus-resumable': '1.0.0', 'upload-offset': '0', ...octet }, data);
    expect(res.status).toBe(204);
    const item = await t.db
      .selectFrom('evidence_items')
      .select('sha256')
      .where('id', '=', Number(res.headers.get('evidence-item')))
      .executeTakeFirstOrThrow();
    expect(item.sha256).toBe(sha256(mp4));
  });

  it('a chunked body longer than the file is cut at its length and refused with 413', async () => {
    const data = readFileSync(mp4);
    const url = await create('patch-chunked-over', data.length);
    const { req, answered } = openPatch(url, 0);
    req.write(data);
    req.end(data.subarray(0, 4096));
    const res = await answered;
    expect(res).toMatchObject({ status: 413 });
    expect(await offsetOf(url)).toBeLessThanOrEqual(data.length);
  });

  it('a client that drops mid-body keeps the bytes that arrived and its hash state; the resume completes', async () => {
    const data = readFileSync(mp4);
    const { store } = t.app.evidenceIngest;
    const rehashes = store.rehashes;
    const url = await create('patch-dropped', data.length);
    const { req, answered } = openPatch(url, 0);
    const half = Math.floor(data.length / 2);
    req.write(data.subarray(0, half));
    await until('the first half written', () => onDisk(url) === half);
    req.destroy();
    expect(await answered).toBeInstanceOf(Error);
    const offset = await offsetOf(url);
    expect(offset).toBe(half);
    const res = await fetch(url, {
      method: 'PATCH',
      headers: tusHeaders({ 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }),
      body: data.subarray(offset),
    });
    expect(res.status).toBe(204);
    const item = await t.db
      .selectFrom('evidence_items')
      .select('sha256')
      .where('id', '=', Number(res.headers.get('evidence-item')))
      .executeTakeFirstOrThrow();
    expect(item.sha256).toBe(sha256(mp4));
    expect(store.rehashes).toBe(rehashes);
  });

  it('a new request for an upload stops the PATCH still running on it, then answers its offset', async () => {
    const data = readFileSync(mp4);
    const url = await create('patch-takeover', data.length);
    const first = openPatch(url, 0);
    const third = Math.floor(data.length / 3);
    first.req.write(data.subarray(0, third));
    // the HEAD of a client that lost the first connection: the stale PATCH is stopped first
    await until('the first third written', () => onDisk(url) === third);
    expect(await offsetOf(url)).toBe(third);
    expect(await first.answered).toBeInstanceOf(Error);
    const second = openPatch(url, third);
    second.req.end(data.subarray(third));
    expect(await second.answered).toMatchObject({ status: 204 });
    const rows = await t.db
      .selectFrom('evidence_items')
      .select('sha256')
      .where('origin_key', '=', `${cam.id}:patch-takeover`)
      .execute();
    expect(rows).toEqual([{ sha256: sha256(mp4) }]);
  });
  it('the store writes a body the same with O_DIRECT and through the page cache (tmpfs, or every slab taken)', async () => {
    const data = readFileSync(mp4);
    const half = Math.floor(data.length / 2) + 1; // the second body starts inside a disk block
    for (const directIo of [true, false]) {
      const dir = join(work, `store-${directIo}`);
      const store = new EvidenceUploadStore(t.db, dir, 3_600_000, t.app.log, directIo);
      const id = randomBytes(16).toString('hex');
      store.pending.set(id, { owner_kind: 'device', owner_id: cam.id, origin_key: null, metadata: '{}' });
      await store.create(new Upload({ id, size: data.length, offset: 0 }));
      const chunks = [data.subarray(0, 1000), data.subarray(1000, half)];
      expect(await store.write(Readable.from(chunks), id, 0, data.length)).toBe(half);
      expect(await store.write(Readable.from([data.subarray(half)]), id, half, data.length - half)).toBe(data.length);
      expect(await store.digest(id, data.length)).toBe(sha256(mp4));
      expect(readFileSync(store.path(id)).equals(data)).toBe(true);
      expect(store.rehashes).toBe(0);
      // O_DIRECT is used wherever the folder takes it, never when turned off
      const direct = directIo && (await directWritesWork(dir, new SlabPool(65536, 1)));
      expect(store.bodies).toEqual(direct ? { direct: 2, cached: 0 } : { direct: 0, cached: 2 });
      await store.close();
    }
  });
});
