import { MenuId, type Fence, type FenceEvent, type Page, type Zone } from '@bwc/protocol';
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
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../test/devices';
import type { FenceCrossedEvent } from './fence-engine';

let t: TestApp;
let admin: Session;
/** fences 10441 + zones 10442 view/edit/add, unit FUTIAN */
let futianAdmin: Session;
/** fences view only */
let viewer: Session;
/** no rights */
let nobody: Session;
let futian: number;
let luohu: number;
let inFutian: CreatedDevice;
let inLuohu: CreatedDevice;

// a ~1.1 km square around (114.05, 22.54)
const square = [
  { lng: 114.045, lat: 22.535 },
  { lng: 114.055, lat: 22.535 },
  { lng: 114.055, lat: 22.545 },
  { lng: 114.045, lat: 22.545 },
];
const INSIDE = { lng: 114.05, lat: 22.54 };
const OUTSIDE = { lng: 114.07, lat: 22.54 };

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
  luohu = await unitIdOf(t.db, '440303000000');
  const role = await createRole(t.db, 'fence admins', [
    { ids: [MenuId.ELECTRONIC_FENCE, MenuId.ZONES], actions: ['view', 'edit', 'add'] },
  ]);
  const u1 = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
  futianAdmin = await login(t.app, u1.username, u1.password);
  const viewRole = await createRole(t.db, 'fence viewers', [{ ids: [MenuId.ELECTRONIC_FENCE], actions: ['view'] }]);
  const u2 = await createUser(t.db, { roleId: viewRole });
  viewer = await login(t.app, u2.username, u2.password);
  const u3 = await createUser(t.db, {});
  nobody = await login(t.app, u3.username, u3.password);
  inFutian = await addDevice(t.app, admin, futian);
  inLuohu = await addDevice(t.app, admin, luohu);
});
afterAll(async () => t.close());

const fenceBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Civic centre',
  rule: 'both',
  shape: { type: 'polygon', points: square },
  ...extra,
});

async function send(d: CreatedDevice, points: { lng: number; lat: number; time: number }[]) {
  const auth = await deviceLogin(t.app, d);
  const res = await t.app.inject({
    method: 'POST',
    url: '/rest/device/api/positions',
    headers: auth,
    payload: { positions: points },
  });
  expect(res.json()).toMatchObject({ code: 200, data: { accepted: points.length } });
  await t.app.devices.drain();
  await t.app.fences.idle();
}

describe('auth and scope', () => {
  const reads = ['fenceList', 'fenceEvents'] as const;
  it.each([...reads, 'fenceAdd', 'fenceUpdate', 'fenceDelete', 'zoneList', 'zoneAdd'] as const)(
    '%s: 401 without a session',
    async (name) => {
      expect(await api(t.app, name, null, { id: 1, ...fenceBody() }, 'en-US')).toMatchObject({
        code: 401,
        msg: 'Please log in first',
      });
    },
  );
  it('403 without the menu, and add/edit need their action', async () => {
    expect(await api(t.app, 'fenceList', nobody, {}, 'en-US')).toMatchObject({
      code: 403,
      msg: 'Permission denied: this needs "view" on menu 10441',
    });
    expect(await api(t.app, 'zoneList', viewer, {}, 'en-US')).toMatchObject({
      code: 403,
      msg: 'Permission denied: this needs "view" on menu 10442',
    });
    expect(await api(t.app, 'fenceAdd', viewer, fenceBody(), 'en-US')).toMatchObject({
      code: 403,
      msg: 'Permission denied: this needs "add" on menu 10441',
    });
    expect(await api(t.app, 'fenceDelete', viewer, { id: 1 }, 'en-US')).toMatchObject({
      code: 403,
      msg: 'Permission denied: this needs "edit" on menu 10441',
    });
    expect(await t.db.selectFrom('geo_fences').selectAll().execute()).toHaveLength(0);
  });
  it("out of unit scope: owner unit, target device and another unit's fence are refused", async () => {
    const msg = 'This data belongs to a unit outside your unit and its sub-units';
    expect(await api(t.app, 'fenceAdd', futianAdmin, fenceBody({ unit_id: luohu }), 'en-US')).toMatchObject({
      code: 403,
      msg,
    });
    expect(await api(t.app, 'fenceAdd', futianAdmin, fenceBody({ device_ids: [inLuohu.id] }), 'en-US')).toMatchObject({
      code: 403,
      msg,
    });
    const other = await api<Fence>(t.app, 'fenceAdd', admin, fenceBody({ name: 'Luohu', unit_id: luohu }));
    expect(other.code).toBe(200);
    expect(await api(t.app, 'fenceUpdate', futianAdmin, { id: other.data.id, ...fenceBody() }, 'en-US')).toMatchObject({
      code: 403,
      msg,
    });
    expect(await api(t.app, 'fenceDelete', futianAdmin, { id: other.data.id }, 'en-US')).toMatchObject({
      code: 403,
      msg,
    });
    const list = await api<Fence[]>(t.app, 'fenceList', futianAdmin, {});
    expect(list.data.map((f) => f.id)).not.toContain(other.data.id);
    expect(await api(t.app, 'fenceDelete', admin, { id: other.data.id })).toMatchObject({ code: 200 });
  });
});

