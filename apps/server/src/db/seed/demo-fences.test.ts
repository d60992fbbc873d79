import { ALARM_TYPE, type Fence } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { createTestApp, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { loadConfig } from '../../config';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../test/devices';
import { seedDemoFences } from './demo';

/** The demo's fences: placed where the simulated fleet moves, crossed by a device, raising fence alarms. */

let t: TestApp;
let admin: Session;
let device: CreatedDevice;

beforeAll(async () => {
  t = await createTestApp({ demoFences: true });
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  device = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'));
});
afterAll(async () => t.close());

async function send(points: { lng: number; lat: number; time: number }[]): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/rest/device/api/positions',
    headers: await deviceLogin(t.app, device),
    payload: { positions: points },
  });
  expect(res.json()).toMatchObject({ code: 200, data: { accepted: points.length } });
  await t.app.devices.drain();
  await t.app.fences.idle();
}

async function fenceAlarms(): Promise<{ fence_name: string; hostbody: string }[]> {
  // the alarm follows the crossing asynchronously (bus event)
  for (let i = 0; i < 50; i++) {
    const rows = await t.db
      .selectFrom('alarms')
      .select(['fence_name', 'hostbody'])
      .where('type', '=', ALARM_TYPE.FENCE)
      .orderBy('id')
      .execute();
    if (rows.length) return rows;
    await new Promise((r) => setTimeout(r, 20));
  }
  return [];
}

describe('demo fences', () => {
  it('is on in demo mode, off under NODE_ENV=test and with DEMO_FENCES=0', () => {
    expect(loadConfig({ DEMO: '1' }).demoFences).toBe(true);
    expect(loadConfig({ DEMO: '1', NODE_ENV: 'test' }).demoFences).toBe(false);
    expect(loadConfig({ DEMO: '1', DEMO_FENCES: '0' }).demoFences).toBe(false);
    expect(loadConfig({ DEMO_FENCES: '1' }).demoFences).toBe(true);
    expect(loadConfig({}).demoFences).toBe(false);
    // the basemap's tile pack follows the same rule, with its own switch
    expect(loadConfig({}).basemapPack).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).basemapPack).toBe(false);
    expect(loadConfig({ BASEMAP_PACK: '0' }).basemapPack).toBe(false);
  });

  it('two enabled fences within 2 km of the map centre, added once', async () => {
    await seedDemoFences(t.db);
    const list = await api<Fence[]>(t.app, 'fenceList', admin);
    expect(list.code).toBe(200);
    expect(list.data).toHaveLength(2);
    const byName = new Map(list.data.map((f) => [f.name, f]));
    const circle = byName.get('市民中心警戒区')!;
    expect(circle).toMatchObject({ rule: 'both', enabled: 1, shape: { type: 'circle', radius: 300 } });
    const rect = byName.get('口岸管控区')!;
    expect(rect).toMatchObject({ rule: 'enter', enabled: 1, shape: { type: 'rectangle' } });
    if (circle.shape.type !== 'circle' || rect.shape.type !== 'rectangle') throw new Error('shapes');
    // digitailmap default centre 22.5431, 114.0579
    expect(Math.abs(circle.shape.center.lat - 22.5431)).toBeLessThan(0.02);
    expect(Math.abs(rect.shape.sw.lng - 114.0579)).toBeLessThan(0.02);
  });

  it('a device walking into the circle raises a fence alarm naming it', async () => {
    const circle = (await api<Fence[]>(t.app, 'fenceList', admin)).data.find((f) => f.name === '市民中心警戒区')!;
    if (circle.shape.type !== 'circle') throw new Error('shape');
    const c = circle.shape.center;
    const t0 = Date.now() - 10_000;
    await send([
      { lng: c.lng + 0.01, lat: c.lat, time: t0 },
      { lng: c.lng, lat: c.lat, time: t0 + 1000 },
    ]);
    expect(await fenceAlarms()).toEqual([{ fence_name: '市民中心警戒区', hostbody: device.hostbody }]);
  });
});
