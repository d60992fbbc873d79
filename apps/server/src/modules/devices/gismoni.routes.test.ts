import { MAP_SOS_WINDOW_MS, MenuId, type Device, type DevicePoint, type DeviceStatus, type RemoteKillAnswer } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
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
import { addDevice, deviceLogin, deviceRow, unitIdOf, type CreatedDevice } from '../../../test/devices';

let t: TestApp;
let admin: Session;
let dispatcher: Session;
/** Emergency view+edit, unit FUTIAN */
let futianDispatcher: Session;
/** Emergency view only */
let viewer: Session;
/** no Emergency rights */
let nobody: Session;
let inFutian: CreatedDevice;
let inLuohu: CreatedDevice;
let futian: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  const editRole = await createRole(t.db, 'futian dispatch', [{ ids: [MenuId.EMERGENCY], actions: ['view', 'edit'] }]);
  const u1 = await createUser(t.db, { roleId: editRole, unitBh: '440304000000' });
  futianDispatcher = await login(t.app, u1.username, u1.password);
  const viewRole = await createRole(t.db, 'map viewers', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const u2 = await createUser(t.db, { roleId: viewRole });
  viewer = await login(t.app, u2.username, u2.password);
  const u3 = await createUser(t.db, {});
  nobody = await login(t.app, u3.username, u3.password);
  futian = await unitIdOf(t.db, '440304000000');
  inFutian = await addDevice(t.app, admin, futian);
  inLuohu = await addDevice(t.app, admin, await unitIdOf(t.db, '440303000000'), { jq_hostcode: '7001' });
  // give both a position
  for (const d of [inFutian, inLuohu]) {
    const auth = await deviceLogin(t.app, d);
    await t.app.inject({
      method: 'POST',
      url: '/rest/device/api/positions',
      headers: auth,
      payload: { positions: [{ time: Date.now(), lat: 22.54, lng: 114.05, speed: 3, course: 10, battery: 70 }] },
    });
  }
});
afterAll(async () => t.close());

const reads = ['gisGetPoint', 'gisDeviceDetail', 'gisUnitDevicePoint', 'gisStatus'] as const;
const writes = ['gisSendRestart', 'gisSendCmd', 'gisRemoteKill'] as const;
const valid = () => ({
  ids: [inFutian.id],
  imei: inFutian.imei,
  hostbody: inFutian.hostbody,
  type: 'takephoto',
  action: 'remote_wakeon',
});

describe('auth of every gismoni endpoint', () => {
  it.each([...reads, ...writes])('%s: 401 without a session', async (name) => {
    expect(await api(t.app, name, null, valid(), 'en-US')).toMatchObject({ code: 401, msg: 'Please log in first' });
  });
  it.each([...reads, ...writes])('%s: 403 without menu 10101', async (name) => {
    expect(await api(t.app, name, nobody, valid(), 'en-US')).toMatchObject({
      code: 403,
      msg: 'Permission denied: this needs "view" on menu 10101'.replace(
        'view',
        reads.includes(name as never) ? 'view' : 'edit',
      ),
    });
  });
  it.each(writes)('%s: 403 with view only', async (name) => {
    expect(await api(t.app, name, viewer, valid(), 'en-US')).toMatchObject({
      code: 403,
      msg: 'Permission denied: this needs "edit" on menu 10101',
    });
  });
  it.each(['gisStatus', 'gisSendRestart', 'gisSendCmd', 'gisRemoteKill'] as const)(
    '%s: 403 for a device outside the unit scope',
    async (name) => {
      const input = { imei: inLuohu.imei, hostbody: inLuohu.hostbody, type: 'takephoto', action: 'remote_kill' };
      expect(await api(t.app, name, futianDispatcher, input, 'en-US')).toMatchObject({
        code: 403,
        msg: 'This data belongs to a unit outside your unit and its sub-units',
      });
      expect((await deviceRow(t.db, inLuohu.id)).remote_kill).toBe(0);
    },
  );
});