describe('bad input', () => {
  it.each([
    [
      'two points',
      fenceBody({ shape: { type: 'polygon', points: square.slice(0, 2) } }),
      'Field shape.points: A polygon needs at least 3 points.',
    ],
    [
      'latitude 91',
      fenceBody({ shape: { type: 'polygon', points: [...square.slice(0, 3), { lng: 114.045, lat: 91 }] } }),
      'Field shape.points.3.lat: Latitude must be between -90 and 90.',
    ],
    [
      'a bow tie',
      fenceBody({ shape: { type: 'polygon', points: [square[0], square[2], square[1], square[3]] } }),
      "Field shape.points: The polygon's edges cross each other, please draw it again.",
    ],
    [
      'radius 0',
      fenceBody({ shape: { type: 'circle', center: INSIDE, radius: 0 } }),
      "Field shape.radius: The circle's radius must be greater than 0 and at most 100000 metres.",
    ],
    ['unknown rule', fenceBody({ rule: 'inside' }), 'Field rule: The alarm rule must be enter, exit or both.'],
    [
      'half a window',
      fenceBody({ time_start: '08:00' }),
      'Field time_end: Give both the start and the end of the time window, or neither.',
    ],
    ['no name', fenceBody({ name: '' }), 'Name is required.'],
  ])('%s is refused with the field named and nothing stored', async (_, body, msg) => {
    expect(await api(t.app, 'fenceAdd', admin, body, 'en-US')).toMatchObject({ code: 400, msg });
    expect(await t.db.selectFrom('geo_fences').selectAll().execute()).toHaveLength(0);
  });
  it('unknown device ids are named; the zh-CN msg too', async () => {
    expect(await api(t.app, 'fenceAdd', admin, fenceBody({ device_ids: [999999] }), 'en-US')).toMatchObject({
      code: 400,
      msg: 'Field device_ids: Devices 999999 do not exist.',
    });
    expect(
      await api(t.app, 'fenceAdd', admin, fenceBody({ shape: { type: 'polygon', points: square.slice(0, 2) } })),
    ).toMatchObject({ code: 400, msg: '字段 shape.points：多边形至少需要 3 个点' });
    expect(await api(t.app, 'fenceUpdate', admin, { id: 999999, ...fenceBody() }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'Electronic fence not found',
    });
  });
});

