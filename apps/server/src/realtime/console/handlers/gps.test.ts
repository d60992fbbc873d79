import { CmdStatus, MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import { createRole, createTestApp, createUser, DEMO, login, type TestApp } from '../../../../test/helpers';

/** GPS family: terminals report through the service into the device store; consoles of the unit get notices. */
let t: TestApp;
let url: string;
let futianDesk: LoggedOn;
let luohuDesk: LoggedOn;
let camDevice: CreatedDevice;
let cam: LoggedOn;
let apiDevice: CreatedDevice;
let luohuDevice: CreatedDevice;
const clients: ConsoleClient[] = [];
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const role = await createRole(t.db, 'map desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  for (const [unit, set] of [
    ['440304000000', (l: LoggedOn) => (futianDesk = l)],
    ['440303000000', (l: LoggedOn) => (luohuDesk = l)],
  ] as const) {
    const u = await createUser(t.db, { roleId: role, unitBh: unit });
    const l = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(l.client);
    set(l);
  }
  const futian = await unitIdOf(t.db, '440304000000');
  camDevice = await addDevice(t.app, admin, futian, { jq_hostcode: '550001' });
  apiDevice = await addDevice(t.app, admin, futian, { jq_hostcode: '550002' });
  luohuDevice = await addDevice(t.app, admin, await unitIdOf(t.db, '440303000000'), { jq_hostcode: '550003' });
  cam = await logonTerminal(url, camDevice);
  clients.push(cam.client);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('req_report_gps', () => {
  it('stores valid fixes like the device API, names bad items, and notifies consoles of the unit (latest fix wins)', async () => {
    const rsp = await cam.client.request('req_report_gps', {
      gps: [
        { time: minutesAgo(2), lat: 22.54, lng: 114.05, speed: 12 },
        { time: minutesAgo(1), lat: 95, lng: 114.06 },
        { time: minutesAgo(1), lat: 22.55, lng: 114.06, battery: 80 },
      ],
    });
    expect(rsp).toMatchObject({ msg_code: 'rsp_report_gps', cmd_status: 0, accepted: 2 });
    expect(rsp.rejected).toEqual([{ index: 1, field: 'gps.1.lat', msg: expect.stringContaining('gps.1.lat') }]);
    const stored = await t.db.selectFrom('positions').select(['lat']).where('device_id', '=', camDevice.id).execute();
    expect(stored.map((p) => p.lat).sort()).toEqual([22.54, 22.55]);
    const notice = await futianDesk.client.notice('notice_gps', (m) =>
      (m.gps as { uid: number }[]).some((g) => g.uid === camDevice.id),
    );
    const fixes = (notice.gps as { uid: number; lat: number; ext_id: string; battery: number }[]).filter(
      (g) => g.uid === camDevice.id,
    );
    expect(fixes).toEqual([expect.objectContaining({ ext_id: '550001', lat: 22.55, battery: 80 })]);
    expect(luohuDesk.client.notices('notice_gps')).toEqual([]);
  });

  it('turns device API positions of a terminal into the same notices', async () => {
    const headers = await deviceLogin(t.app, apiDevice);
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/device/api/positions',
      headers,
      payload: { positions: [{ time: minutesAgo(1), lat: 22.6, lng: 114.1 }] },
    });
    expect(res.json()).toMatchObject({ code: 200 });
    await futianDesk.client.notice('notice_gps', (m) =>
      (m.gps as { uid: number }[]).some((g) => g.uid === apiDevice.id),
    );
  });

  it('is for terminals only and checks its payload', async () => {
    expect(
      await futianDesk.client.request('req_report_gps', { gps: [{ time: minutesAgo(1), lat: 1, lng: 1 }] }),
    ).toMatchObject({
      cmd_status: CmdStatus.WRONG_CLIENT,
    });
    expect(await cam.client.request('req_report_gps', { gps: [] })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
    });
  });
});

describe('req_query_gps', () => {
  it('answers the latest fix of a named terminal and asks it to report', async () => {
    const rsp = await futianDesk.client.request('req_query_gps', { target: camDevice.id });
    expect(rsp).toMatchObject({ msg_code: 'rsp_query_gps', cmd_status: 0 });
    expect(rsp.gps).toEqual([
      expect.objectContaining({ uid: camDevice.id, ext_id: '550001', lat: 22.55, lng: 114.06 }),
    ]);
    expect(await cam.client.notice('notice_query_gps')).toMatchObject({
      demander: futianDesk.uid,
      extdemander: expect.stringMatching(/^itrunk_/),
    });
  });

  it('answers every terminal of the scope with a fix when none is named; refuses other units', async () => {
    const all = await futianDesk.client.request('req_query_gps', { exttarget: '' });
    expect((all.gps as { uid: number }[]).map((g) => g.uid).sort()).toEqual([camDevice.id, apiDevice.id].sort());
    expect(await futianDesk.client.request('req_query_gps', { exttarget: '550003' })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(luohuDevice.id).toBeGreaterThan(0);
  });
});

describe('req_query_history_gps', () => {
  it('answers the stored fixes of the range, oldest first', async () => {
    const rsp = await futianDesk.client.request('req_query_history_gps', {
      exttarget: '550001',
      starttime: minutesAgo(10),
      endtime: new Date().toISOString(),
    });
    expect(rsp).toMatchObject({ cmd_status: 0, uid: camDevice.id, truncated: 0 });
    expect((rsp.gps as { lat: number }[]).map((g) => g.lat)).toEqual([22.54, 22.55]);
  });

  it('refuses a reversed or too long range and a missing target', async () => {
    const now = Date.now();
    expect(
      await futianDesk.client.request('req_query_history_gps', {
        target: camDevice.id,
        starttime: now,
        endtime: now - 1000,
      }),
    ).toMatchObject({ cmd_status: CmdStatus.BAD_PAYLOAD, error_reason: expect.stringContaining('endtime') });
    expect(
      await futianDesk.client.request('req_query_history_gps', {
        target: camDevice.id,
        starttime: '2024-01-01 00:00:00',
        endtime: '2024-03-01 00:00:00',
      }),
    ).toMatchObject({ cmd_status: CmdStatus.BAD_PAYLOAD, error_reason: '查询时间范围不能超过 31 天' });
    expect(
      await futianDesk.client.request('req_query_history_gps', { starttime: now - 1000, endtime: now }),
    ).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: expect.stringContaining('target'),
    });
  });
});

describe('notice_gps fan-out', () => {
  it('serialises one frame per scope and flush, whatever the number of consoles of that scope', async () => {
    const role = await createRole(t.db, 'second desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
    const u = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
    const second = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(second.client);
    const fanout = t.app.consoleService.gps;
    const serialised = fanout.serialised;
    const rsp = await cam.client.request('req_report_gps', {
      gps: [{ time: minutesAgo(0.5), lat: 22.56, lng: 114.07 }],
    });
    expect(rsp).toMatchObject({ cmd_status: 0, accepted: 1 });
    const carries = (m: Record<string, unknown>) => (m.gps as { lat: number }[]).some((g) => g.lat === 22.56);
    const [a, b] = await Promise.all([
      futianDesk.client.notice('notice_gps', carries),
      second.client.notice('notice_gps', carries),
    ]);
    expect(a).toEqual(b);
    // two consoles of one unit (each login with its own scope set), the other unit's desk sees nothing
    expect(fanout.serialised - serialised).toBe(1);
  });
});