describe('positions and details', () => {
  it('get_point answers the positions of the ids in scope (unknown and out-of-scope ids left out)', async () => {
    const all = await api<DevicePoint[]>(t.app, 'gisGetPoint', dispatcher, { ids: [inFutian.id, inLuohu.id, 999999] });
    expect(all.code).toBe(200);
    expect(all.data.map((p) => p.id)).toEqual([inFutian.id, inLuohu.id]);
    expect(all.data[0]).toMatchObject({
      did: inFutian.hostbody,
      imei: inFutian.imei,
      lat: 22.54,
      lng: 114.05,
      lineon: 1,
      remote_kill: 0,
      typecate: [1, 1, 1, 1],
      speed: 3,
      course: 10,
      battery: 70,
    });
    const scoped = await api<DevicePoint[]>(t.app, 'gisGetPoint', futianDispatcher, { ids: [inFutian.id, inLuohu.id] });
    expect(scoped.data.map((p) => p.id)).toEqual([inFutian.id]);
    expect(await api(t.app, 'gisGetPoint', dispatcher, { ids: [] }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Ids are required.',
    });
    expect(await api(t.app, 'gisGetPoint', dispatcher, { ids: ['x'] }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Ids.0 must be a number.',
    });
  });

  it('get_devicedetail answers full device records in scope', async () => {
    const env = await api<Device[]>(t.app, 'gisDeviceDetail', futianDispatcher, { ids: [inFutian.id, inLuohu.id] });
    expect(env.data).toHaveLength(1);
    expect(env.data[0]).toMatchObject({
      id: inFutian.id,
      hostbody: inFutian.hostbody,
      hostid: inFutian.id,
      unit_id: futian,
      dwbh: '440304000000',
    });
    const both = await api<Device[]>(t.app, 'gisDeviceDetail', admin, { ids: [inLuohu.id] });
    expect(both.data[0]).toMatchObject({ jq_hostcode: '7001' });
  });

  it('getUnitDevicePoint lists every device of the scope, or below one unit', async () => {
    const mine = await api<DevicePoint[]>(t.app, 'gisUnitDevicePoint', futianDispatcher, {});
    expect(mine.data.map((p) => p.id)).toEqual([inFutian.id]);
    const all = await api<DevicePoint[]>(t.app, 'gisUnitDevicePoint', dispatcher, {});
    expect(all.data.map((p) => p.id)).toEqual(expect.arrayContaining([inFutian.id, inLuohu.id]));
    const below = await api<DevicePoint[]>(t.app, 'gisUnitDevicePoint', dispatcher, { unit_id: futian, located: 1 });
    expect(below.data.map((p) => p.id)).toEqual([inFutian.id]);
    const luohu = await unitIdOf(t.db, '440303000000');
    expect(await api(t.app, 'gisUnitDevicePoint', futianDispatcher, { unit_id: luohu }, 'en-US')).toMatchObject({
      code: 403,
    });
  });

  it('gisstatus answers the state by imei; a bad imei is refused by name', async () => {
    const env = await api<DeviceStatus>(t.app, 'gisStatus', dispatcher, { imei: inFutian.imei });
    expect(env).toMatchObject({
      code: 200,
      data: { id: inFutian.id, lineon: 1, remote_kill: 0, battery: 70, pending_commands: 0 },
    });
    expect(await api(t.app, 'gisStatus', dispatcher, { imei: '86123' }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Field imei: The IMEI must be 15 digits with a valid check digit.',
    });
    expect(await api(t.app, 'gisStatus', dispatcher, { imei: '490154203237518' }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'No such device',
    });
  });
});