describe('CRUD', () => {
  it('add, list, update and delete a circle fence; audited', async () => {
    const added = await api<Fence>(
      t.app,
      'fenceAdd',
      futianAdmin,
      fenceBody({
        name: 'Circle',
        shape: { type: 'circle', center: INSIDE, radius: 300 },
        time_start: '22:00',
        time_end: '06:00',
      }),
      'en-US',
    );
    expect(added).toMatchObject({ code: 200, msg: 'Added successfully' });
    expect(added.data).toMatchObject({
      name: 'Circle',
      unit_id: futian,
      shape: { type: 'circle', radius: 300 },
      time_start: '22:00',
      time_end: '06:00',
      device_ids: [],
      enabled: 1,
    });
    const list = await api<Fence[]>(t.app, 'fenceList', viewer, { keyword: 'circ' });
    expect(list.data.map((f) => f.id)).toEqual([added.data.id]);
    const upd = await api<Fence>(t.app, 'fenceUpdate', futianAdmin, {
      id: added.data.id,
      ...fenceBody({ name: 'Circle 2', rule: 'enter', device_ids: [inFutian.id] }),
    });
    expect(upd.data).toMatchObject({
      name: 'Circle 2',
      rule: 'enter',
      shape: { type: 'polygon' },
      device_ids: [inFutian.id],
    });
    expect((await auditRows(t.db, '/rest/config/fence/update'))[0]).toMatchObject({
      result_code: 200,
      target: String(added.data.id),
    });
    expect(await api(t.app, 'fenceDelete', futianAdmin, { id: added.data.id })).toMatchObject({ code: 200 });
    expect((await api<Fence[]>(t.app, 'fenceList', admin, {})).data).toHaveLength(0);
  });

  it('answers name the target devices and units; a device deleted meanwhile is left out', async () => {
    const extra = await addDevice(t.app, admin, futian);
    const added = await api<Fence>(
      t.app,
      'fenceAdd',
      admin,
      fenceBody({ name: 'Named targets', device_ids: [inFutian.id, extra.id], unit_ids: [luohu] }),
    );
    expect(added.code).toBe(200);
    expect(added.data.targets).toEqual([
      { type: 'device', id: inFutian.id, name: `officer ${inFutian.hostbody}` },
      { type: 'device', id: extra.id, name: `officer ${extra.hostbody}` },
      { type: 'unit', id: luohu, name: '罗湖分局' },
    ]);
    expect(await api(t.app, 'deviceDelete', admin, { id: extra.id })).toMatchObject({ code: 200 });
    const listed = (await api<Fence[]>(t.app, 'fenceList', admin, { keyword: 'named' })).data;
    expect(listed.map((f) => [f.device_ids, f.targets.map((x) => x.id)])).toEqual([
      [[inFutian.id, extra.id], [inFutian.id, luohu]],
    ]);
    expect(await api(t.app, 'fenceDelete', admin, { id: added.data.id })).toMatchObject({ code: 200 });
  });

  it('zones: add with a rectangle, centre computed, update, delete', async () => {
    const z = await api<Zone>(t.app, 'zoneAdd', futianAdmin, {
      name: 'CBD',
      shape: { type: 'rectangle', sw: { lng: 114, lat: 22 }, ne: { lng: 114.2, lat: 22.4 } },
    });
    expect(z.code).toBe(200);
    expect(z.data.center.lng).toBeCloseTo(114.1, 9);
    expect(z.data.center.lat).toBeCloseTo(22.2, 9);
    expect(
      await api(
        t.app,
        'zoneAdd',
        futianAdmin,
        { name: 'bad', shape: { type: 'rectangle', sw: { lng: 114, lat: 91 }, ne: { lng: 114.2, lat: 22.4 } } },
        'en-US',
      ),
    ).toMatchObject({
      code: 400,
      msg: 'Field shape.sw.lat: Latitude must be between -90 and 90.',
    });
    const u = await api<Zone>(t.app, 'zoneUpdate', futianAdmin, {
      id: z.data.id,
      name: 'CBD 2',
      shape: { type: 'polygon', points: square },
    });
    expect(u.data).toMatchObject({ name: 'CBD 2', shape: { type: 'polygon' } });
    expect((await api<Zone[]>(t.app, 'zoneList', futianAdmin, {})).data.map((x) => x.name)).toEqual(['CBD 2']);
    expect((await api<Fence[]>(t.app, 'fenceList', admin, {})).data).toHaveLength(0);
    expect(await api(t.app, 'zoneDelete', futianAdmin, { id: z.data.id })).toMatchObject({ code: 200 });
  });
});

