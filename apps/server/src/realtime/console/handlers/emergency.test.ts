import { ALARM_TYPE, CmdStatus, MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import { createRole, createTestApp, createUser, DEMO, login, type TestApp } from '../../../../test/helpers';

/** Emergencies: a terminal's SOS raises an alarm and notices; handled acknowledges and notifies. */
let t: TestApp;
let url: string;
let handler: LoggedOn;
let watcher: LoggedOn;
let elsewhere: LoggedOn;
let device: CreatedDevice;
let luohuDevice: CreatedDevice;
let cam: LoggedOn;
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
    expect(alarms.map((a) => [a.sure, a.sure_user, a.sure_note])).toEqual([
      [1, '李警官', '误报'],
      [1, '李警官', '误报'],
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
