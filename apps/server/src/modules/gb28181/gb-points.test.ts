/**
 * GB devices on the emergency map: a simulated GB device (@bwc/simulator/gb, real UDP SIP) sends
 * MobilePosition NOTIFYs; gbpoints answers it in the unit scope, and gb_site_data carries its
 * new positions and its going offline to the map consoles of its unit only.
 */
import { GbSimHub, type GbDevice } from '@bwc/simulator/gb';
import { Api, type GbPointsAnswer, type GbPointUnit, type GbSitePush, MenuId, SessionPush } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  envelope,
  login,
  type Session,
  type TestApp,
} from '../../../test/helpers';
import { freePort } from '../../../test/wait';
import { drain, sessionConsole } from '../../../test/session-console';
import type { TestConsole } from '../../../test/ws-client';
import { GbSitePushQueue } from './gb-points.push';
import { sitePushOf } from './gb-points.service';

const PLATFORM = '34020000002000000001';
const DOMAIN = '3402000000';
const PASSWORD = 'Gb#28181pw';
const DEVICE = '34020000001320000061';
const MINE = '440303000000';
const OTHER = '440304000000';
// devices written straight into the table (no simulator): one in a station of each branch
const IN_STATION = '34020000001320000081';
const IN_OTHER_STATION = '34020000001320000082';

let t: TestApp;
let base: string;
let admin: Session;
let hub: GbSimHub;
let dev: GbDevice;
let port: number;
let mineId: number;
const open: TestConsole[] = [];

const post = (payload: unknown, s: Session) =>
  t.app.inject({
    method: 'POST',
    url: Api.gbDevicePoints.path,
    headers: s.headers,
    payload: payload as Record<string, unknown>,
  });

async function userIn(unitBh: string, menu: number) {
  const roleId = await createRole(t.db, `gbmap_${Math.random().toString(36).slice(2, 8)}`, [
    { ids: [menu], actions: ['view'] },
  ]);
  const u = await createUser(t.db, { roleId, unitBh });
  return login(t.app, u.username, u.password);
}

/** units in id order (the answer keeps the units' own order: sort, then code) */
const byId = (units: GbPointUnit[]) => [...units].sort((a, b) => a.id - b.id);
const unitOf = async (name: string) =>
  (await t.db.selectFrom('units').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

/** A console logged in on the session push channel, closed after the suite. */
async function consoleOf(s: Session): Promise<TestConsole> {
  const c = await sessionConsole(t.app, base, s);
  open.push(c);
  return c;
}

const gbSites = (c: TestConsole, from = 0): GbSitePush[] =>
  c.messages
    .slice(from)
    .filter((m) => m.type === 'gb_site_data')
    .flatMap((m) => {
      const push = SessionPush.parse(m);
      return push.type === 'gb_site_data' ? push.data : [];
    });

/** The next gb_site_data entry of the device matching `test`. */
async function nextSite(c: TestConsole, test: (s: GbSitePush) => boolean): Promise<GbSitePush> {
  const m = await c.next(
    (m) => m.type === 'gb_site_data' && (m.data as GbSitePush[]).some((s) => s.devgbid === DEVICE && test(s)),
  );
  return (m.data as GbSitePush[]).find((s) => s.devgbid === DEVICE && test(s))!;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  mineId = (await t.db.selectFrom('units').select('id').where('bh', '=', MINE).executeTakeFirstOrThrow()).id;
  t.app.gb.tuning = { checkIntervalMs: 100, positionIntervalSec: 1, queryTimeoutMs: 5000 };
  hub = new GbSimHub({ host: '127.0.0.2' });
  await hub.start();
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
  port = await freePort();
  const saved = await t.app.inject({
    method: 'POST',
    url: Api.settingsUpdate.path,
    headers: admin.headers,
    payload: {
      type: 'gbconfig',
      gb_mode: 1,
      SipDomain: DOMAIN,
      SipId: PLATFORM,
      LocalIp: '127.0.0.1',
      LocalPort: port,
      RegExpires: 3600,
      AliveInterval: 30,
      AliveTimeoutCnt: 3,
      VideoPort: 20000,
      AudioPort: 20200,
      PortCount: 100,
      DevicePassword: PASSWORD,
    },
  });
  expect(envelope(saved).code).toBe(200);
  expect(t.app.gb.platform?.port).toBe(port);
});
afterAll(async () => {
  for (const c of open) c.close();
  await hub?.stop();
  await t?.close();
});

