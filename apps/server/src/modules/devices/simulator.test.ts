import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALARM_TYPE } from '@bwc/protocol';
import {
  DeviceApiError,
  DeviceClient,
  findAiToken,
  startSimulator,
  Transport,
  type StopSimulator,
} from '@bwc/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { createTestApp, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { PROVISION_KEY_FILE } from './device-api.routes';

/** The simulator package against a real listening server: its client, movement upload and obedience. */

let t: TestApp;
let admin: Session;
let server: string;
let key: string;
let sim: StopSimulator | null = null;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  key = readFileSync(join(t.config.dataDir, PROVISION_KEY_FILE), 'utf8').trim();
});
afterAll(async () => {
  await sim?.();
  await t.close();
});

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function positionsOf(hostbody: string): Promise<number> {
  const row = await t.db
    .selectFrom('positions')
    .innerJoin('devices', 'devices.id', 'positions.device_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('devices.hostbody', '=', hostbody)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function commandStatus(id: number): Promise<string> {
  return (await t.db.selectFrom('device_commands').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;
}

describe('simulator client', () => {
  it('refuses wrong credentials with the server msg', async () => {
    const transport = new Transport({ server });
    const client = new DeviceClient(transport, 'NOBODY', 'secret');
    await expect(client.login()).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('Device authentication failed'),
    });
    await expect(client.login()).rejects.toBeInstanceOf(DeviceApiError);
    transport.close();
  });
});

