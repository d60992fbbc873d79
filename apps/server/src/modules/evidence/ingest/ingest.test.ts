import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVICE_UPLOAD_PATH, MenuId, UPLOAD_PATH } from '@bwc/protocol';
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

const require = createRequire(import.meta.url);
const FFMPEG = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;

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
    const { store } = t.app.evidenceIngest;
    void store;
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

void until;
