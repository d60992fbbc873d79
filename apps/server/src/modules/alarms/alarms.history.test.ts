import { Api, MenuId, type Alarm, type MapConfig, type Page } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { createRole, createTestApp, createUser, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../test/devices';

/** GB acknowledge-all (`alarmGbSureAll`) and the face-alarm column flag (`alarmset.alerm_face` in map_get). */
let t: TestApp;
let admin: Session;
/** 10154 view/edit only (GB alarm history), unit Futian */
let gbDesk: Session;
/** 10154 view only */
let gbViewer: Session;
let futian: number;
let luohu: number;
let inFutian: CreatedDevice;
let inLuohu: CreatedDevice;

async function sos(device: CreatedDevice): Promise<string> {
  const headers = await deviceLogin(t.app, device);
  const res = await t.app.inject({
    method: 'POST',
    url: Api.deviceSos.path,
    headers,
    payload: { message: 'help', lat: 22.54, lng: 114.05 },
  });
  const env = res.json() as { code: number; data: { event_id: number } };
  expect(env.code).toBe(200);
  const eid = `sos:${env.data.event_id}`;
  const until = Date.now() + 5_000;
  while (Date.now() < until) {
    const row = await t.db.selectFrom('alarms').select('id').where('eid', '=', eid).executeTakeFirst();
    if (row) return eid;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`alarm ${eid} not stored`);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
  luohu = await unitIdOf(t.db, '440303000000');
  const desk = await createRole(t.db, 'gb alarm desk', [{ ids: [MenuId.MONITOR_ALARM], actions: ['view', 'edit'] }]);
  const viewer = await createRole(t.db, 'gb alarm viewer', [{ ids: [MenuId.MONITOR_ALARM], actions: ['view'] }]);
  const u1 = await createUser(t.db, { roleId: desk, unitBh: '440304000000', hostname: '李值班' });
  gbDesk = await login(t.app, u1.username, u1.password);
  const u2 = await createUser(t.db, { roleId: viewer, unitBh: '440304000000' });
  gbViewer = await login(t.app, u2.username, u2.password);
  inFutian = await addDevice(t.app, admin, futian);
  inLuohu = await addDevice(t.app, admin, luohu);
});
afterAll(async () => t.close());

describe('GB acknowledge all (monitor/alarmhistory/sure_all_alarm)', () => {
  it('needs a session and edit on 10154; the dispatch path stays refused to a GB-only desk', async () => {
    expect((await api(t.app, 'alarmGbSureAll', null)).code).toBe(401);
    expect(await api(t.app, 'alarmGbSureAll', gbViewer)).toMatchObject({ code: 403 });
    expect((await api(t.app, 'alarmSureAll', gbDesk)).code).toBe(403);
  });

  it('rejects a note over 200 characters and changes nothing', async () => {
    await sos(inFutian);
    const long = await api(t.app, 'alarmGbSureAll', gbDesk, { note: 'x'.repeat(201) });
    expect(long.code).toBe(400);
    expect(long.msg).toMatch(/^字段 note：/);
    const open = await api<Page<Alarm>>(t.app, 'alarmGbSearch', gbDesk, { sure: 0 });
    expect(open.data.total).toBeGreaterThan(0);
  });

  it("acknowledges every open alarm of the caller's units with handler and note, none of other units", async () => {
    await sos(inFutian);
    const luohuEid = await sos(inLuohu);
    const res = await api<{ count: number }>(t.app, 'alarmGbSureAll', gbDesk, { note: '交班' });
    expect(res).toMatchObject({ code: 200, msg: '报警已确认' });
    expect(res.data.count).toBeGreaterThanOrEqual(2);
    const mine = await api<Page<Alarm>>(t.app, 'alarmGbSearch', gbDesk, { limit: 100 });
    expect(mine.data.total).toBeGreaterThanOrEqual(2);
    for (const a of mine.data.list) expect(a).toMatchObject({ sure: 1, sure_user: '李值班', sure_note: '交班' });
    const other = await t.db
      .selectFrom('alarms')
      .select(['sure'])
      .where('eid', '=', luohuEid)
      .executeTakeFirstOrThrow();
    expect(Number(other.sure)).toBe(0);
    // nothing left: a second call changes no row
    expect((await api(t.app, 'alarmGbSureAll', gbDesk)).data).toEqual({ count: 0 });
  });
});

describe('face-alarm column flag', () => {
  it('map_get answers alarmset.alerm_face (0 by default), which system_update sets and validates', async () => {
    const get = async () => (await api<MapConfig>(t.app, 'mapConfig', admin)).data.alerm_face;
    expect(await get()).toBe(0);
    const update = (payload: Record<string, unknown>) => api(t.app, 'settingsUpdate', admin, payload);
    const bad = await update({
      type: 'alarmset',
      sos_alarm_time: 30,
      sos_alarm_audio: '',
      type_levels: {},
      alerm_face: 3,
    });
    expect(bad.code).toBe(400);
    expect(bad.msg).toMatch(/alerm_face/);
    expect(await get()).toBe(0);
    const ok = await update({
      type: 'alarmset',
      sos_alarm_time: 30,
      sos_alarm_audio: '',
      type_levels: {},
      alerm_face: 1,
    });
    expect(ok.code).toBe(200);
    expect(await get()).toBe(1);
    // stored settings without the field (written before it existed) read as off
    await t.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ sos_alarm_time: 30, sos_alarm_audio: '', type_levels: {} }) })
      .where('type', '=', 'alarmset')
      .execute();
    expect(await get()).toBe(0);
  });
});
