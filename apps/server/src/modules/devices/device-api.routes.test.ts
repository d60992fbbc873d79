import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeviceCommand, Envelope, PositionBatchAnswer, ProvisionAnswer } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { createTestApp, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import type { DomainEvents } from '../../bus';
import { PROVISION_KEY_FILE } from './device-api.routes';
import { buildOsmandServer } from './osmand';
import { addDevice, deviceLogin, deviceRow, testImei, unitIdOf, type CreatedDevice } from '../../../test/devices';

let t: TestApp;
let admin: Session;
let futian: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
});
afterAll(async () => t.close());

async function post<T>(url: string, payload: unknown, headers: Record<string, string> = {}): Promise<Envelope<T>> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers: { 'x-lang': 'en-US', ...headers },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as Envelope<T>;
}
async function get<T>(url: string, headers: Record<string, string> = {}): Promise<Envelope<T>> {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-lang': 'en-US', ...headers } });
  return res.json() as Envelope<T>;
}

function collect<K extends keyof DomainEvents>(
  app: FastifyInstance,
  event: K,
): { list: DomainEvents[K][]; off: () => void } {
  const list: DomainEvents[K][] = [];
  const off = app.bus.on(event, (p) => list.push(p));
  return { list, off };
}

const CREDENTIALS = { code: 401, msg: 'Device authentication failed: wrong device number or secret' };

describe('device credentials', () => {
  let d: CreatedDevice;
  beforeAll(async () => {
    d = await addDevice(t.app, admin, futian);
  });

  it('refuses a wrong secret, an unknown device and calls without credentials', async () => {
    expect(await post('/rest/device/api/login', { device: d.hostbody, secret: 'wrong' })).toMatchObject(CREDENTIALS);
    expect(await post('/rest/device/api/login', { device: 'NOSUCH', secret: d.secret })).toMatchObject(CREDENTIALS);
    expect(
      await post('/rest/device/api/positions', { positions: [{ time: Date.now(), lat: 1, lng: 1 }] }),
    ).toMatchObject(CREDENTIALS);
    expect(
      await post(
        '/rest/device/api/positions',
        { positions: [{ time: Date.now(), lat: 1, lng: 1 }] },
        { authorization: 'Bearer nope' },
      ),
    ).toMatchObject(CREDENTIALS);
    const badBasic = `Basic ${Buffer.from(`${d.hostbody}:wrong`).toString('base64')}`;
    expect(await post('/rest/device/api/sos', {}, { authorization: badBasic })).toMatchObject(CREDENTIALS);
    expect(await get('/rest/device/api/commands', { authorization: badBasic })).toMatchObject(CREDENTIALS);
    expect(await get('/rest/device/api/config')).toMatchObject(CREDENTIALS);
    // a console session is no device credential
    expect(await post('/rest/device/api/status', { state: 'online' }, admin.headers)).toMatchObject(CREDENTIALS);
    expect((await deviceRow(t.db, d.id)).lineon).toBe(0);
  });

  it('logs in by hostbody or imei; a new login replaces the old token; Basic works too', async () => {
    const first = await deviceLogin(t.app, d);
    const byImei = await post<{ token: string; id: number }>('/rest/device/api/login', {
      device: d.imei,
      secret: d.secret,
    });
    expect(byImei).toMatchObject({ code: 200, data: { id: d.id, hostbody: d.hostbody, imei: d.imei } });
    expect(await get('/rest/device/api/config', first)).toMatchObject(CREDENTIALS);
    expect(await get('/rest/device/api/config', { authorization: `Bearer ${byImei.data.token}` })).toMatchObject({
      code: 200,
      data: { gpscenter_lon: 114.0579, gpscenter_lat: 22.5431, silence_timeout_s: 60, position_batch_max: 500 },
    });
    const basic = `Basic ${Buffer.from(`${d.hostbody}:${d.secret}`).toString('base64')}`;
    expect(await get('/rest/device/api/config', { authorization: basic })).toMatchObject({ code: 200 });
  });
});

