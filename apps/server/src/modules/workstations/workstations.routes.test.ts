import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEVICE_UPLOAD_PATH,
  MenuId,
  ResultCode,
  WORKSTATION_OFFLINE_AFTER_S,
  WORKSTATION_UPLOAD_PATH,
  type Envelope,
  type Page,
  type Workstation,
  type WorkstationWithSecret,
} from '@bwc/protocol';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../db/connection';
import { api } from '../../../test/api';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../test/devices';
import {
  auditRows,
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../test/helpers';
import { FFMPEG } from '../evidence/ingest/media-tools';

const work = mkdtempSync(join(tmpdir(), 'bwc-ws-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let t: TestApp;
let base: string;
let admin: Session;
let futian: number;
let nanshan: number;
let clip: Buffer;

beforeAll(async () => {
  t = await createTestApp({ deviceProvisionKey: 'test-provision-key' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
  nanshan = await unitIdOf(t.db, '440305000000');
  const out = join(work, 'clip.mp4');
  execFileSync(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=1:size=160x120:rate=10',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    out,
  ]);
  clip = readFileSync(out);
});
afterAll(async () => t?.close());

let serial = 0;
async function addStation(unitId: number, session = admin): Promise<WorkstationWithSecret> {
  serial += 1;
  const env = await api<WorkstationWithSecret>(t.app, 'workstationAdd', session, {
    name: `站 ${serial}`,
    code: `WS${process.pid}x${serial}`,
    unit_id: unitId,
    ip: '10.0.0.5',
  });
  if (env.code !== 200) throw new Error(`workstationAdd: ${env.code} ${env.msg}`);
  return env.data;
}

async function stationLogin(code: string, secret: string): Promise<Envelope<{ token: string; heartbeat_s: number }>> {
  return (await t.app.inject({ method: 'POST', url: '/rest/workstation/api/login', payload: { code, secret } })).json();
}

async function heartbeat(token: string, docked: string[], disk_free?: number) {
  return (
    await t.app.inject({
      method: 'POST',
      url: '/rest/workstation/api/heartbeat',
      headers: { authorization: `Bearer ${token}` },
      payload: { docked, disk_free },
    })
  ).json() as Envelope<{ heartbeat_s: number; refused: string[] }>;
}

async function listed(id: number, session = admin): Promise<Workstation | undefined> {
  const env = await api<Page<Workstation>>(t.app, 'workstationList', session, { limit: 100 });
  return env.data.list.find((w) => w.id === id);
}

/** Upload with tus-js-client; resolves the Evidence-Item header of the last answer. */
function send(
  endpoint: string,
  data: Buffer,
  metadata: Record<string, string>,
  headers: Record<string, string>,
  options: Partial<tus.UploadOptions> = {},
): Promise<{ itemId: number | null }> {
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
      onSuccess: () => resolve({ itemId }),
      ...options,
    });
    upload.start();
  });
}

const accepted = (): never => {
  throw new Error('the upload was accepted');
};

function failure(err: unknown): { status: number; text: string; item: string | undefined } {
  const e = err as tus.DetailedError;
  return {
    status: e.originalResponse?.getStatus() ?? 0,
    text: e.originalResponse?.getBody() ?? '',
    item: e.originalResponse?.getHeader('Evidence-Item'),
  };
}

