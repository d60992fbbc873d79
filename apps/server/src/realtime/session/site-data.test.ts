import { Api, MenuId, SESSION_WS_PATH, SITE_DATA_FLUSH_MS, SessionPush, type SitePush } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createTestApp, createUser, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../test/devices';
import { drain, sessionConsole } from '../../../test/session-console';
import { TestConsole } from '../../../test/ws-client';

let t: TestApp;
let base: string;
let admin: Session;
/** view on 10101, unit Futian */
let futianUser: Session;
/** view on 10101, unit Luohu */
let luohuUser: Session;
/** unit Futian, alarm rights but no view on 10101 */
let noMapUser: Session;
let inFutian: CreatedDevice;
let inLuohu: CreatedDevice;
const open: TestConsole[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const futian = await unitIdOf(t.db, '440304000000');
  const luohu = await unitIdOf(t.db, '440303000000');
  const mapDesk = await createRole(t.db, 'map desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const alarmDesk = await createRole(t.db, 'alarm desk only', [
    { ids: [MenuId.DISPATCH_ALARM, MenuId.MONITOR_ALARM], actions: ['view', 'edit'] },
  ]);
  const u1 = await createUser(t.db, { roleId: mapDesk, unitBh: '440304000000' });
  futianUser = await login(t.app, u1.username, u1.password);
  const u2 = await createUser(t.db, { roleId: mapDesk, unitBh: '440303000000' });
  luohuUser = await login(t.app, u2.username, u2.password);
  const u3 = await createUser(t.db, { roleId: alarmDesk, unitBh: '440304000000' });
  noMapUser = await login(t.app, u3.username, u3.password);
  inFutian = await addDevice(t.app, admin, futian);
  inLuohu = await addDevice(t.app, admin, luohu);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace('http', 'ws');
});
afterAll(async () => {
  for (const c of open) c.close();
  await t.close();
});

/** A console logged in on the session push channel, closed after the suite. */
async function consoleOf(s: Session): Promise<TestConsole> {
  const c = await sessionConsole(t.app, base, s);
  open.push(c);
  return c;
}

const siteData = (c: TestConsole) =>
  c.messages.filter((m) => m.type === 'site_data').map((m) => SessionPush.parse(m).data as SitePush[]);

type Fix = { time: string; lat: number; lng: number; speed?: number; course?: number; battery?: number };

async function ingest(headers: Record<string, string>, positions: Fix[]): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: Api.devicePositions.path, headers, payload: { positions } });
  expect(res.json()).toMatchObject({ code: 200, data: { accepted: positions.length, rejected: [] } });
}

describe('site_data: live position push on /ws/session', () => {
  it('pushes merged position changes only to consoles with view on 10101 whose units hold the device', async () => {
    const futianConsole = await consoleOf(futianUser);
    const luohuConsole = await consoleOf(luohuUser);
    const noMapConsole = await consoleOf(noMapUser);
    const adminConsole = await consoleOf(admin);
    const futianDevice = await deviceLogin(t.app, inFutian);
    const luohuDevice = await deviceLogin(t.app, inLuohu);

    const t0 = Date.now() - 60_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    // a flush now: the fixes below fall in the next one, SITE_DATA_FLUSH_MS later
    t.app.sessionHub.flushSites();
    const flushedAt = performance.now();
    await ingest(futianDevice, [{ time: iso(t0), lat: 22.54, lng: 114.05, speed: 10, course: 90, battery: 80 }]);
    // a later fix sent before an earlier one in the same batch: the later fix wins
    await ingest(futianDevice, [
      { time: iso(t0 + 2_000), lat: 22.5412, lng: 114.0523, speed: 32.5, course: 181, battery: 77 },
      { time: iso(t0 + 1_000), lat: 22.5406, lng: 114.051, speed: 20, course: 180, battery: 78 },
    ]);
    await ingest(luohuDevice, [{ time: iso(t0 + 500), lat: 22.55, lng: 114.12, battery: 50 }]);

    const got = await futianConsole.next((m) => m.type === 'site_data');
    expect(futianConsole.received[futianConsole.messages.indexOf(got)]! - flushedAt).toBeGreaterThanOrEqual(
      SITE_DATA_FLUSH_MS - 50,
    );
    expect(got).not.toHaveProperty('code');
    const futianName = (
      await t.db.selectFrom('devices').select('hostname').where('id', '=', inFutian.id).executeTakeFirstOrThrow()
    ).hostname;
    expect(SessionPush.parse(got).data).toEqual([
      {
        device_id: inFutian.id,
        hostbody: inFutian.hostbody,
        hostname: futianName,
        unit_id: await unitIdOf(t.db, '440304000000'),
        lng: 114.0523,
        lat: 22.5412,
        speed: 32.5,
        course: 181,
        battery: 77,
        time: iso(t0 + 2_000),
        lineon: 1,
      },
    ]);

    for (const c of [futianConsole, luohuConsole, noMapConsole, adminConsole]) await drain(c);
    // one message for the flush, one entry per device
    expect(siteData(futianConsole)).toHaveLength(1);
    expect(siteData(luohuConsole)).toEqual([[expect.objectContaining({ device_id: inLuohu.id, lat: 22.55 })]]);
    expect(siteData(noMapConsole)).toEqual([]);
    const adminEntries = siteData(adminConsole);
    expect(adminEntries).toHaveLength(1);
    expect(adminEntries[0]!.map((x) => [x.device_id, x.time]).sort()).toEqual(
      [
        [inFutian.id, iso(t0 + 2_000)],
        [inLuohu.id, iso(t0 + 500)],
      ].sort(),
    );

    // nothing changed since: no flush sends anything
    expect(t.app.sessionHub.flushSites()).toBe(0);
    for (const c of [futianConsole, luohuConsole, noMapConsole, adminConsole]) await drain(c);
    expect(siteData(futianConsole)).toHaveLength(1);
    expect(siteData(adminConsole)).toHaveLength(1);

    // a Luohu fix alone reaches Luohu and the administrator, not Futian
    await ingest(luohuDevice, [{ time: iso(t0 + 3_000), lat: 22.551, lng: 114.121 }]);
    await luohuConsole.next((m) => m.type === 'site_data' && siteData(luohuConsole).length === 2);
    for (const c of [futianConsole, noMapConsole, adminConsole]) await drain(c);
    expect(siteData(luohuConsole)[1]).toEqual([
      expect.objectContaining({ device_id: inLuohu.id, time: iso(t0 + 3_000), speed: null, course: null }),
    ]);
    expect(siteData(futianConsole)).toHaveLength(1);
    expect(siteData(noMapConsole)).toEqual([]);
  });

  it('follows a change of rights at the next session check', async () => {
    const role = await createRole(t.db, 'map desk later', []);
    const u = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
    const c = await consoleOf(await login(t.app, u.username, u.password));
    const device = await deviceLogin(t.app, inFutian);
    const ingestOne = async (ms: number) => {
      await ingest(device, [{ time: new Date(ms).toISOString(), lat: 22.53, lng: 114.04 }]);
      t.app.sessionHub.flushSites();
    };
    await ingestOne(Date.now() - 30_000);
    await drain(c);
    expect(siteData(c)).toEqual([]);
    await t.db
      .insertInto('role_permissions')
      .values({ role_id: role, module_id: MenuId.EMERGENCY, view: 1, edit: 0, add: 0 })
      .execute();
    await t.app.sessionHub.refresh();
    await ingestOne(Date.now() - 20_000);
    await drain(c);
    expect(siteData(c)).toEqual([[expect.objectContaining({ device_id: inFutian.id, lat: 22.53 })]]);
  });
});