describe('positions', () => {
  it('stores a batch in history, keeps the latest per device, rejects bad items one by one', async () => {
    const d = await addDevice(t.app, admin, futian);
    const online = collect(t.app, 'device.online');
    const auth = await deviceLogin(t.app, d);
    const events = collect(t.app, 'positions');
    const base = Date.parse('2026-01-01T08:00:00Z');
    const env = await post<PositionBatchAnswer>(
      '/rest/device/api/positions',
      {
        positions: [
          { time: base, lat: 22.5, lng: 114.05, speed: 4.5, course: 90, accuracy: 5, battery: 80 },
          { time: base + 1000, lat: 91, lng: 114.05 },
          { time: new Date(base + 2000).toISOString(), lat: 22.501, lng: 114.051, battery: 79 },
          { time: base + 3000, lat: 22.5, lng: 181 },
          { time: 'yesterday', lat: 22.5, lng: 114 },
          { lat: 22.5, lng: 114 },
          'junk',
        ],
      },
      auth,
    );
    events.off();
    online.off();
    expect(env).toMatchObject({ code: 200, msg: 'Accepted' });
    expect(env.data.accepted).toBe(2);
    expect(env.data.rejected).toEqual([
      { index: 1, field: 'positions.1.lat', msg: 'Field positions.1.lat: Latitude must be between -90 and 90.' },
      { index: 3, field: 'positions.3.lng', msg: 'Field positions.3.lng: Longitude must be between -180 and 180.' },
      { index: 4, field: 'positions.4.time', msg: 'Positions.4.time is not a valid date and time.' },
      { index: 5, field: 'positions.5.time', msg: 'Positions.5.time is required.' },
      { index: 6, field: 'positions.6', msg: 'Positions.6 has the wrong type.' },
    ]);
    const rows = await t.db.selectFrom('positions').selectAll().where('device_id', '=', d.id).orderBy('time').execute();
    expect(rows.map((r) => [r.time, r.lat, r.lng, r.speed, r.battery])).toEqual([
      ['2026-01-01T08:00:00.000Z', 22.5, 114.05, 4.5, 80],
      ['2026-01-01T08:00:02.000Z', 22.501, 114.051, null, 79],
    ]);
    const dev = await deviceRow(t.db, d.id);
    expect(dev).toMatchObject({
      lat: 22.501,
      lng: 114.051,
      gps_time: '2026-01-01T08:00:02.000Z',
      battery: 79,
      lineon: 1,
    });
    expect(dev.last_seen).not.toBeNull();
    expect(events.list.flatMap((e) => e.positions).filter((p) => p.device_id === d.id)).toHaveLength(2);
    expect(online.list.map((e) => e.device_id)).toContain(d.id);
    // an older fix goes to history but does not move the latest position
    await post('/rest/device/api/positions', { positions: [{ time: base - 60_000, lat: 1, lng: 1 }] }, auth);
    expect(await deviceRow(t.db, d.id)).toMatchObject({ lat: 22.501, gps_time: '2026-01-01T08:00:02.000Z' });
  });

  it('refuses a malformed batch as a whole with a named field (never a 500)', async () => {
    const d = await addDevice(t.app, admin, futian);
    const auth = await deviceLogin(t.app, d);
    expect(await post('/rest/device/api/positions', {}, auth)).toMatchObject({
      code: 400,
      msg: 'Positions are required.',
    });
    expect(await post('/rest/device/api/positions', { positions: [] }, auth)).toMatchObject({
      code: 400,
      msg: 'Positions are required.',
    });
    const many = Array.from({ length: 501 }, () => ({ time: Date.now(), lat: 1, lng: 1 }));
    expect(await post('/rest/device/api/positions', { positions: many }, auth)).toMatchObject({
      code: 400,
      msg: 'Positions are too long.',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/device/api/positions',
      payload: '{bad',
      headers: { ...auth, 'content-type': 'application/json', 'x-lang': 'en-US' },
    });
    expect(res.json()).toMatchObject({ code: 400 });
  });

  it('writes concurrent batches of many devices (group commit) and persists every accepted one', async () => {
    const devices = await Promise.all(Array.from({ length: 8 }, () => addDevice(t.app, admin, futian)));
    const auths = await Promise.all(devices.map((d) => deviceLogin(t.app, d)));
    const before = t.app.devices.stats.flushes;
    const answers = await Promise.all(
      auths.flatMap((auth, i) =>
        [0, 1, 2].map((k) =>
          post<PositionBatchAnswer>(
            '/rest/device/api/positions',
            {
              positions: Array.from({ length: 10 }, (_, j) => ({
                time: Date.parse('2026-02-01T00:00:00Z') + (k * 10 + j) * 1000,
                lat: 22 + i / 100,
                lng: 114 + j / 1000,
              })),
            },
            auth,
          ),
        ),
      ),
    );
    expect(answers.every((a) => a.code === 200 && a.data.accepted === 10)).toBe(true);
    const n = await t.db
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(
        'device_id',
        'in',
        devices.map((d) => d.id),
      )
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(240);
    // fewer transactions than requests
    expect(t.app.devices.stats.flushes - before).toBeLessThan(24);
  });
});