describe('workstation registry', () => {
  it('adds, edits, resets the secret and deletes within the unit scope, audited', async () => {
    const role = await createRole(t.db, 'ws-ops', [{ ids: [MenuId.WORKSTATIONS], actions: ['view', 'add', 'edit'] }]);
    const u = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
    const ops = await login(t.app, u.username, u.password);
    const mine = await addStation(futian, ops);
    expect(mine.secret.length).toBeGreaterThan(20);
    expect(mine.workstation).toMatchObject({ unit_id: futian, lineon: 0, docked: [], ip: '10.0.0.5' });
    // another unit: refused on add, invisible in the list, not found by id
    expect((await api(t.app, 'workstationAdd', ops, { name: 'x', code: 'WSOTHER1', unit_id: nanshan })).code).toBe(
      ResultCode.FORBIDDEN,
    );
    const theirs = await addStation(nanshan);
    expect(await listed(theirs.workstation.id, ops)).toBeUndefined();
    expect(await listed(mine.workstation.id, ops)).toBeDefined();
    // keyword: part of name, code or ip; % and _ are plain characters
    const byKeyword = async (keyword: string) =>
      (await api<Page<Workstation>>(t.app, 'workstationList', admin, { keyword, limit: 100 })).data.list.map(
        (w) => w.id,
      );
    expect(await byKeyword(mine.workstation.code.slice(2))).toEqual([mine.workstation.id]);
    expect(await byKeyword('10.0.0.5')).toEqual(expect.arrayContaining([mine.workstation.id, theirs.workstation.id]));
    expect(await byKeyword('%')).toEqual([]);
    expect(await byKeyword('WS_')).toEqual([]);
    expect(await api(t.app, 'workstationDelete', ops, { id: theirs.workstation.id }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'No such docking workstation',
    });
    // a taken code, a bad code
    expect(
      await api(t.app, 'workstationAdd', ops, { name: 'dup', code: mine.workstation.code, unit_id: futian }, 'en-US'),
    ).toMatchObject({ code: 409, msg: `The workstation code ${mine.workstation.code} already exists` });
    expect((await api(t.app, 'workstationAdd', ops, { name: 'bad', code: 'a b', unit_id: futian })).code).toBe(400);
    // edit
    const edited = await api<Workstation>(t.app, 'workstationUpdate', ops, {
      id: mine.workstation.id,
      name: '华富站',
      code: mine.workstation.code,
      unit_id: futian,
      remark: 'r',
    });
    expect(edited).toMatchObject({ code: 200, data: { name: '华富站', remark: 'r', ip: '' } });
    // reset: the old secret no longer logs in
    const reset = await api<WorkstationWithSecret>(t.app, 'workstationResetSecret', ops, { id: mine.workstation.id });
    expect(reset.code).toBe(200);
    expect((await stationLogin(mine.workstation.code, mine.secret)).code).toBe(ResultCode.UNAUTHENTICATED);
    expect((await stationLogin(mine.workstation.code, reset.data.secret)).code).toBe(200);
    expect((await auditRows(t.db, '/rest/oam/workstation/reset_secret'))[0]).toMatchObject({
      result_code: 200,
      target: String(mine.workstation.id),
    });
    // a role without the menu
    const viewer = await createUser(t.db, { unitBh: '440304000000' });
    const v = await login(t.app, viewer.username, viewer.password);
    expect((await api(t.app, 'workstationList', v)).code).toBe(ResultCode.FORBIDDEN);
    expect((await api(t.app, 'workstationDelete', ops, { id: mine.workstation.id })).code).toBe(200);
    expect(await listed(mine.workstation.id)).toBeUndefined();
  });

  it('refuses a workstation beyond the licence', async () => {
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('workstations')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // the demo licence allows 10
    const ts = now();
    for (let i = (await count()) + 1; i <= 10; i++)
      await t.db
        .insertInto('workstations')
        .values({
          name: `fill ${i}`,
          code: `FILL${i}`,
          unit_id: futian,
          ip: '',
          remark: '',
          secret_hash: '0'.repeat(64),
          token_hash: null,
          last_seen: null,
          last_ip: '',
          disk_free: null,
          docked: '[]',
          created: ts,
          updated: ts,
        })
        .execute();
    expect(
      await api(t.app, 'workstationAdd', admin, { name: 'one more', code: 'WSMORE', unit_id: futian }, 'en-US'),
    ).toMatchObject({ code: 409, msg: 'The number of docking workstations has reached the licensed limit (10)' });
    expect(await count()).toBe(10);
    await t.db.deleteFrom('workstations').where('code', 'like', 'FILL%').execute();
  });
});

