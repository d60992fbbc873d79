import { ALARM_TYPE, CmdStatus, MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import { api } from '../../../../test/api';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../../test/helpers';
import { consoleUidOf } from '../login';

/** Emergencies: a terminal's SOS raises an alarm and notices; handled acknowledges and notifies. */
let t: TestApp;
let url: string;
let handler: LoggedOn;
let watcher: LoggedOn;
let elsewhere: LoggedOn;
let device: CreatedDevice;
let luohuDevice: CreatedDevice;
let cam: LoggedOn;
let web: { id: number; session: Session };
const clients: ConsoleClient[] = [];
const alarmsOf = (id: number) =>
  t.db.selectFrom('alarms').selectAll().where('device_id', '=', id).orderBy('id').execute();

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const duty = await createRole(t.db, 'duty', [
    { ids: [MenuId.EMERGENCY], actions: ['view'] },
    { ids: [MenuId.DISPATCH_ALARM], actions: ['view', 'edit'] },
  ]);
  const look = await createRole(t.db, 'look', [{ ids: [MenuId.EMERGENCY, MenuId.DISPATCH_ALARM], actions: ['view'] }]);
  const desk = async (role: number, unit: string) => {
    const u = await createUser(t.db, { roleId: role, unitBh: unit, hostname: `desk ${role}` });
    const l = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(l.client);
    return l;
  };
  handler = await desk(duty, '440304000000');
  watcher = await desk(look, '440304000000');
  elsewhere = await desk(duty, '440303000000');
  device = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), { jq_hostcode: '330001' });
  luohuDevice = await addDevice(t.app, admin, await unitIdOf(t.db, '440303000000'), { jq_hostcode: '330002' });
  const webUser = await createUser(t.db, { roleId: duty, unitBh: '440304000000', hostname: '王值班' });
  web = { id: webUser.id, session: await login(t.app, webUser.username, webUser.password) };
  cam = await logonTerminal(url, device);
  clients.push(cam.client);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('req_emergency', () => {
  it('raises an SOS alarm through the alarm module and notifies the consoles of the unit', async () => {
    const rsp = await cam.client.request('req_emergency', { lat: 22.53, lng: 114.05, message: '需要支援' });
    expect(rsp).toMatchObject({ msg_code: 'rsp_emergency', cmd_status: 0, event_id: expect.any(Number) });
    const alarms = await alarmsOf(device.id);
    expect(alarms).toEqual([
      expect.objectContaining({
        eid: `sos:${String(rsp.event_id)}`,
        type: ALARM_TYPE.SOS,
        sure: 0,
        lat: 22.53,
        message: '需要支援',
      }),
    ]);
    for (const c of [handler, watcher]) {
      expect(await c.client.notice('notice_emergency')).toMatchObject({
        uid: device.id,
        ext_id: '330001',
        hostbody: device.hostbody,
        event_id: rsp.event_id,
        lat: 22.53,
        lng: 114.05,
        message: '需要支援',
      });
    }
    expect(elsewhere.client.notices('notice_emergency')).toEqual([]);
  });

  it('gives the same notice for an SOS through the device API', async () => {
    const headers = await deviceLogin(t.app, device);
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/device/api/sos',
      headers,
      payload: { message: 'api' },
    });
    expect(res.json()).toMatchObject({ code: 200 });
    await handler.client.notice('notice_emergency', (m) => m.message === 'api');
  });

  it('is for terminals only', async () => {
    expect(await handler.client.request('req_emergency', {})).toMatchObject({ cmd_status: CmdStatus.WRONG_CLIENT });
  });
});

describe('req_emergency_handled', () => {
  it('needs edit on the alarm menus and a terminal of the scope; refused requests change nothing', async () => {
    expect(await watcher.client.request('req_emergency_handled', { uid: device.id, processor: 'Li' })).toMatchObject({
      cmd_status: CmdStatus.FORBIDDEN,
    });
    expect(await elsewhere.client.request('req_emergency_handled', { uid: device.id, processor: 'Li' })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(await handler.client.request('req_emergency_handled', { uid: device.id })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: '字段 processor：不能为空',
    });
    expect((await alarmsOf(device.id)).every((a) => a.sure === 0)).toBe(true);
    expect(luohuDevice.id).toBeGreaterThan(0);
  });

  it('acknowledges the open SOS alarms with the processor and notifies consoles and the terminal', async () => {
    const rsp = await handler.client.request('req_emergency_handled', {
      extUid: '330001',
      processor: '李警官',
      timestamp: '2024-05-01 10:00:00',
      ack_type: 1,
    });
    expect(rsp).toMatchObject({
      msg_code: 'rsp_emergency_handled',
      cmd_status: 0,
      uid: device.id,
      extUid: '330001',
      handled: 2,
    });
    const alarms = await alarmsOf(device.id);
    expect(alarms.map((a) => [a.sure, a.sure_user, a.sure_note, a.sure_type])).toEqual([
      [1, '李警官', '误报', 1],
      [1, '李警官', '误报', 1],
    ]);
    for (const c of [watcher, cam]) {
      expect(await c.client.notice('notice_emergency_handled')).toMatchObject({
        uid: device.id,
        extUid: '330001',
        processor: '李警官',
        timestamp: '2024-05-01 10:00:00',
        ack_type: 1,
        handled: 2,
        handler: handler.uid,
      });
    }
    const again = await handler.client.request('req_emergency_handled', { uid: device.id, processor: 'Wang' });
    expect(again).toMatchObject({ cmd_status: 0, handled: 0 });
    expect((await alarmsOf(device.id))[0]!.sure_user).toBe('李警官');
  });
});