describe('GB devices on the map', () => {
  let mapMine: Session;
  let mapOther: Session;
  let patrolMine: Session;
  let mineConsole: TestConsole;
  let otherConsole: TestConsole;
  let patrolConsole: TestConsole;

  it('pushes a device’s MobilePositions to the map consoles of its unit only (gb_site_data)', async () => {
    mapMine = await userIn(MINE, MenuId.EMERGENCY);
    mapOther = await userIn(OTHER, MenuId.EMERGENCY);
    patrolMine = await userIn(MINE, MenuId.VIDEO_PATROL);
    mineConsole = await consoleOf(mapMine);
    otherConsole = await consoleOf(mapOther);
    patrolConsole = await consoleOf(patrolMine);

    dev = hub.device({
      deviceId: DEVICE,
      password: PASSWORD,
      name: 'Square camera',
      channels: 2,
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port },
      position: { longitude: 114.05, latitude: 22.54 },
    });
    const synced = new Promise<{ deviceId: string; error?: string }>((resolve) =>
      t.app.gb.on('synced', (e) => e.deviceId === DEVICE && resolve(e)),
    );
    expect(await dev.start()).toBe(true);
    expect(await synced).toEqual({ deviceId: DEVICE });
    // registered in the root unit; an administrator moves it to MINE
    await t.db.updateTable('gb_devices').set({ unit_id: mineId }).where('gbid', '=', DEVICE).execute();

    const first = await nextSite(mineConsole, (s) => s.unit_id === mineId);
    expect(first).toMatchObject({ name: 'Square camera', lineon: 1 });
    // the simulator walks a circle of ~200 m around its place
    expect(Math.abs(first.lng - 114.05)).toBeLessThan(0.01);
    expect(Math.abs(first.lat - 22.54)).toBeLessThan(0.01);
    expect(first.position_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    const moved = await nextSite(
      mineConsole,
      (s) => s.unit_id === mineId && (s.lng !== first.lng || s.lat !== first.lat),
    );
    expect(moved.position_time >= first.position_time).toBe(true);
    // stored as pushed
    const row = await t.db
      .selectFrom('gb_devices')
      .select(['lng', 'lat'])
      .where('gbid', '=', DEVICE)
      .executeTakeFirstOrThrow();
    expect(Math.abs(row.lng! - 114.05)).toBeLessThan(0.01);

    await drain(otherConsole);
    await drain(patrolConsole);
    // another unit's map console, and a console without view on 10101, get none of it
    expect(gbSites(otherConsole).filter((s) => s.devgbid === DEVICE)).toEqual([]);
    expect(gbSites(patrolConsole)).toEqual([]);
  });

  it('answers gbpoints in the unit scope, with the channels, for view on 10101 only', async () => {
    const mine = envelope<GbPointsAnswer>(await post({}, mapMine));
    expect(mine.code).toBe(200);
    expect(mine.data.points).toHaveLength(1);
    const [p] = mine.data.points;
    expect(p).toMatchObject({ devgbid: DEVICE, name: 'Square camera', unit_id: mineId, lineon: 1 });
    expect(Math.abs(p!.lng - 114.05)).toBeLessThan(0.01);
    expect(p!.channels).toHaveLength(2);
    expect(p!.channels[0]).toMatchObject({ devgbid: '34020000001310000062', lineon: 1 });
    // the tree's units: his own unit at the top (its parent is outside his scope)
    expect(mine.data.units).toEqual([{ id: mineId, pid: 0, name: '罗湖分局' }]);
    expect(envelope<GbPointsAnswer>(await post({ unit: mineId }, mapMine)).data.points).toHaveLength(1);
    expect(envelope(await post({}, mapOther))).toMatchObject({ code: 200, data: { units: [], points: [] } });
    expect(envelope(await post({ unit: mineId }, mapOther))).toMatchObject({ code: 403 });
    expect(envelope(await post({}, patrolMine))).toMatchObject({ code: 403 });
    expect(envelope(await post({ unit: 'x' }, admin))).toMatchObject({ code: 400 });
    const all = envelope<GbPointsAnswer>(await post({}, admin));
    expect(all.data.points.map((d) => d.devgbid)).toContain(DEVICE);
  });

  it('answers the units of the tree: each device’s unit and its ancestors in the scope, nothing of another unit', async () => {
    const station = await unitOf('东门派出所');
    const otherStation = await unitOf('华富派出所');
    const otherId = (await t.db.selectFrom('units').select('id').where('bh', '=', OTHER).executeTakeFirstOrThrow()).id;
    const city = (await t.db.selectFrom('units').select('id').where('pid', '=', 0).executeTakeFirstOrThrow()).id;
    // one device with a position in a station of each branch (as a stored MobilePosition leaves it)
    const placed = (gbid: string, unit_id: number) => ({
      gbid,
      name: `cam ${gbid.slice(-2)}`,
      unit_id,
      lng: 114.1,
      lat: 22.6,
      position_time: '2026-11-27 10:00:00',
      created: '2026-11-27 10:00:00',
    });
    await t.db
      .insertInto('gb_devices')
      .values([placed(IN_STATION, station), placed(IN_OTHER_STATION, otherStation)])
      .execute();
    try {
      const mine = envelope<GbPointsAnswer>(await post({}, mapMine)).data;
      expect(mine.points.map((p) => [p.devgbid, p.unit_id]).sort()).toEqual([
        [DEVICE, mineId],
        [IN_STATION, station],
      ]);
      expect(byId(mine.units)).toEqual([
        { id: mineId, pid: 0, name: '罗湖分局' },
        { id: station, pid: mineId, name: '东门派出所' },
      ]);
      // the other branch's user: his station under his branch, nothing of this one
      const other = envelope<GbPointsAnswer>(await post({}, mapOther)).data;
      expect(other.points.map((p) => p.devgbid)).toEqual([IN_OTHER_STATION]);
      expect(byId(other.units)).toEqual([
        { id: otherId, pid: 0, name: '福田分局' },
        { id: otherStation, pid: otherId, name: '华富派出所' },
      ]);
      // an administrator: from the city bureau down, both branches; a unit asked for is the top
      const all = envelope<GbPointsAnswer>(await post({}, admin)).data;
      expect(byId(all.units.filter((u) => [city, mineId, station, otherId, otherStation].includes(u.id)))).toEqual([
        { id: city, pid: 0, name: '深圳市公安局' },
        { id: mineId, pid: city, name: '罗湖分局' },
        { id: station, pid: mineId, name: '东门派出所' },
        { id: otherId, pid: city, name: '福田分局' },
        { id: otherStation, pid: otherId, name: '华富派出所' },
      ]);
      const asked = envelope<GbPointsAnswer>(await post({ unit: station }, mapMine)).data;
      expect(asked).toMatchObject({ units: [{ id: station, pid: 0 }], points: [{ devgbid: IN_STATION }] });
      expect(asked.units).toHaveLength(1);
    } finally {
      await t.db.deleteFrom('gb_devices').where('gbid', 'in', [IN_STATION, IN_OTHER_STATION]).execute();
    }
  });

  it('pushes the device going offline; gbpoints keeps its last position, offline', async () => {
    const from = mineConsole.messages.length;
    await dev.stop();
    const off = await nextSite(mineConsole, (s) => s.lineon === 0);
    expect(off.unit_id).toBe(mineId);
    expect(gbSites(mineConsole, from).length).toBeGreaterThan(0);
    const mine = envelope<GbPointsAnswer>(await post({}, mapMine));
    expect(mine.data.points[0]).toMatchObject({ lineon: 0 });
    expect(mine.data.points[0]!.channels.every((c) => c.lineon === 0)).toBe(true);
  });
});

