import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFfmpeg, provisionDevices, simulatedIdentity, SimWorkstation, Transport } from '@bwc/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { until } from '../../../test/wait';
import { PROVISION_KEY_FILE } from '../devices/device-api.routes';

/**
 * The simulator's docking workstation against a real listening server: provisioned with the
 * device provisioning key, heartbeats naming the docked camera, clips recorded with ffmpeg and
 * sent with tus-js-client at WORKSTATION_UPLOAD_PATH, stored as the cameras' items.
 */

let t: TestApp;
let server: string;
let key: string;
let transport: Transport;
let station: SimWorkstation | null = null;
const work = mkdtempSync(join(tmpdir(), 'bwc-sim-ws-test-'));

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  key = readFileSync(join(t.config.dataDir, PROVISION_KEY_FILE), 'utf8').trim();
  transport = new Transport({ server });
});
afterAll(async () => {
  await station?.close();
  transport?.close();
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

describe.runIf(findFfmpeg())('simulated docking workstation', () => {
  it('docks two cameras in turn, heartbeats with the docked one and uploads their clips as workstation items', async () => {
    const cameras = [simulatedIdentity('WSSIM', 1), simulatedIdentity('WSSIM', 2)];
    const provisioned = await provisionDevices(transport, key, cameras);
    const ids = new Map(provisioned.devices.map((d) => [d.hostbody, d.id]));
    station = new SimWorkstation({
      server,
      provisionKey: key,
      code: 'WSSIM-WS1',
      name: 'simulated station',
      cameras: cameras.map(({ hostbody, hostname }) => ({ hostbody, hostname })),
      dir: work,
      dockMs: 1_500,
      gapMs: 100,
      clipKind: 'video',
      clipSeconds: 2,
      chunkBytes: 64 * 1024,
    });
    await station.start();
    const row = () =>
      t.db.selectFrom('workstations').selectAll().where('code', '=', 'WSSIM-WS1').executeTakeFirstOrThrow();
    // the station says which camera is docked
    await until('the first camera docked', async () =>
      (JSON.parse((await row()).docked) as string[]).includes(cameras[0]!.hostbody),
    );
    expect(t.app.workstations.online(await row())).toBe(true);

    const items = () =>
      t.db.selectFrom('evidence_items').selectAll().where('source', '=', 'workstation').orderBy('id').execute();
    await until(
      'an item of each camera',
      async () => new Set((await items()).map((i) => i.hostbody)).size === 2,
      90_000,
    );
    const stationId = (await row()).id;
    for (const item of await items()) {
      expect(item.device_id).toBe(ids.get(item.hostbody));
      expect(item.workstation_id).toBe(stationId);
      expect(item.media_type).toBe(1);
      expect(item.origin_key).toMatch(new RegExp(`^${item.device_id}:${item.hostbody}-`));
    }
    await station.close();
    expect(station.stats).toMatchObject({ refused: 0 });
    expect(station.stats.docks).toBeGreaterThanOrEqual(2);
    // close() aborts the upload in flight: the server may have stored it before the station heard
    // the answer, so the items are what the station counted, or one more
    const stored = (await items()).length;
    expect(station.stats.stored).toBeLessThanOrEqual(stored);
    expect(station.stats.stored).toBeGreaterThanOrEqual(stored - 1);
    station = null;
  });
});