describe('SOS state in the point snapshot', () => {
  /** a device with a fix in FUTIAN that raises an SOS through the device API */
  async function sosDevice(): Promise<CreatedDevice> {
    const d = await addDevice(t.app, admin, futian);
    const auth = await deviceLogin(t.app, d);
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/device/api/sos',
      headers: auth,
      payload: { lat: 22.54, lng: 114.05, message: 'help' },
    });
    expect(res.json()).toMatchObject({ code: 200 });
    return d;
  }
  const sosOf = (points: DevicePoint[], id: number) => points.find((p) => p.id === id)?.sos;

  it('a device with an open SOS alarm has sos 1 in get_point and getUnitDevicePoint, the others 0', async () => {
    const d = await sosDevice();
    const full = await api<DevicePoint[]>(t.app, 'gisUnitDevicePoint', dispatcher, {});
    expect(sosOf(full.data, d.id)).toBe(1);
    expect(sosOf(full.data, inLuohu.id)).toBe(0);
    const some = await api<DevicePoint[]>(t.app, 'gisGetPoint', dispatcher, { ids: [d.id, inLuohu.id] });
    // ordered by id
    expect(some.data.map((p) => [p.id, p.sos])).toEqual([
      [inLuohu.id, 0],
      [d.id, 1],
    ]);
    // the same state for a user of the device's unit with view on the dispatch alarms
    const unitUser = await login(t.app, ...(await alarmViewerIn('440304000000')));
    expect(sosOf((await api<DevicePoint[]>(t.app, 'gisGetPoint', unitUser, { ids: [d.id] })).data, d.id)).toBe(1);
  });

  it('is 0 for a user without view on the dispatch alarms (10104)', async () => {
    const d = await sosDevice();
    const points = await api<DevicePoint[]>(t.app, 'gisGetPoint', viewer, { ids: [d.id] });
    expect(points).toMatchObject({ code: 200, data: [{ id: d.id, sos: 0 }] });
  });

  it('ends when the alarm is acknowledged', async () => {
    const d = await sosDevice();
    const alarm = await t.db
      .selectFrom('alarms')
      .select('id')
      .where('device_id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(await api(t.app, 'alarmSure', admin, { ids: [Number(alarm.id)], note: 'handled' })).toMatchObject({
      code: 200,
    });
    const points = await api<DevicePoint[]>(t.app, 'gisGetPoint', dispatcher, { ids: [d.id] });
    expect(points.data[0]).toMatchObject({ id: d.id, sos: 0 });
  });

  it('ends when the SOS is older than MAP_SOS_WINDOW_MS', async () => {
    const d = await addDevice(t.app, admin, futian);
    const auth = await deviceLogin(t.app, d);
    const old = new Date(Date.now() - MAP_SOS_WINDOW_MS - 60_000).toISOString();
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/device/api/sos',
      headers: auth,
      payload: { time: old, lat: 22.54, lng: 114.05 },
    });
    expect(res.json()).toMatchObject({ code: 200 });
    expect(
      await t.db.selectFrom('alarms').select(['alarm_time', 'sure']).where('device_id', '=', d.id).execute(),
    ).toEqual([{ alarm_time: old, sure: 0 }]);
    const points = await api<DevicePoint[]>(t.app, 'gisGetPoint', dispatcher, { ids: [d.id] });
    expect(points.data[0]).toMatchObject({ id: d.id, sos: 0 });
  });
});

/** A user of unit `bh` with view on Emergency and on the dispatch alarms: [username, password]. */
async function alarmViewerIn(bh: string): Promise<[string, string]> {
  const role = await createRole(t.db, `sos viewers ${bh}`, [
    { ids: [MenuId.EMERGENCY, MenuId.DISPATCH_ALARM], actions: ['view'] },
  ]);
  const u = await createUser(t.db, { roleId: role, unitBh: bh });
  return [u.username, u.password];
}