describe('a device deleted while its upload is queued', () => {
  it('never fails the other uploads of the same flush, nor answers a server error', async () => {
    const [a, b] = [await addDevice(t.app, admin, futian), await addDevice(t.app, admin, futian)];
    const [authA, authB] = [await deviceLogin(t.app, a), await deviceLogin(t.app, b)];
    // queue both uploads in the same group commit, then delete device a underneath
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = t.db.transaction().execute(async (trx) => {
      await trx.updateTable('devices').set({ remark: 'held' }).where('id', '=', b.id).execute();
      await gate;
      await trx.deleteFrom('devices').where('id', '=', a.id).execute();
    });
    await new Promise((r) => setTimeout(r, 30));
    const upA = post('/rest/device/api/positions', { positions: [{ time: Date.now(), lat: 1, lng: 1 }] }, authA);
    const upB = post<PositionBatchAnswer>(
      '/rest/device/api/positions',
      { positions: [{ time: Date.now(), lat: 2, lng: 2 }] },
      authB,
    );
    await new Promise((r) => setTimeout(r, 50));
    release();
    await held;
    expect(await upB).toMatchObject({ code: 200, data: { accepted: 1 } });
    // SQLite: the flush waits for the deletion, device a's upload is refused as not found;
    // PostgreSQL: the deletion waits for the flush, then removes a with its positions
    const a1 = await upA;
    if (a1.code !== 200) expect(a1).toMatchObject({ code: 404, msg: 'No such device' });
    expect(await t.db.selectFrom('positions').select('id').where('device_id', '=', a.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('positions').select('lat').where('device_id', '=', b.id).execute()).toEqual([
      { lat: 2 },
    ]);
    t.app.devices.invalidate(a.id);
  });
});

describe('positions while another transaction holds the database', () => {
  it('waits for it (no error, no deadlock) and stores everything once it commits', async () => {
    const d = await addDevice(t.app, admin, futian);
    const auth = await deviceLogin(t.app, d);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = t.db.transaction().execute(async (trx) => {
      await trx.updateTable('devices').set({ remark: 'held' }).where('id', '=', d.id).execute();
      await gate;
    });
    await new Promise((r) => setTimeout(r, 30));
    let answered = false;
    const upload = post<PositionBatchAnswer>(
      '/rest/device/api/positions',
      { positions: [{ time: Date.now(), lat: 22.7, lng: 114.2 }] },
      auth,
    ).then((env) => {
      answered = true;
      return env;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(answered).toBe(false);
    release();
    await held;
    expect(await upload).toMatchObject({ code: 200, data: { accepted: 1 } });
    expect(await deviceRow(t.db, d.id)).toMatchObject({ remark: 'held', lat: 22.7, lng: 114.2 });
  });
});

describe('SOS, online/offline and the silence timeout', () => {
  it('records an SOS as a device event and emits device.sos with the last position', async () => {
    const d = await addDevice(t.app, admin, futian);
    const auth = await deviceLogin(t.app, d);
    await post('/rest/device/api/positions', { positions: [{ time: Date.now(), lat: 22.6, lng: 114.1 }] }, auth);
    const sos = t.app.bus.once('device.sos');
    const env = await post<{ event_id: number }>('/rest/device/api/sos', { message: 'help' }, auth);
    expect(env.code).toBe(200);
    expect(await sos).toMatchObject({
      device_id: d.id,
      unit_id: futian,
      hostbody: d.hostbody,
      imei: d.imei,
      event_id: env.data.event_id,
      lat: 22.6,
      lng: 114.1,
      message: 'help',
    });
    const row = await t.db
      .selectFrom('device_events')
      .selectAll()
      .where('id', '=', env.data.event_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ device_id: d.id, type: 'sos', lat: 22.6, lng: 114.1 });
    expect(await post('/rest/device/api/sos', { lat: 95 }, auth)).toMatchObject({
      code: 400,
      msg: 'Field lat: Latitude must be between -90 and 90.',
    });
  });

  it('follows the device status messages', async () => {
    const d = await addDevice(t.app, admin, futian);
    const auth = await deviceLogin(t.app, d);
    expect((await deviceRow(t.db, d.id)).lineon).toBe(1);
    const off = t.app.bus.once('device.offline');
    expect(await post('/rest/device/api/status', { state: 'offline', battery: 12 }, auth)).toMatchObject({ code: 200 });
    expect(await off).toMatchObject({ device_id: d.id, reason: 'device' });
    expect(await deviceRow(t.db, d.id)).toMatchObject({ lineon: 0, battery: 12 });
    expect(await post('/rest/device/api/status', { state: 'online' }, auth)).toMatchObject({ code: 200 });
    expect((await deviceRow(t.db, d.id)).lineon).toBe(1);
    expect(await post('/rest/device/api/status', { state: 'asleep' }, auth)).toMatchObject({
      code: 400,
      msg: 'State is not one of the allowed choices.',
    });
    const types = await t.db
      .selectFrom('device_events')
      .select('type')
      .where('device_id', '=', d.id)
      .orderBy('id')
      .execute();
    expect(types.map((r) => r.type)).toEqual(['online', 'offline', 'online']);
  });

  it('marks silent devices offline after the configured timeout', async () => {
    expect(await api(t.app, 'deviceSettingsUpdate', admin, { silence_timeout_s: 30 })).toMatchObject({ code: 200 });
    const d = await addDevice(t.app, admin, futian);
    const auth = await deviceLogin(t.app, d);
    await post('/rest/device/api/positions', { positions: [{ time: Date.now(), lat: 22.6, lng: 114.1 }] }, auth);
    expect((await deviceRow(t.db, d.id)).lineon).toBe(1);
    const events = collect(t.app, 'device.offline');
    expect(await t.app.devices.sweep(Date.now() + 20_000)).not.toContain(d.id);
    expect((await deviceRow(t.db, d.id)).lineon).toBe(1);
    expect(await t.app.devices.sweep(Date.now() + 31_000)).toContain(d.id);
    events.off();
    expect((await deviceRow(t.db, d.id)).lineon).toBe(0);
    expect(events.list.find((e) => e.device_id === d.id)).toMatchObject({ reason: 'silence', hostbody: d.hostbody });
    // the next message brings it back
    await post('/rest/device/api/positions', { positions: [{ time: Date.now(), lat: 22.6, lng: 114.1 }] }, auth);
    expect((await deviceRow(t.db, d.id)).lineon).toBe(1);
    await api(t.app, 'deviceSettingsUpdate', admin, { silence_timeout_s: 60 });
  });
});

describe('commands', () => {
  it('hands queued commands to the device (long poll wakes up) and takes acknowledgements', async () => {
    const d = await addDevice(t.app, admin, futian);
    const auth = await deviceLogin(t.app, d);
    expect(await get<DeviceCommand[]>('/rest/device/api/commands', auth)).toMatchObject({ code: 200, data: [] });
    const poll = get<DeviceCommand[]>('/rest/device/api/commands?wait=10', auth);
    await new Promise((r) => setTimeout(r, 50));
    const sent = await api<{ command_id: number }>(t.app, 'gisSendCmd', admin, { imei: d.imei, type: 'takephoto' });
    expect(sent).toMatchObject({ code: 200, msg: '指令已发送', data: { type: 'takephoto' } });
    const got = await poll;
    expect(got.data).toEqual([{ id: sent.data.command_id, type: 'takephoto', created: expect.any(String) }]);
    // delivered, not acknowledged: not handed out again at once
    expect((await get<DeviceCommand[]>('/rest/device/api/commands', auth)).data).toEqual([]);
    expect(await post('/rest/device/api/commands/ack', { id: sent.data.command_id, result: 'ok' }, auth)).toMatchObject(
      { code: 200 },
    );
    const row = await t.db
      .selectFrom('device_commands')
      .selectAll()
      .where('id', '=', sent.data.command_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ok', type: 'takephoto' });
    expect(row.acked).not.toBeNull();
    // another device cannot acknowledge it
    const other = await addDevice(t.app, admin, futian);
    expect(
      await post('/rest/device/api/commands/ack', { id: sent.data.command_id }, await deviceLogin(t.app, other)),
    ).toMatchObject({
      code: 404,
      msg: `Command ${sent.data.command_id} does not exist or belongs to another device`,
    });
    expect(await get('/rest/device/api/commands?wait=99', auth)).toMatchObject({
      code: 400,
      msg: 'Wait is out of the allowed range.',
    });
  });

  it('a killed device gets its positions refused until woken', async () => {
    const d = await addDevice(t.app, admin, futian);
    const auth = await deviceLogin(t.app, d);
    expect(await api(t.app, 'gisRemoteKill', admin, { imei: d.imei, action: 'remote_kill' })).toMatchObject({
      code: 200,
    });
    expect(
      await post('/rest/device/api/positions', { positions: [{ time: Date.now(), lat: 1, lng: 1 }] }, auth),
    ).toMatchObject({
      code: 423,
      msg: 'The device is remotely killed and accepts no data until it is woken',
    });
    const cmds = await get<DeviceCommand[]>('/rest/device/api/commands', auth);
    expect(cmds.data.map((c) => c.type)).toEqual(['remote_kill']);
    expect((await deviceRow(t.db, d.id)).lineon).toBe(0);
    expect(await api(t.app, 'gisRemoteKill', admin, { imei: d.imei, action: 'remote_wakeon' })).toMatchObject({
      code: 200,
    });
    expect(
      await post('/rest/device/api/positions', { positions: [{ time: Date.now(), lat: 1, lng: 1 }] }, auth),
    ).toMatchObject({ code: 200 });
  });
});

describe('provisioning', () => {
  it('needs the provisioning key (demo: generated in DATA_DIR)', async () => {
    const key = readFileSync(join(t.config.dataDir, PROVISION_KEY_FILE), 'utf8').trim();
    const body = { devices: [{ hostbody: 'SIM90001', imei: testImei(), hostname: 'sim 1' }] };
    expect(await post('/rest/device/api/provision', body)).toMatchObject({
      code: 401,
      msg: 'Wrong device provisioning key',
    });
    expect(await post('/rest/device/api/provision', body, { authorization: 'Bearer wrong-key' })).toMatchObject({
      code: 401,
    });
    const ok = await post<ProvisionAnswer>('/rest/device/api/provision', body, { authorization: `Bearer ${key}` });
    expect(ok).toMatchObject({ code: 200, data: { config: { gpscenter_lon: 114.0579 } } });
    const [first] = ok.data.devices;
    expect(first).toMatchObject({ hostbody: 'SIM90001' });
    expect(await post('/rest/device/api/login', { device: 'SIM90001', secret: first!.secret })).toMatchObject({
      code: 200,
    });
    // again: same device, new secret
    const again = await post<ProvisionAnswer>('/rest/device/api/provision', body, { authorization: `Bearer ${key}` });
    expect(again.data.devices[0]!.id).toBe(first!.id);
    expect(await post('/rest/device/api/login', { device: 'SIM90001', secret: first!.secret })).toMatchObject(
      CREDENTIALS,
    );
    expect(
      await post(
        '/rest/device/api/provision',
        { devices: [{ hostbody: 'SIM90002', imei: '1', hostname: 'x' }] },
        { authorization: `Bearer ${key}` },
      ),
    ).toMatchObject({
      code: 400,
      msg: 'Field devices.0.imei: The IMEI must be 15 digits with a valid check digit.',
    });
  });

  it("demo: devices with a cluster number join their district's talk group, made once", async () => {
    const key = readFileSync(join(t.config.dataDir, PROVISION_KEY_FILE), 'utf8').trim();
    const futian = await t.db
      .selectFrom('units')
      .select(['id', 'name'])
      .where('bh', '=', '440304000000')
      .executeTakeFirstOrThrow();
    const body = {
      devices: [
        {
          hostbody: 'SIM91001',
          imei: testImei(),
          hostname: 'talker 1',
          jq_hostcode: '891001',
          unit_bh: '440304000000',
        },
        {
          hostbody: 'SIM91002',
          imei: testImei(),
          hostname: 'talker 2',
          jq_hostcode: '891002',
          unit_bh: '440304000000',
        },
        { hostbody: 'SIM91003', imei: testImei(), hostname: 'no trunk', unit_bh: '440304000000' },
      ],
    };
    const membersOfDemoGroup = async () => {
      const groups = await t.db
        .selectFrom('talk_groups')
        .select(['id', 'preconfig'])
        .where('unit_id', '=', futian.id)
        .where('name', '=', `${futian.name}对讲组`)
        .execute();
      expect(groups).toHaveLength(1);
      expect(groups[0]!.preconfig).toBe(1);
      const rows = await t.db
        .selectFrom('talk_group_members as m')
        .innerJoin('devices as d', 'd.id', 'm.device_id')
        .select('d.hostbody')
        .where('m.group_id', '=', groups[0]!.id)
        .orderBy('d.hostbody')
        .execute();
      return rows.map((r) => r.hostbody);
    };
    expect(await post('/rest/device/api/provision', body, { authorization: `Bearer ${key}` })).toMatchObject({
      code: 200,
    });
    expect(await membersOfDemoGroup()).toEqual(['SIM91001', 'SIM91002']);
    // provisioned again (the next npm start): the same group, no member twice
    expect(await post('/rest/device/api/provision', body, { authorization: `Bearer ${key}` })).toMatchObject({
      code: 200,
    });
    expect(await membersOfDemoGroup()).toEqual(['SIM91001', 'SIM91002']);
  });

  it('is off outside demo mode without DEVICE_PROVISION_KEY', async () => {
    const other = await createTestApp({ demo: false });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: '/rest/device/api/provision',
        payload: { devices: [{ hostbody: 'SIMX', imei: testImei(), hostname: 'x' }] },
        headers: { authorization: 'Bearer anything-at-all', 'x-lang': 'en-US' },
      });
      expect(res.json()).toMatchObject({
        code: 403,
        msg: 'Device provisioning is off (no provisioning key configured)',
      });
    } finally {
      await other.close();
    }
  });
});