describe('gb.site events of other nodes', () => {
  it('reach this node’s map consoles through the bus (a device registers with one node only)', async () => {
    const mapMine = await userIn(MINE, MenuId.EMERGENCY);
    const c = await consoleOf(mapMine);
    const remote: GbSitePush = {
      devgbid: '34020000001320000099',
      name: 'Elsewhere',
      unit_id: mineId,
      lineon: 1,
      lng: 114.1,
      lat: 22.6,
      position_time: '2026-11-27 10:00:00',
    };
    // what the bus hands `on` listeners for an event another node emitted
    t.app.bus.emit('gb.site', remote);
    const m = await c.next((m) => m.type === 'gb_site_data');
    expect(SessionPush.parse(m)).toEqual({ type: 'gb_site_data', data: [remote] });
  });
});

describe('sitePushOf', () => {
  it('gives no map entry without a position or at 0/0 (a device without a fix)', async () => {
    const row = await t.db.selectFrom('gb_devices').selectAll().where('gbid', '=', DEVICE).executeTakeFirstOrThrow();
    expect(sitePushOf(row)).toMatchObject({ devgbid: DEVICE, unit_id: mineId });
    expect(sitePushOf({ ...row, lng: null })).toBeNull();
    expect(sitePushOf({ ...row, lng: 0, lat: 0 })).toBeNull();
    expect(sitePushOf({ ...row, lng: 0, lat: 22.5 })).toMatchObject({ lng: 0, lat: 22.5 });
  });
});

describe('GbSitePushQueue', () => {
  const site = (devgbid: string, unit_id: number, lng: number): GbSitePush => ({
    devgbid,
    name: devgbid,
    unit_id,
    lineon: 1,
    lng,
    lat: 22.5,
    position_time: '2026-11-27 10:00:00',
  });

  it('merges per device (last wins) and sends each console only its units, one frame per scope', () => {
    const sent: string[][] = [[], [], [], []];
    const scopeA = new Set([1]);
    const client = (i: number, units: ReadonlySet<number> | null, positions = true, readyState = 1) => ({
      socket: { readyState, send: (d: string) => void sent[i]!.push(d) },
      auth: { positions, units },
    });
    const clients = [client(0, scopeA), client(1, null), client(2, scopeA, false), client(3, null, true, 3)];
    const q = new GbSitePushQueue(() => clients);
    q.queue(site('a', 1, 114.1));
    q.queue(site('b', 2, 114.2));
    q.queue(site('a', 1, 114.3));
    expect(q.flush()).toBe(2);
    q.close();
    expect(sent[0]!.map((f) => JSON.parse(f) as unknown)).toEqual([
      { type: 'gb_site_data', data: [site('a', 1, 114.3)] },
    ]);
    expect((JSON.parse(sent[1]![0]!) as { data: GbSitePush[] }).data.map((s) => [s.devgbid, s.lng])).toEqual([
      ['a', 114.3],
      ['b', 114.2],
    ]);
    expect(sent[2]).toEqual([]);
    expect(sent[3]).toEqual([]);
    // nothing pending: nothing sent
    expect(q.flush()).toBe(0);
  });
});