describe('commands', () => {
  it('send_cmd queues a known type; an unknown type is refused naming the field', async () => {
    const env = await api<{ command_id: number }>(
      t.app,
      'gisSendCmd',
      dispatcher,
      { imei: inFutian.imei, type: 'startvideo' },
      'en-US',
    );
    expect(env).toMatchObject({ code: 200, msg: 'Command sent', data: { type: 'startvideo' } });
    expect(
      await api(t.app, 'gisSendCmd', dispatcher, { imei: inFutian.imei, type: 'selfdestruct' }, 'en-US'),
    ).toMatchObject({
      code: 400,
      msg: 'Field type: Unknown command type; allowed: turnleft, turnright, takephoto, startvideo, startaudio, stopaudio, startmute, stopmute.',
    });
    expect(
      (await api<DeviceStatus>(t.app, 'gisStatus', dispatcher, { imei: inFutian.imei })).data.pending_commands,
    ).toBe(1);
    expect((await auditRows(t.db, '/rest/gis/gismoni/send_cmd'))[0]).toMatchObject({ result_code: 400 });
  });

  it('send_restart needs imei and hostbody of the same device', async () => {
    expect(
      await api(t.app, 'gisSendRestart', dispatcher, { imei: inFutian.imei, hostbody: inLuohu.hostbody }, 'en-US'),
    ).toMatchObject({
      code: 400,
      msg: `The IMEI ${inFutian.imei} and the device number ${inLuohu.hostbody} are not the same device`,
    });
    const ok = await api<{ command_id: number; type: string }>(t.app, 'gisSendRestart', futianDispatcher, {
      imei: inFutian.imei,
      hostbody: inFutian.hostbody,
    });
    expect(ok).toMatchObject({ code: 200, data: { type: 'restart' } });
    const row = await t.db
      .selectFrom('device_commands')
      .selectAll()
      .where('id', '=', ok.data.command_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ device_id: inFutian.id, type: 'restart', status: 'pending' });
  });

  it('remote kill then wake changes the flags as the spec says (code 200)', async () => {
    const remote = t.app.bus.once('device.remote');
    const kill = await api<RemoteKillAnswer>(t.app, 'gisRemoteKill', futianDispatcher, {
      imei: inFutian.imei,
      action: 'remote_kill',
    });
    expect(String(kill.code)).toBe('200');
    expect(kill.data).toMatchObject({ remote_kill: 1, lineon: 0, typecate: [1, 0, 0, 0] });
    expect(await remote).toMatchObject({ device_id: inFutian.id, action: 'remote_kill' });
    expect(await deviceRow(t.db, inFutian.id)).toMatchObject({ remote_kill: 1, lineon: 0, typecate: '[1,0,0,0]' });
    const point = (await api<DevicePoint[]>(t.app, 'gisGetPoint', dispatcher, { ids: [inFutian.id] })).data[0];
    expect(point).toMatchObject({ remote_kill: 1, lineon: 0, typecate: [1, 0, 0, 0] });

    const wake = await api<RemoteKillAnswer>(t.app, 'gisRemoteKill', futianDispatcher, {
      imei: inFutian.imei,
      action: 'remote_wakeon',
    });
    expect(String(wake.code)).toBe('200');
    expect(wake.data).toMatchObject({ remote_kill: 0, lineon: 1, typecate: [1, 1, 1, 1] });
    expect(await deviceRow(t.db, inFutian.id)).toMatchObject({ remote_kill: 0, lineon: 1, typecate: '[1,1,1,1]' });
    const types = await t.db
      .selectFrom('device_commands')
      .select('type')
      .where('device_id', '=', inFutian.id)
      .orderBy('id')
      .execute();
    expect(types.map((r) => r.type).slice(-2)).toEqual(['remote_kill', 'remote_wakeon']);
    const events = await t.db
      .selectFrom('device_events')
      .select('type')
      .where('device_id', '=', inFutian.id)
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.type).slice(-2)).toEqual(['remote_kill', 'remote_wakeon']);
    expect(
      await api(t.app, 'gisRemoteKill', dispatcher, { imei: inFutian.imei, action: 'explode' }, 'en-US'),
    ).toMatchObject({
      code: 400,
      msg: 'Field action: The action must be remote_kill or remote_wakeon.',
    });
  });
});