describe('crossing detection', () => {
  it('exactly one event per transition, domain event fence.crossed, rule and applies-to honoured', async () => {
    const both = await api<Fence>(t.app, 'fenceAdd', admin, fenceBody({ name: 'both', unit_id: futian }));
    const enterOnly = await api<Fence>(
      t.app,
      'fenceAdd',
      admin,
      fenceBody({ name: 'enter only', rule: 'enter', device_ids: [inFutian.id] }),
    );
    const otherDevice = await api<Fence>(
      t.app,
      'fenceAdd',
      admin,
      fenceBody({ name: 'luohu only', unit_ids: [luohu] }),
    );
    const disabled = await api<Fence>(t.app, 'fenceAdd', admin, fenceBody({ name: 'off', enabled: 0 }));
    for (const f of [both, enterOnly, otherDevice, disabled]) expect(f.code).toBe(200);
    const seen: FenceCrossedEvent[] = [];
    const off = t.app.bus.on('fence.crossed', (e) => seen.push(e));
    const t0 = Date.now() - 60_000;
    // first fix outside: sets the state, no event
    await send(inFutian, [{ ...OUTSIDE, time: t0 }]);
    expect(seen).toHaveLength(0);
    // in, in, in (one batch), then out, out, then in again across two batches
    await send(inFutian, [
      { ...INSIDE, time: t0 + 1000 },
      { ...INSIDE, time: t0 + 2000 },
      { lng: 114.051, lat: 22.541, time: t0 + 3000 },
    ]);
    await send(inFutian, [
      { ...OUTSIDE, time: t0 + 4000 },
      { ...OUTSIDE, time: t0 + 5000 },
    ]);
    await send(inFutian, [{ ...INSIDE, time: t0 + 6000 }]);
    // a late position older than the state does not flip it
    await send(inFutian, [{ ...OUTSIDE, time: t0 + 5500 }]);
    off();
    const summary = seen.map((e) => `${e.fence.name}:${e.direction}`);
    expect(summary).toEqual(['both:enter', 'enter only:enter', 'both:exit', 'both:enter', 'enter only:enter']);
    expect(seen[0]).toMatchObject({
      fence: { id: both.data.id, unit_id: futian, rule: 'both' },
      device: { device_id: inFutian.id, hostbody: inFutian.hostbody, imei: inFutian.imei, unit_id: futian },
      position: { lat: INSIDE.lat, lng: INSIDE.lng },
      time: new Date(t0 + 1000).toISOString(),
    });
    const rows = await t.db.selectFrom('fence_events').selectAll().orderBy('id').execute();
    expect(rows.map((r) => `${r.fence_name}:${r.direction}`)).toEqual(summary);
    expect(rows.map((r) => r.id)).toEqual(seen.map((e) => e.event_id));
    // the events list, scoped
    const page = await api<Page<FenceEvent>>(t.app, 'fenceEvents', futianAdmin, { fence_id: both.data.id });
    expect(page.data.total).toBe(3);
    expect(page.data.list[0]).toMatchObject({ fence_name: 'both', direction: 'enter', hostbody: inFutian.hostbody });
  });

  it('an updated fence starts from a fresh state; a Luohu device counts only for the fence naming Luohu', async () => {
    const seen: FenceCrossedEvent[] = [];
    const off = t.app.bus.on('fence.crossed', (e) => seen.push(e));
    const t0 = Date.now() - 30_000;
    await send(inLuohu, [
      { ...OUTSIDE, time: t0 },
      { ...INSIDE, time: t0 + 1000 },
    ]);
    off();
    expect(seen.map((e) => `${e.fence.name}:${e.device.device_id}`)).toEqual([`luohu only:${inLuohu.id}`]);
  });
  it('outside the time window a transition changes the state but raises nothing', async () => {
    const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    const later = (h: number) => new Date(Date.now() + h * 3600_000);
    const other = await addDevice(t.app, admin, futian);
    const f = await api<Fence>(
      t.app,
      'fenceAdd',
      admin,
      fenceBody({ name: 'night', device_ids: [other.id], time_start: hhmm(later(2)), time_end: hhmm(later(3)) }),
    );
    expect(f.code).toBe(200);
    const seen: FenceCrossedEvent[] = [];
    const off = t.app.bus.on('fence.crossed', (e) => seen.push(e));
    const t0 = Date.now() - 10_000;
    await send(other, [
      { ...OUTSIDE, time: t0 },
      { ...INSIDE, time: t0 + 1000 },
    ]);
    off();
    expect(seen.filter((e) => e.fence.id === f.data.id)).toEqual([]);
    const state = await t.db
      .selectFrom('fence_states')
      .selectAll()
      .where('fence_id', '=', f.data.id)
      .where('device_id', '=', other.id)
      .executeTakeFirst();
    expect(state?.inside).toBe(1);
  });
  it('a batch with a device deleted meanwhile still records the others', async () => {
    const live = await addDevice(t.app, admin, futian);
    const seen: FenceCrossedEvent[] = [];
    const off = t.app.bus.on('fence.crossed', (e) => seen.push(e));
    const t0 = Date.now() - 5_000;
    const pos = (deviceId: number, p: { lng: number; lat: number }, ms: number) => ({
      device_id: deviceId,
      unit_id: futian,
      hostbody: 'x',
      time: new Date(ms).toISOString(),
      ...p,
      speed: null,
      course: null,
      accuracy: null,
      battery: null,
    });
    t.app.bus.emit('positions', { positions: [pos(987654, OUTSIDE, t0), pos(live.id, OUTSIDE, t0)] });
    t.app.bus.emit('positions', { positions: [pos(987654, INSIDE, t0 + 1000), pos(live.id, INSIDE, t0 + 1000)] });
    await t.app.fences.idle();
    off();
    expect(seen.filter((e) => e.fence.name === 'both').map((e) => [e.device.device_id, e.direction])).toEqual([
      [live.id, 'enter'],
    ]);
    expect(await t.db.selectFrom('fence_states').selectAll().where('device_id', '=', 987654).execute()).toEqual([]);
  });
});
