import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceApiError, DeviceClient, startSimulator, Transport, type StopSimulator } from '@bwc/simulator';
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
      message: expect.stringContaining('device authentication failed'),
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