describe('workstation API', () => {
  let station: WorkstationWithSecret;
  let token: string;
  let cam: CreatedDevice;
  let camAuth: Record<string, string>;
  let stranger: CreatedDevice;
  let idle: CreatedDevice;
  let auth: Record<string, string>;

  beforeAll(async () => {
    station = await addStation(futian);
    cam = await addDevice(t.app, admin, futian);
    camAuth = await deviceLogin(t.app, cam);
    stranger = await addDevice(t.app, admin, nanshan);
    idle = await addDevice(t.app, admin, futian);
    const env = await stationLogin(station.workstation.code, station.secret);
    expect(env.code).toBe(200);
    token = env.data.token;
    auth = { authorization: `Bearer ${token}` };
  });

  it('login refuses a wrong secret; a heartbeat makes the station online with its docked cameras', async () => {
    expect((await stationLogin(station.workstation.code, 'wrong')).code).toBe(ResultCode.UNAUTHENTICATED);
    expect((await heartbeat('nope', [])).code).toBe(ResultCode.UNAUTHENTICATED);
    const hb = await heartbeat(token, [cam.hostbody, stranger.hostbody, 'NOSUCH'], 5_000_000_000);
    expect(hb).toMatchObject({ code: 200, data: { heartbeat_s: 30 } });
    expect(hb.data.refused.sort()).toEqual([stranger.hostbody, 'NOSUCH'].sort());
    const row = await listed(station.workstation.id);
    expect(row).toMatchObject({ lineon: 1, disk_free: 5_000_000_000, last_ip: '127.0.0.1' });
    expect(row!.docked).toContainEqual({
      hostbody: cam.hostbody,
      device_id: cam.id,
      hostname: `officer ${cam.hostbody}`,
    });
    expect(row!.docked).toContainEqual({ hostbody: 'NOSUCH', device_id: null, hostname: '' });
    const online = await api<Page<Workstation>>(t.app, 'workstationList', admin, { lineon: 1 });
    expect(online.data.list.map((w) => w.id)).toContain(station.workstation.id);
  });

  it('is offline, holding no camera, after missing heartbeats', async () => {
    await heartbeat(token, [cam.hostbody]);
    const service = t.app.workstations;
    try {
      service.clock = () => Date.now() + (WORKSTATION_OFFLINE_AFTER_S - 5) * 1000;
      expect(await listed(station.workstation.id)).toMatchObject({ lineon: 1 });
      service.clock = () => Date.now() + (WORKSTATION_OFFLINE_AFTER_S + 1) * 1000;
      expect(await listed(station.workstation.id)).toMatchObject({ lineon: 0, docked: [] });
      const offline = await api<Page<Workstation>>(t.app, 'workstationList', admin, { lineon: 0 });
      expect(offline.data.list.map((w) => w.id)).toContain(station.workstation.id);
    } finally {
      service.clock = () => Date.now();
    }
    expect(await listed(station.workstation.id)).toMatchObject({ lineon: 1 });
  });

  it("uploads a docked camera's file as the camera's item, source workstation", async () => {
    await heartbeat(token, [cam.hostbody, stranger.hostbody]);
    const sent = await send(
      `${base}${WORKSTATION_UPLOAD_PATH}`,
      clip,
      { filename: 'a.mp4', fileid: 'F-1', hostbody: cam.hostbody },
      auth,
    );
    expect(sent.itemId).toBeGreaterThan(0);
    const item = await t.db
      .selectFrom('evidence_items')
      .selectAll()
      .where('id', '=', sent.itemId!)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({
      source: 'workstation',
      device_id: cam.id,
      hostbody: cam.hostbody,
      workstation_id: station.workstation.id,
      unit_id: futian,
      origin_key: `${cam.id}:F-1`,
    });
    const custody = await t.db
      .selectFrom('evidence_custody')
      .selectAll()
      .where('media_id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(custody.actor).toBe(`workstation ${station.workstation.code} (${cam.hostbody})`);
    // the camera sends the same file itself: already stored, nothing twice
    const again = await send(`${base}${DEVICE_UPLOAD_PATH}`, clip, { filename: 'a.mp4', fileid: 'F-1' }, camAuth, {
      onShouldRetry: () => false,
    }).then(accepted, failure);
    expect(again).toMatchObject({ status: 409, item: String(item.id) });
    expect(
      Number(
        (
          await t.db
            .selectFrom('evidence_items')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('origin_key', '=', `${cam.id}:F-1`)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(1);
  });

  it('stores once a file the camera sent first', async () => {
    await heartbeat(token, [cam.hostbody]);
    const first = await send(`${base}${DEVICE_UPLOAD_PATH}`, clip, { filename: 'b.mp4', fileid: 'F-2' }, camAuth);
    const dup = await send(
      `${base}${WORKSTATION_UPLOAD_PATH}`,
      clip,
      { filename: 'b.mp4', fileid: 'F-2', hostbody: cam.hostbody },
      auth,
      { onShouldRetry: () => false },
    ).then(accepted, failure);
    expect(dup).toMatchObject({ status: 409, item: String(first.itemId) });
  });

  it('refuses a camera of another unit, one not docked, no hostbody, and a bad token', async () => {
    await heartbeat(token, [cam.hostbody, stranger.hostbody]);
    const opts = { onShouldRetry: () => false };
    const lang = { ...auth, 'x-lang': 'en-US' };
    const other = await send(
      `${base}${WORKSTATION_UPLOAD_PATH}`,
      clip,
      { filename: 'c.mp4', fileid: 'F-3', hostbody: stranger.hostbody },
      lang,
      opts,
    ).then(accepted, failure);
    expect(other).toMatchObject({ status: 403 });
    expect(other.text).toContain(`The device ${stranger.hostbody} is not a camera of this workstation's unit`);
    const notDocked = await send(
      `${base}${WORKSTATION_UPLOAD_PATH}`,
      clip,
      { filename: 'c.mp4', fileid: 'F-4', hostbody: idle.hostbody },
      lang,
      opts,
    ).then(accepted, failure);
    expect(notDocked).toMatchObject({ status: 403 });
    expect(notDocked.text).toContain(`The device ${idle.hostbody} is not docked in this workstation now`);
    const none = await send(`${base}${WORKSTATION_UPLOAD_PATH}`, clip, { filename: 'c.mp4' }, lang, opts).catch(
      failure,
    );
    expect(none).toMatchObject({ status: 400 });
    const bad = await send(
      `${base}${WORKSTATION_UPLOAD_PATH}`,
      clip,
      { filename: 'c.mp4', hostbody: cam.hostbody },
      { authorization: 'Bearer nope' },
      opts,
    ).then(accepted, failure);
    expect(bad.status).toBe(401);
    // an offline station holds no camera
    const service = t.app.workstations;
    try {
      service.clock = () => Date.now() + (WORKSTATION_OFFLINE_AFTER_S + 1) * 1000;
      const stale = await send(
        `${base}${WORKSTATION_UPLOAD_PATH}`,
        clip,
        { filename: 'c.mp4', fileid: 'F-5', hostbody: cam.hostbody },
        lang,
        opts,
      ).then(accepted, failure);
      expect(stale).toMatchObject({ status: 403 });
    } finally {
      service.clock = () => Date.now();
    }
    const stored = await t.db
      .selectFrom('evidence_items')
      .select('id')
      .where('origin_key', 'in', [`${stranger.id}:F-3`, `${idle.id}:F-4`, `${cam.id}:F-5`])
      .execute();
    expect(stored).toEqual([]);
  });

  it('provisions a station with the device provisioning key', async () => {
    const post = (authorization: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/rest/workstation/api/provision', headers: { authorization }, payload });
    expect((await post('Bearer wrong', { code: 'WSPROV', name: 'p' })).json()).toMatchObject({ code: 401 });
    const made = (await post('Bearer test-provision-key', { code: 'WSPROV', name: 'p' })).json() as Envelope<{
      id: number;
      secret: string;
    }>;
    expect(made.code).toBe(200);
    expect((await stationLogin('WSPROV', made.data.secret)).code).toBe(200);
    const again = (await post('Bearer test-provision-key', { code: 'WSPROV', name: 'p' })).json() as Envelope<{
      id: number;
      secret: string;
    }>;
    expect(again.data.id).toBe(made.data.id);
    expect((await stationLogin('WSPROV', made.data.secret)).code).toBe(ResultCode.UNAUTHENTICATED);
    expect((await stationLogin('WSPROV', again.data.secret)).code).toBe(200);
  });
});