describe('site_filter: a console narrows its site_data', () => {
  it('sends the devices in the box and the named ones; unit scoping unchanged; a malformed filter changes nothing', async () => {
    const adminConsole = await consoleOf(admin);
    const futianConsole = await consoleOf(futianUser);
    const futianDevice = await deviceLogin(t.app, inFutian);
    const luohuDevice = await deviceLogin(t.app, inLuohu);
    let ms = Date.now() - 10_000;
    const both = async () => {
      ms += 100;
      const time = new Date(ms).toISOString();
      await ingest(futianDevice, [{ time, lat: 22.54, lng: 114.05 }]);
      await ingest(luohuDevice, [{ time, lat: 22.55, lng: 114.12 }]);
      t.app.sessionHub.flushSites();
      for (const c of [adminConsole, futianConsole]) await drain(c);
    };
    const filter = async (c: TestConsole, body: object) => {
      const before = c.messages.length;
      c.send({ cmd: 'site_filter', ...body });
      return c.next((m) => m.cmd === 'site_filter' && c.messages.indexOf(m) >= before);
    };
    const last = (c: TestConsole) =>
      siteData(c)
        .at(-1)!
        .map((x) => x.device_id)
        .sort();

    // no filter: every device of the console's units
    await both();
    expect(last(adminConsole)).toEqual([inFutian.id, inLuohu.id].sort());

    // a box around Futian's fix only
    expect(await filter(adminConsole, { view: [114.0, 22.5, 114.08, 22.6], ids: [] })).toMatchObject({ code: 200 });
    await both();
    expect(last(adminConsole)).toEqual([inFutian.id]);

    // points hidden: only the named device, wherever it is
    expect(await filter(adminConsole, { view: 'none', ids: [inLuohu.id] })).toMatchObject({ code: 200 });
    await both();
    expect(last(adminConsole)).toEqual([inLuohu.id]);
    const count = siteData(adminConsole).length;

    // malformed (west > east, no view, a bad id): refused, the filter stays
    for (const body of [{ view: [114.2, 22.5, 114.0, 22.6] }, { ids: [1] }, { view: 'all', ids: ['x'] }])
      expect(await filter(adminConsole, body)).toMatchObject({ code: 400 });
    await both();
    expect(siteData(adminConsole)).toHaveLength(count + 1);
    expect(last(adminConsole)).toEqual([inLuohu.id]);

    // none and nobody named: nothing at all
    await filter(adminConsole, { view: 'none', ids: [] });
    await both();
    expect(siteData(adminConsole)).toHaveLength(count + 1);

    // naming a device of another unit does not reach it past the unit scope
    await filter(futianConsole, { view: 'all', ids: [inLuohu.id] });
    await both();
    expect(siteData(futianConsole).every((entries) => entries.every((x) => x.device_id === inFutian.id))).toBe(true);

    // back to every device
    await filter(adminConsole, { view: 'all', ids: [] });
    await both();
    expect(last(adminConsole)).toEqual([inFutian.id, inLuohu.id].sort());
  });

  it('is refused before client_login', async () => {
    const c = await TestConsole.open(`${base}${SESSION_WS_PATH}`, admin.headers);
    open.push(c);
    c.send({ cmd: 'site_filter', view: 'none', ids: [] });
    expect(await c.next((m) => m.cmd === 'site_filter')).toMatchObject({ code: 401 });
  });
});