describe('OsmAnd (Traccar Client)', () => {
  let osmand: FastifyInstance;
  beforeAll(async () => {
    osmand = await buildOsmandServer({ runtime: t.app.devices, log: t.app.log });
  });
  afterAll(async () => osmand.close());

  it('stores a GET fix by imei and a POST fix by hostbody (speed knots -> km/h)', async () => {
    const d = await addDevice(t.app, admin, futian);
    const res = await osmand.inject({
      method: 'GET',
      url: `/?id=${d.imei}&lat=22.55&lon=114.06&timestamp=1767225600&speed=10&bearing=45&batt=66&accuracy=8`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    const post2 = await osmand.inject({
      method: 'POST',
      url: `/?id=${d.hostbody}&lat=22.56&lon=114.07&timestamp=2026-01-01%2000:00:10`,
    });
    expect(post2.statusCode).toBe(200);
    const rows = await t.db.selectFrom('positions').selectAll().where('device_id', '=', d.id).orderBy('time').execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      time: '2026-01-01T00:00:00.000Z',
      lat: 22.55,
      lng: 114.06,
      course: 45,
      battery: 66,
      accuracy: 8,
    });
    expect(rows[0]!.speed).toBeCloseTo(18.52, 5);
    expect(rows[1]).toMatchObject({ time: '2026-01-01T00:00:10.000Z', lat: 22.56 });
    expect(await deviceRow(t.db, d.id)).toMatchObject({ lineon: 1, lat: 22.56, lng: 114.07 });
  });

  it('takes the JSON body of Traccar Client 8', async () => {
    const d = await addDevice(t.app, admin, futian);
    const res = await osmand.inject({
      method: 'POST',
      url: '/',
      payload: {
        device_id: d.imei,
        location: {
          timestamp: '2026-01-02T00:00:00Z',
          coords: { latitude: 22.5, longitude: 114, speed: 2, heading: 180, accuracy: 4 },
          battery: { level: 0.5 },
        },
      },
    });
    expect(res.statusCode).toBe(200);
    const row = await t.db.selectFrom('positions').selectAll().where('device_id', '=', d.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      time: '2026-01-02T00:00:00.000Z',
      lat: 22.5,
      lng: 114,
      speed: 7.2,
      course: 180,
      battery: 50,
    });
  });

  it('answers 400 for latitude 91 or no id, 404 for an unknown id, 423 when killed', async () => {
    const d = await addDevice(t.app, admin, futian);
    const bad = await osmand.inject({
      method: 'GET',
      url: `/?id=${d.imei}&lat=91&lon=114`,
      headers: { 'x-lang': 'en-US' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toBe('Field lat: Latitude must be between -90 and 90.');
    const noId = await osmand.inject({ method: 'GET', url: '/?lat=1&lon=1', headers: { 'x-lang': 'en-US' } });
    expect([noId.statusCode, noId.body]).toEqual([400, 'Id is required.']);
    const unknown = await osmand.inject({
      method: 'GET',
      url: '/?id=000000&lat=1&lon=1',
      headers: { 'x-lang': 'en-US' },
    });
    expect([unknown.statusCode, unknown.body]).toEqual([404, 'No such device']);
    await api(t.app, 'gisRemoteKill', admin, { imei: d.imei, action: 'remote_kill' });
    const killed = await osmand.inject({ method: 'GET', url: `/?id=${d.imei}&lat=1&lon=1` });
    expect(killed.statusCode).toBe(423);
    expect(await t.db.selectFrom('positions').select('id').where('device_id', '=', d.id).execute()).toHaveLength(0);
  });
});