describe('simulated fleet', () => {
  it('provisions, logs in and uploads moving positions that are all persisted', async () => {
    sim = await startSimulator({
      server,
      devices: 12,
      provisionKey: key,
      intervalS: [0.1, 0.3],
      seed: 1,
      offlineRate: 0,
      sosRate: 0,
      prefix: 'TSIM',
    });
    expect(sim.stats.devices).toBe(12);
    await until('positions', async () => (await positionsOf('TSIM00001')) >= 5 && sim!.stats.positions >= 100);
    const devices = await t.db.selectFrom('devices').selectAll().where('hostbody', 'like', 'TSIM%').execute();
    expect(devices).toHaveLength(12);
    expect(devices.every((d) => d.lineon === 1 && d.lat !== null)).toBe(true);
    // around the configured map centre (digitailmap default 22.5431, 114.0579), within 3 km
    for (const d of devices) {
      expect(Math.abs(d.lat! - 22.5431)).toBeLessThan(0.03);
      expect(Math.abs(d.lng! - 114.0579)).toBeLessThan(0.035);
    }
  });

  it('obeys remote kill (stops uploading), wake (resumes) and restart (goes away and comes back)', async () => {
    const d = await t.db
      .selectFrom('devices')
      .selectAll()
      .where('hostbody', '=', 'TSIM00002')
      .executeTakeFirstOrThrow();
    const kill = await api<{ command_id: number }>(t.app, 'gisRemoteKill', admin, {
      imei: d.imei,
      action: 'remote_kill',
    });
    expect(kill.code).toBe(200);
    await until('kill acknowledged', async () => (await commandStatus(kill.data.command_id)) === 'ok');
    await until('simulator knows it is killed', () => sim!.stats.killed === 1);
    const frozen = await positionsOf('TSIM00002');
    await new Promise((r) => setTimeout(r, 800));
    expect(await positionsOf('TSIM00002')).toBe(frozen);

    const wake = await api<{ command_id: number }>(t.app, 'gisRemoteKill', admin, {
      imei: d.imei,
      action: 'remote_wakeon',
    });
    await until('wake acknowledged', async () => (await commandStatus(wake.data.command_id)) === 'ok');
    await until('uploads resume', async () => (await positionsOf('TSIM00002')) > frozen);

    const restart = await api<{ command_id: number }>(t.app, 'gisSendRestart', admin, {
      imei: d.imei,
      hostbody: d.hostbody,
    });
    await until('restart acknowledged', async () => (await commandStatus(restart.data.command_id)) === 'ok');
    const events = async () =>
      (await t.db.selectFrom('device_events').select('type').where('device_id', '=', d.id).orderBy('id').execute()).map(
        (e) => e.type,
      );
    await until('offline after restart', async () => (await events()).includes('offline'));
    await until('back online after restart', async () => (await events()).slice(-1)[0] === 'online', 20_000);
  });

  it('stops cleanly; every accepted position is in the database', async () => {
    await sim!();
    const accepted = sim!.stats.positions;
    sim = null;
    const row = await t.db
      .selectFrom('positions')
      .innerJoin('devices', 'devices.id', 'positions.device_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('devices.hostbody', 'like', 'TSIM%')
      .executeTakeFirstOrThrow();
    // uploads in flight when stopping may be stored without the simulator hearing the answer
    expect(Number(row.n)).toBeGreaterThanOrEqual(accepted);
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('simulated AI engine', () => {
  it('posts face and plate results with generated pictures that the server stores, serves and lists', async () => {
    // the token as the demo simulator finds it: DATA_DIR/ai-engine.token, written at server start
    const token = findAiToken(undefined, { DATA_DIR: t.config.dataDir });
    expect(token).toBe(t.app.aiEngineToken.token());
    const ai = await startSimulator({
      server,
      devices: 3,
      provisionKey: key,
      intervalS: [0.1, 0.2],
      seed: 2,
      offlineRate: 0,
      sosRate: 0,
      commands: false,
      prefix: 'TAI',
      facesPerMin: 300,
      platesPerMin: 300,
      aiToken: () => findAiToken(undefined, { DATA_DIR: t.config.dataDir }),
    });
    try {
      await until('face and plate results accepted', () => ai.stats.faces >= 2 && ai.stats.plates >= 2);
    } finally {
      await ai();
    }
    expect(ai.stats.errors).toBe(0);
    const rows = await t.db
      .selectFrom('alarms')
      .select(['eid', 'type', 'hostbody', 'hostname', 'lat', 'lng', 'picture'])
      .where('eid', 'like', 'ai:TAI-%')
      .execute();
    const faces = rows.filter((r) => r.type === ALARM_TYPE.FACE);
    const plates = rows.filter((r) => r.type === ALARM_TYPE.PLATE);
    expect(faces.length).toBeGreaterThanOrEqual(2);
    expect(plates.length).toBeGreaterThanOrEqual(2);
    const devices = new Map(
      (
        await t.db.selectFrom('devices').select(['hostbody', 'hostname']).where('hostbody', 'like', 'TAI%').execute()
      ).map((d) => [d.hostbody, d.hostname]),
    );
    for (const r of rows) {
      // a device of the simulator, named as registered, where it was (around the map centre)
      expect(devices.get(r.hostbody)).toBe(r.hostname);
      expect(Math.abs(r.lat! - 22.5431)).toBeLessThan(0.03);
      expect(Math.abs(r.lng! - 114.0579)).toBeLessThan(0.035);
    }
    const face = JSON.parse(faces[0]!.picture) as {
      imgfile: string;
      imgfile_small: string;
      compare_result: { name: string; similarity: number; face_image_uri: string }[];
    };
    expect(face.compare_result[0]!.similarity).toBeGreaterThanOrEqual(80);
    expect(face.compare_result[0]!.face_image_uri).toMatch(/_cmp0\.png$/);
    expect(face.imgfile).toMatch(/_scene\.png$/);
    expect(face.imgfile_small).toMatch(/_small\.png$/);
    // the stored pictures are PNG files served to a session
    for (const name of [face.imgfile, face.imgfile_small, face.compare_result[0]!.face_image_uri]) {
      const res = await t.app.inject({ method: 'GET', url: `/rest/mini/rtcapt/file/${name}`, headers: admin.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect([...res.rawPayload.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    }
    const plate = JSON.parse(plates[0]!.picture) as { compare_result: { name: string; similarity: number }[] };
    expect(plate.compare_result[0]!.name).toMatch(/^[\u4e00-\u9fa5][A-Z]·[A-Z0-9]{5}$/);
    const pics = await api<{ alarm_pic: { eid: string }[] }>(t.app, 'alarmPic', admin, { limit: 100 });
    expect(pics.data.alarm_pic.map((p) => p.eid)).toEqual(expect.arrayContaining(faces.map((f) => f.eid)));
  });
});