describe('an SOS acknowledged in the console (bell, alarm history)', () => {
  it('records how, and tells the terminal and the consoles that see it as notice_emergency_handled', async () => {
    const sos = await cam.client.request('req_emergency', { message: 'again' });
    expect(sos).toMatchObject({ cmd_status: 0 });
    const open = (await alarmsOf(device.id)).filter((a) => a.sure === 0);
    expect(open).toHaveLength(1);
    const before = cam.client.notices('notice_emergency_handled').length;

    // a bad ack_type is refused by name and changes nothing
    const bad = await api(t.app, 'alarmSure', web.session, { ids: [open[0]!.id], ack_type: 7 });
    expect(bad.code).not.toBe(200);
    expect(bad.msg).toContain('ack_type');
    expect((await alarmsOf(device.id)).filter((a) => a.sure === 0)).toHaveLength(1);

    const ok = await api<{ count: number }>(t.app, 'alarmSure', web.session, {
      ids: [open[0]!.id],
      note: '已派警',
      ack_type: 2,
    });
    expect(ok).toMatchObject({ code: 200, data: { count: 1 } });
    const row = (await alarmsOf(device.id)).find((a) => a.id === open[0]!.id)!;
    expect([row.sure, row.sure_user, row.sure_note, row.sure_type]).toEqual([1, '王值班', '已派警', 2]);
    for (const c of [cam, watcher]) {
      expect(await c.client.notice('notice_emergency_handled', (m) => m.processor === '王值班')).toMatchObject({
        uid: device.id,
        extUid: '330001',
        ack_type: 2,
        handled: 1,
        handler: consoleUidOf(web.id),
      });
    }
    expect(elsewhere.client.notices('notice_emergency_handled').filter((m) => m.processor === '王值班')).toEqual([]);
    expect(cam.client.notices('notice_emergency_handled')).toHaveLength(before + 1);

    // the alarm history shows how it was acknowledged
    const page = await api<{ list: { id: number; sure_type: number | null }[] }>(t.app, 'alarmSearch', web.session, {
      device: device.hostbody,
    });
    expect(page.data.list.find((a) => a.id === open[0]!.id)?.sure_type).toBe(2);

    // acknowledging again closes nothing and tells nobody
    const again = await api<{ count: number }>(t.app, 'alarmSure', web.session, { ids: [open[0]!.id] });
    expect(again).toMatchObject({ code: 200, data: { count: 0 } });
  });

  it('a non-SOS alarm acknowledged tells no terminal', async () => {
    const before = cam.client.notices('notice_emergency_handled').length;
    const offline = await t.db
      .insertInto('alarms')
      .values({
        eid: `test:${Date.now()}`,
        type: ALARM_TYPE.OFFLINE,
        alerm_level: '1',
        device_id: device.id,
        unit_id: await unitIdOf(t.db, '440304000000'),
        hostname: 'cam',
        hostcode: '',
        hostbody: device.hostbody,
        alarm_time: new Date().toISOString(),
        insert_time: new Date().toISOString(),
        lat: null,
        lng: null,
        message: '',
        fence_name: '',
        fence_direction: '',
        picture: '',
        sure: 0,
        sure_user_id: null,
        sure_user: '',
        sure_note: '',
        sure_time: '',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ok = await api<{ count: number }>(t.app, 'alarmSure', web.session, { ids: [offline.id] });
    expect(ok).toMatchObject({ code: 200, data: { count: 1 } });
    // an SOS acknowledged afterwards is notified: nothing came in between for the offline alarm
    await cam.client.request('req_emergency', { message: 'third' });
    const sos = (await alarmsOf(device.id)).find((a) => a.sure === 0 && a.type === ALARM_TYPE.SOS)!;
    await api(t.app, 'alarmSure', web.session, { ids: [sos.id] });
    expect(await cam.client.notice('notice_emergency_handled', (m) => m.processor === '王值班')).toMatchObject({
      handled: 1,
      ack_type: 0,
    });
    expect(cam.client.notices('notice_emergency_handled')).toHaveLength(before + 1);
  });
});
