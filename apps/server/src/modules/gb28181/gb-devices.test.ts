/**
 * GB28181 in the running server: a simulated GB device (@bwc/simulator/gb, real UDP SIP) registers
 * with the platform the server starts from the gbconfig settings; the rows, the tree, PTZ, record
 * search, positions, going offline, refusals and restarts on a settings save.
 */
import { PTZ_ACTIONS } from '@bwc/gb28181/manscdp';
import { GbSimHub, type GbDevice } from '@bwc/simulator/gb';
import { Api, GB_PTZ_ACTIONS, MenuId } from '@bwc/protocol';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  createRole,
  createTestApp,
  createUser,
  DEMO,
  envelope,
  login,
  type Session,
  type TestApp,
} from '../../../test/helpers';
import { freePort, until } from '../../../test/wait';

const PLATFORM = '34020000002000000001';
const DOMAIN = '3402000000';
const PASSWORD = 'Gb#28181pw';
const DEVICE = '34020000001320000001';
// the simulator's first channel: type 131, the serial after the device's
const CH1 = '34020000001310000002';
const SETTINGS = {
  gb_mode: 1,
  SipDomain: DOMAIN,
  SipId: PLATFORM,
  LocalIp: '127.0.0.1',
  LocalPort: 15060,
  RegExpires: 3600,
  AliveInterval: 30,
  AliveTimeoutCnt: 3,
  // RTP ranges below the ephemeral ports freePort() hands out (the SIP port may lie in neither)
  VideoPort: 20000,
  AudioPort: 20200,
  PortCount: 100,
  DevicePassword: PASSWORD,
};

let t: TestApp;
let admin: Session;
let hub: GbSimHub;
let dev: GbDevice;
let port: number;
/** sessions kept for later tests (the demo licence admits 10 workstations) */
let otherAdmin: Session;
let patrolViewer: Session;
/** units of the demo tree: the device is moved to `mine`; `other` is a sibling */
const MINE = '440303000000';
const OTHER = '440304000000';

const post = (api: keyof typeof Api, payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'POST', url: Api[api].path, headers, payload: payload as Record<string, unknown> });
const saveSettings = (values: Record<string, unknown>) =>
  post('settingsUpdate', { type: 'gbconfig', ...SETTINGS, ...values });

async function userIn(unitBh: string, grants: { ids: number[]; actions: ('view' | 'edit' | 'add')[] }[]) {
  const roleId = await createRole(t.db, `gb_${Math.random().toString(36).slice(2, 8)}`, grants);
  const u = await createUser(t.db, { roleId, unitBh });
  return login(t.app, u.username, u.password);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  t.app.gb.tuning = { checkIntervalMs: 100, positionIntervalSec: 1, queryTimeoutMs: 5000 };
  hub = new GbSimHub({ host: '127.0.0.2' });
  await hub.start();
});
afterAll(async () => {
  await hub?.stop();
  await t?.close();
});

describe('the SIP platform follows the gbconfig settings', () => {
  it('does not run while GB mode is off; starts on the saved port when it is switched on', async () => {
    expect(t.app.gb.platform).toBeNull();
    const cfg = async () =>
      envelope<{ running: number }>(
        await t.app.inject({ method: 'GET', url: Api.gbConfig.path, headers: admin.headers }),
      ).data.running;
    expect(await cfg()).toBe(0);
    port = await freePort();
    expect(envelope(await saveSettings({ LocalPort: port }))).toMatchObject({ code: 200 });
    expect(t.app.gb.platform?.port).toBe(port);
    expect(await cfg()).toBe(1);
    // live video is made for the running platform
    expect(t.app.gbLive.current).not.toBeNull();
  });
});

describe('a simulated GB device', () => {
  it('registers: the row is online with its DeviceInfo, its channels stored', async () => {
    dev = hub.device({
      deviceId: DEVICE,
      password: PASSWORD,
      name: 'Gate camera',
      channels: 3,
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port },
      position: { longitude: 114.05, latitude: 22.54 },
    });
    const synced = new Promise<{ deviceId: string; error?: string }>((resolve) =>
      t.app.gb.on('synced', (e) => e.deviceId === DEVICE && resolve(e)),
    );
    expect(await dev.start()).toBe(true);
    expect(await synced).toEqual({ deviceId: DEVICE });
    const row = await t.db.selectFrom('gb_devices').selectAll().where('gbid', '=', DEVICE).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'Gate camera',
      manufacturer: 'BWC-SIM',
      model: 'SIM-IPC',
      firmware: '1.0',
      transport: 'udp',
      online: 1,
    });
    expect(row.address).toMatch(/^127\.0\.0\.2:\d+$/);
    const list = envelope<{ total: number; list: Record<string, unknown>[] }>(
      await t.app.inject({ method: 'GET', url: `${Api.gbDeviceList.path}?key=Gate`, headers: admin.headers }),
    );
    expect(list.data.total).toBe(1);
    expect(list.data.list[0]).toMatchObject({ devgbid: DEVICE, lineon: 1, channel_count: 3, firmware: '1.0' });
    expect(list.data.list[0]!.registered_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('shows in the tree with its channels for a user of its unit, not for another unit', async () => {
    const mine = await t.db.selectFrom('units').select('id').where('bh', '=', MINE).executeTakeFirstOrThrow();
    const row = await t.db.selectFrom('gb_devices').select('id').where('gbid', '=', DEVICE).executeTakeFirstOrThrow();
    // an admin of another unit cannot take it; the administrator moves it (audited)
    otherAdmin = await userIn(OTHER, [{ ids: [MenuId.GB_DEVICES], actions: ['view', 'edit'] }]);
    expect(envelope(await post('gbDeviceUpdate', { id: row.id, unit_id: mine.id }, otherAdmin.headers))).toMatchObject({
      code: 403,
    });
    expect(envelope(await post('gbDeviceUpdate', { id: row.id, unit_id: 999_999 }))).toMatchObject({ code: 404 });
    const moved = envelope<{ unit_id: number; name: string }>(
      await post('gbDeviceUpdate', { id: row.id, unit_id: mine.id, name: '' }),
    );
    expect(moved).toMatchObject({ code: 200, data: { unit_id: mine.id, name: 'Gate camera' } });
    expect((await auditRows(t.db, Api.gbDeviceUpdate.path)).map((r) => r.result_code)).toEqual([200, 404, 403]);

    const patrol = [{ ids: [MenuId.VIDEO_PATROL], actions: ['view' as const] }];
    const inside = await userIn(MINE, patrol);
    const outside = await userIn(OTHER, patrol);
    const tree = envelope<Record<string, unknown>[]>(await post('gbDeviceTree', {}, inside.headers));
    expect(tree.code).toBe(200);
    expect(tree.data).toHaveLength(1);
    const [node] = tree.data as { devgbid: string; itemtype: string; hasChildren: boolean; children: unknown[] }[];
    expect(node).toMatchObject({ devgbid: DEVICE, itemtype: '1', name: 'Gate camera', lineon: 1, hasChildren: true });
    expect(node!.children).toHaveLength(3);
    expect(node!.children[0]).toMatchObject({ devgbid: CH1, itemtype: '5', device: DEVICE, lineon: 1 });
    // the key filters by a channel's name: the device keeps only that channel
    const filtered = envelope<{ children: unknown[] }[]>(await post('gbDeviceTree', { key: 'CH2' }, inside.headers));
    expect(filtered.data[0]!.children).toHaveLength(1);
    expect(envelope(await post('gbDeviceTree', { unit: mine.id }, inside.headers)).data).toHaveLength(1);
    expect(envelope(await post('gbDeviceTree', {}, outside.headers)).data).toEqual([]);
    expect(envelope(await post('gbDeviceTree', { unit: mine.id }, outside.headers))).toMatchObject({ code: 403 });
    // the admin list's unit filter: the unit and its subunits, inside the caller's scope
    const listed = async (unit: number, headers = admin.headers) =>
      envelope<{ total: number }>(
        await t.app.inject({ method: 'GET', url: `${Api.gbDeviceList.path}?unit_id=${unit}`, headers }),
      );
    const other = await t.db.selectFrom('units').select('id').where('bh', '=', OTHER).executeTakeFirstOrThrow();
    const root = await t.db
      .selectFrom('units')
      .select('id')
      .where('pid', '=', 0)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect((await listed(mine.id)).data.total).toBe(1);
    expect((await listed(root.id)).data.total).toBe(1);
    expect((await listed(other.id)).data.total).toBe(0);
    expect(await listed(mine.id, otherAdmin.headers)).toMatchObject({ code: 403 });
    expect(envelope(await post('gbDeviceDetail', { devgbid: DEVICE }, outside.headers))).toMatchObject({ code: 403 });
    const detail = envelope<{ channels: { ptztype: number }[]; devgbid: string }>(
      await post('gbDeviceDetail', { devgbid: CH1 }, inside.headers),
    );
    expect(detail.data).toMatchObject({ devgbid: DEVICE, lineon: 1 });
    // Catalog Info PTZType: the simulator's first channel is a dome, the others fixed
    expect(detail.data.channels.map((c) => c.ptztype)).toEqual([1, 3, 3]);
    expect(envelope(await post('gbDeviceDetail', { devgbid: '34020000001329999999' }))).toMatchObject({ code: 404 });
  });

  it('PTZ reaches the device; the operation log has it', async () => {
    expect([...GB_PTZ_ACTIONS].sort()).toEqual([...PTZ_ACTIONS].sort());
    expect(envelope(await post('gbPtz', { device: DEVICE, channel: CH1, action: 'left', speed: 64 }))).toEqual({
      code: 200,
      msg: '操作成功',
      data: null,
    });
    expect(dev.ptzLog.at(-1)).toMatchObject({ channelId: CH1, action: 'left', panSpeed: 64 });
    expect(envelope(await post('gbPtz', { device: DEVICE, channel: CH1, action: 'preset_call', preset: 7 })).code).toBe(
      200,
    );
    expect(dev.ptzLog.at(-1)).toMatchObject({ channelId: CH1, action: 'preset_call', preset: 7 });
    const rows = await auditRows(t.db, Api.gbPtz.path);
    // newest first
    expect(rows.map((r) => [r.target, r.result_code])).toEqual([
      [`${CH1}:preset_call:7`, 200],
      [`${CH1}:left`, 200],
    ]);
  });

  it('refuses bad PTZ payloads naming the field, and callers without the right', async () => {
    const EN = { ...admin.headers, 'x-lang': 'en-US' };
    const cases: [Record<string, unknown>, string][] = [
      [{ device: DEVICE, channel: CH1, action: 'spin' }, 'action'],
      [{ device: DEVICE, channel: CH1, action: 'preset_set' }, 'preset'],
      [{ device: DEVICE, channel: CH1, action: 'left', speed: 256 }, 'speed'],
      [{ device: '3402', channel: CH1, action: 'left' }, 'device'],
    ];
    const before = dev.ptzLog.length;
    for (const [payload, field] of cases) {
      const answer = envelope(await post('gbPtz', payload, EN));
      expect(answer.code, JSON.stringify(payload)).toBe(400);
      expect(answer.msg.toLowerCase(), JSON.stringify(payload)).toContain(field);
    }
    expect(
      envelope(await post('gbPtz', { device: DEVICE, channel: '34020000001310000099', action: 'up' })),
    ).toMatchObject({ code: 404 });
    const viewer = await userIn(MINE, [{ ids: [MenuId.VIDEO_PATROL], actions: ['view'] }]);
    patrolViewer = viewer;
    expect(envelope(await post('gbPtz', { device: DEVICE, channel: CH1, action: 'up' }, viewer.headers))).toMatchObject(
      {
        code: 403,
        msg: '没有权限：需要菜单 10151 的“编辑”权限',
      },
    );
    const outside = await userIn(OTHER, [{ ids: [MenuId.VIDEO_PATROL], actions: ['view', 'edit'] }]);
    expect(
      envelope(await post('gbPtz', { device: DEVICE, channel: CH1, action: 'up' }, outside.headers)),
    ).toMatchObject({
      code: 403,
    });
    expect(dev.ptzLog.length).toBe(before);
  });

  it('searches the channel recordings (RecordInfo)', async () => {
    // GB local time: +08:00 (the platform's and the simulator's time zone)
    const fmt = (d: Date) => new Date(d.getTime() + 480 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    const now = Date.now();
    const replay = await userIn(MINE, [{ ids: [MenuId.PLAYBACK], actions: ['view'] }]);
    const answer = envelope<{ channel: string; start: string; end: string }[]>(
      await post(
        'gbRecordSearch',
        { device: DEVICE, channel: CH1, start: fmt(new Date(now - 3_600_000)), end: fmt(new Date(now)) },
        replay.headers,
      ),
    );
    expect(answer.code).toBe(200);
    expect(answer.data.length).toBeGreaterThan(0);
    for (const r of answer.data) {
      expect(r.channel).toBe(CH1);
      expect(r.start).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(r.end > r.start).toBe(true);
    }
    const backwards = envelope(
      await post('gbRecordSearch', {
        device: DEVICE,
        channel: CH1,
        start: fmt(new Date(now)),
        end: fmt(new Date(now - 1000)),
      }),
    );
    expect(backwards).toMatchObject({ code: 400 });
    expect(backwards.msg).toContain('end');
  });

  it('pauses, resumes, seeks and sets the speed of a playback (gbcontrol), in the unit scope only; refusals name the problem', async () => {
    const EN = { ...admin.headers, 'x-lang': 'en-US' };
    const started = envelope<{ key: string }>(
      await post('gbPlay', { channel: CH1, device: DEVICE, start: '2026-01-03 09:00:00', end: '2026-01-03 10:00:00' }),
    );
    expect(started.code, started.msg).toBe(200);
    const key = started.data.key;
    const controls: string[] = [];
    dev.on('playbackControl', (e: { command: string }) => controls.push(e.command));
    const outside = await userIn(OTHER, [{ ids: [MenuId.PLAYBACK], actions: ['view'] }]);
    expect(envelope(await post('gbPlaybackControl', { key, action: 'pause' }, outside.headers))).toMatchObject({
      code: 403,
    });
    expect(controls).toEqual([]);
    expect(envelope(await post('gbPlaybackControl', { key, action: 'pause' })).code).toBe(200);
    expect(t.app.gbLive.current!.service.paused(key)).toBe(true);
    expect(envelope(await post('gbPlaybackControl', { key, action: 'resume' })).code).toBe(200);
    expect(t.app.gbLive.current!.service.paused(key)).toBe(false);
    expect(controls).toEqual(['pause', 'resume']);
    const bad = envelope(await post('gbPlaybackControl', { key: `gb:${DEVICE}_${CH1}`, action: 'pause' }, EN));
    expect(bad.code).toBe(400);
    expect(bad.msg).toContain('GB playback');
    expect(envelope(await post('gbPlaybackControl', { key, action: 'rewind' }, EN)).code).toBe(400);
    const gone = envelope(await post('gbPlaybackControl', { key: `gbpb:${DEVICE}_${CH1}_1_2`, action: 'pause' }, EN));
    expect(gone).toMatchObject({ code: 404 });
    expect(gone.msg).toContain('not running');

    // seek and speed: the same scope; bad input is 400 naming it and asks nothing of the device
    const asked: object[] = [];
    dev.on('playbackControl', ({ channelId: _c, callId: _i, ...control }: { channelId: string; callId: string }) =>
      asked.push(control),
    );
    expect(
      envelope(await post('gbPlaybackControl', { key, action: 'seek', offset: 60 }, outside.headers)),
    ).toMatchObject({ code: 403 });
    expect(
      envelope(await post('gbPlaybackControl', { key, action: 'speed', scale: 2 }, outside.headers)),
    ).toMatchObject({ code: 403 });
    const refused = async (body: object, says: string) => {
      const answer = envelope(await post('gbPlaybackControl', body, EN));
      expect(answer.code, JSON.stringify(body)).toBe(400);
      expect(answer.msg.toLowerCase(), JSON.stringify(body)).toContain(says.toLowerCase());
    };
    await refused({ key, action: 'rewind' }, 'allowed choices');
    await refused({ key, action: 'seek' }, 'offset');
    await refused({ key, action: 'seek', offset: -1 }, 'offset');
    await refused({ key, action: 'seek', offset: 1.5 }, 'whole number');
    await refused({ key, action: 'seek', offset: '60' }, 'offset');
    // the span is 3600 s: its last second is the last point to seek to
    await refused({ key, action: 'seek', offset: 3600 }, 'within this playback (0 to 3599 s)');
    await refused({ key, action: 'seek', offset: 8 * 86_400 }, 'offset');
    await refused({ key, action: 'speed' }, 'scale');
    await refused({ key, action: 'speed', scale: 3 }, 'The speed must be 0.25, 0.5, 1, 2 or 4');
    await refused({ key, action: 'speed', scale: '2' }, 'speed');
    expect(asked).toEqual([]);

    expect(envelope(await post('gbPlaybackControl', { key, action: 'pause' })).code).toBe(200);
    expect(envelope(await post('gbPlaybackControl', { key, action: 'seek', offset: 3599 })).code).toBe(200);
    // a seek is a PLAY (as WVP sends it): the playback plays again
    expect(t.app.gbLive.current!.service.paused(key)).toBe(false);
    expect(envelope(await post('gbPlaybackControl', { key, action: 'seek', offset: 1800 })).code).toBe(200);
    expect(envelope(await post('gbPlaybackControl', { key, action: 'speed', scale: 0.5 })).code).toBe(200);
    expect(asked).toEqual([
      { command: 'pause' },
      { command: 'seek', offset: 3599 },
      { command: 'seek', offset: 1800 },
      { command: 'speed', scale: 0.5 },
    ]);
    t.app.gbLive.current!.service.stop(key);
    const ended = envelope(await post('gbPlaybackControl', { key, action: 'seek', offset: 10 }, EN));
    expect(ended).toMatchObject({ code: 404 });
    expect(ended.msg).toContain('not running');
  });

  it('two devices repeating a channel id: gbplay with the device plays each one its own stream', async () => {
    const twinId = '34020000001320000061';
    // another address: the simulator's shared socket tells its devices apart by their ids
    const twinHub = new GbSimHub({ host: '127.0.0.3' });
    await twinHub.start();
    const twin = twinHub.device({
      deviceId: twinId,
      password: PASSWORD,
      channelIds: [CH1],
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port },
    });
    const synced = new Promise<{ deviceId: string; error?: string }>((resolve) =>
      t.app.gb.on('synced', (e) => e.deviceId === twinId && resolve(e)),
    );
    expect(await twin.start()).toBe(true);
    expect(await synced).toEqual({ deviceId: twinId });
    try {
      const invited: string[] = [];
      const onInvite = (who: string) => () => invited.push(who);
      dev.on('invite', onInvite(DEVICE));
      twin.on('invite', onInvite(twinId));
      const mine = envelope<{ key: string; flv: string }>(await post('gbPlay', { channel: CH1, device: twinId }));
      expect(mine.code, mine.msg).toBe(200);
      expect(mine.data.key).toBe(`gb:${twinId}_${CH1}`);
      expect(invited).toEqual([twinId]);
      // the first device's channel of the same id is a stream of its own, still playing
      const first = envelope<{ key: string }>(await post('gbPlay', { channel: CH1, device: DEVICE }));
      expect(first.data.key).toBe(`gb:${DEVICE}_${CH1}`);
      expect(t.app.media.keyed.has(`gb:${twinId}_${CH1}`)).toBe(true);
      expect(t.app.media.keyed.has(`gb:${DEVICE}_${CH1}`)).toBe(true);
      // a device that does not have the channel: 404, nothing invited
      const other = envelope(await post('gbPlay', { channel: CH1, device: '34020000001320000099' }));
      expect(other).toMatchObject({ code: 404 });
      expect(invited.filter((w) => w === twinId)).toHaveLength(1);
      expect(await t.app.gb.channelRef(CH1, twinId)).toMatchObject({ deviceId: twinId });
      expect(await t.app.gb.channelRef(CH1, DEVICE)).toMatchObject({ deviceId: DEVICE });
    } finally {
      await twinHub.stop();
    }
  });

  it('stores the MobilePosition NOTIFYs of its subscription', async () => {
    await until('a position stored', async () => {
      const row = await t.db
        .selectFrom('gb_devices')
        .select(['lng', 'lat'])
        .where('gbid', '=', DEVICE)
        .executeTakeFirst();
      return row?.lng != null;
    });
    const detail = envelope<{ lng: number; lat: number; position_time: string }>(
      await post('gbDeviceDetail', { devgbid: DEVICE }),
    );
    expect(Math.abs(detail.data.lng - 114.05)).toBeLessThan(0.01);
    expect(Math.abs(detail.data.lat - 22.54)).toBeLessThan(0.01);
    expect(detail.data.position_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  });

  it('passes its alarms on (app.gb "alarm") and answers channel lookups for live video', async () => {
    const alarm = new Promise<{ deviceId: string; priority: number }>((resolve) =>
      t.app.gb.once('alarm', (e) => resolve(e)),
    );
    await dev.raiseAlarm({ priority: 1 });
    expect(await alarm).toMatchObject({ deviceId: DEVICE, priority: 1 });
    // and the alarms pipeline stores it, in the device's unit, without a body-camera row
    const stored = () =>
      t.db.selectFrom('alarms').selectAll().where('hostbody', '=', DEVICE).where('type', '=', '9').execute();
    await until('the GB alarm stored', async () => (await stored()).length === 1);
    const [row] = await stored();
    const unit = await t.db.selectFrom('units').select('id').where('bh', '=', MINE).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ device_id: null, unit_id: unit.id, hostname: 'Gate camera', hostcode: DEVICE });
    expect(row!.eid).toMatch(/^gb:\d{20}:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}:\d$/);
    expect(row!.message).toMatch(/^GB alarm \(\w[\w ]*, priority 1\)/);
    expect(Math.abs(Date.parse(row!.alarm_time) - Date.now())).toBeLessThan(60_000);
    const mine = await t.db.selectFrom('units').select('id').where('bh', '=', MINE).executeTakeFirstOrThrow();
    expect(await t.app.gb.channelRef(CH1)).toEqual({ deviceId: DEVICE, unitId: mine.id });
    expect(await t.app.gb.channelRef(DEVICE)).toEqual({ deviceId: DEVICE, unitId: mine.id });
    expect(await t.app.gb.channelRef('34020000001310000099')).toBeNull();
    // an offline device configured alike that repeats CH1: the online device's channel is meant
    const twin = await t.db
      .insertInto('gb_devices')
      .values({ gbid: '34020000001320000098', unit_id: unit.id, online: 0, created: '2026-11-27 10:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('gb_channels')
      .values({
        device_id: twin.id,
        gbid: CH1,
        name: 'twin',
        parent: '',
        status: 1,
        ptz_type: 0,
        manufacturer: '',
        model: '',
        lng: null,
        lat: null,
      })
      .execute();
    expect(await t.app.gb.channelRef(CH1)).toEqual({ deviceId: DEVICE, unitId: mine.id });
    await t.db.deleteFrom('gb_channels').where('device_id', '=', twin.id).execute();
    await t.db.deleteFrom('gb_devices').where('id', '=', twin.id).execute();
  });

  it('registers over TCP too, and answers PTZ over its connection', async () => {
    const id = '34020000001320000051';
    const tcp = hub.device({
      deviceId: id,
      password: PASSWORD,
      channels: 1,
      transport: 'tcp',
      server: { id: PLATFORM, domain: DOMAIN, host: '127.0.0.1', port },
    });
    const synced = new Promise<{ deviceId: string; error?: string }>((resolve) =>
      t.app.gb.on('synced', (e) => e.deviceId === id && resolve(e)),
    );
    expect(await tcp.start()).toBe(true);
    expect(await synced).toEqual({ deviceId: id });
    const detail = envelope<{ transport: string; lineon: number; channels: { devgbid: string }[] }>(
      await post('gbDeviceDetail', { devgbid: id }),
    );
    expect(detail.data).toMatchObject({ transport: 'tcp', lineon: 1 });
    const channel = detail.data.channels[0]!.devgbid;
    expect(envelope(await post('gbPtz', { device: id, channel, action: 'zoomin', speed: 160 })).code).toBe(200);
    expect(tcp.ptzLog.at(-1)).toMatchObject({ channelId: channel, action: 'zoomin', zoomSpeed: 10 });
    // a name an admin gives survives the DeviceInfo of the next registration
    const tcpRow = await t.db
      .selectFrom('gb_devices')
      .select(['id', 'unit_id'])
      .where('gbid', '=', id)
      .executeTakeFirstOrThrow();
    await post('gbDeviceUpdate', { id: tcpRow.id, unit_id: tcpRow.unit_id, name: 'Yard camera' });
    await tcp.stop();
    const again = new Promise<{ deviceId: string; error?: string }>((resolve) =>
      t.app.gb.on('synced', (e) => e.deviceId === id && resolve(e)),
    );
    expect(await tcp.start()).toBe(true);
    expect(await again).toEqual({ deviceId: id });
    const renamed = await t.db
      .selectFrom('gb_devices')
      .select(['name', 'online'])
      .where('gbid', '=', id)
      .executeTakeFirstOrThrow();
    expect(renamed).toEqual({ name: 'Yard camera', online: 1 });
    await tcp.stop();
  });

  it('plays a channel live through the running platform (gbplay), in the unit scope only', async () => {
    const EN = { ...admin.headers, 'x-lang': 'en-US' };
    const play = envelope<{ channel_id: string; key: string; flv: string; expires: number }>(
      await post('gbPlay', { channel: CH1 }),
    );
    expect(play.code, play.msg).toBe(200);
    expect(play.data).toMatchObject({ channel_id: CH1, key: `gb:${DEVICE}_${CH1}` });
    expect(play.data.flv).toMatch(new RegExp(`^/live/gb-${DEVICE}_${CH1}\\.flv\\?token=`));
    expect(t.app.media.keyed.has(`gb:${DEVICE}_${CH1}`)).toBe(true);
    const outside = await userIn(OTHER, [{ ids: [MenuId.VIDEO_PATROL], actions: ['view'] }]);
    expect(envelope(await post('gbPlay', { channel: CH1 }, outside.headers))).toMatchObject({ code: 403 });
    // history replay alone (10152): the device's recordings play, live does not
    const replayOnly = await userIn(MINE, [{ ids: [MenuId.PLAYBACK], actions: ['view'] }]);
    expect(envelope(await post('gbPlay', { channel: CH1 }, replayOnly.headers))).toMatchObject({ code: 403 });
    const recorded = envelope<{ key: string }>(
      await post(
        'gbPlay',
        { channel: CH1, start: '2026-01-02 09:00:00', end: '2026-01-02 09:00:05' },
        replayOnly.headers,
      ),
    );
    expect(recorded.code, recorded.msg).toBe(200);
    expect(recorded.data.key).toMatch(new RegExp(`^gbpb:${DEVICE}_${CH1}_`));
    expect(envelope(await post('gbPlay', { channel: 'x' }, EN))).toMatchObject({ code: 400 });
    const backwards = envelope(
      await post('gbPlay', { channel: CH1, start: '2026-01-02 10:00:00', end: '2026-01-02 09:00:00' }, EN),
    );
    expect(backwards).toMatchObject({ code: 400 });
    expect(backwards.msg).toContain('end');
  });

  it('refresh asks the device again for DeviceInfo and Catalog and stores what it says; audited', async () => {
    const row = await t.db.selectFrom('gb_devices').select('id').where('gbid', '=', DEVICE).executeTakeFirstOrThrow();
    const channelsStored = async () =>
      (
        await t.db.selectFrom('gb_channels').select('gbid').where('device_id', '=', row.id).orderBy('gbid').execute()
      ).map((c) => c.gbid);
    // the stored row went stale; the device gained a fourth channel since it registered
    await t.db.updateTable('gb_devices').set({ firmware: 'old', model: 'old' }).where('id', '=', row.id).execute();
    const added = '34020000001310000005';
    dev.channelIds.push(added);
    const asked: string[] = [];
    const onQuery = (q: { cmdType: string }) => asked.push(q.cmdType);
    dev.on('query', onQuery);
    const fresh = envelope<{ id: number; channel_count: number; firmware: string; model: string; name: string }>(
      await post('gbDeviceRefresh', { id: row.id }),
    );
    dev.off('query', onQuery);
    expect(fresh).toMatchObject({
      code: 200,
      data: { id: row.id, channel_count: 4, firmware: '1.0', model: 'SIM-IPC', name: 'Gate camera' },
    });
    expect(asked).toEqual(['DeviceInfo', 'Catalog']);
    expect(await channelsStored()).toContain(added);
    expect(await channelsStored()).toHaveLength(4);
    // and a channel gone from the device is gone from the rows
    dev.channelIds.pop();
    expect(envelope<{ channel_count: number }>(await post('gbDeviceRefresh', { id: row.id })).data.channel_count).toBe(
      3,
    );
    expect(await channelsStored()).not.toContain(added);

    // refusals: another unit's GB admin, a user without edit on 10343, an unknown id, a bad id
    expect(envelope(await post('gbDeviceRefresh', { id: row.id }, otherAdmin.headers))).toMatchObject({ code: 403 });
    expect(envelope(await post('gbDeviceRefresh', { id: row.id }, patrolViewer.headers))).toMatchObject({
      code: 403,
      msg: '没有权限：需要菜单 10343 的“编辑”权限',
    });
    expect(envelope(await post('gbDeviceRefresh', { id: 999_999 }))).toMatchObject({ code: 404 });
    expect(envelope(await post('gbDeviceRefresh', { id: 'x' }))).toMatchObject({ code: 400 });
    const rows = await auditRows(t.db, Api.gbDeviceRefresh.path);
    // newest first; the 403 of the menu check and the 400 are written too
    expect(rows.map((r) => r.result_code)).toEqual([400, 404, 403, 403, 200, 200]);
    expect(rows.at(-1)!.target).toBe(String(row.id));
  });

  it('refresh of a device that does not answer is a 504', async () => {
    const row = await t.db.selectFrom('gb_devices').select('id').where('gbid', '=', DEVICE).executeTakeFirstOrThrow();
    // the registration now points at a socket that takes the requests and never answers
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const registered = t.app.gb.platform!.device(DEVICE)!;
    const remote = registered.remote;
    registered.remote = { transport: 'udp', address: '127.0.0.1', port: silent.address().port };
    let got = 0;
    silent.on('message', () => got++);
    try {
      const EN = { ...admin.headers, 'x-lang': 'en-US' };
      const answer = envelope(await post('gbDeviceRefresh', { id: row.id }, EN));
      expect(answer.code).toBe(504);
      expect(got).toBeGreaterThan(0);
    } finally {
      registered.remote = remote;
      silent.close();
    }
  });

  it('keeps the last good position when a MobilePosition NOTIFY says 0/0 (no fix)', async () => {
    // a device of its own with no subscription (the registered one keeps sending real fixes)
    const FIXLESS = '34020000001320000097';
    const unit = await t.db.selectFrom('units').select('id').where('bh', '=', MINE).executeTakeFirstOrThrow();
    await t.db
      .insertInto('gb_devices')
      .values({
        gbid: FIXLESS,
        unit_id: unit.id,
        lng: 114.05,
        lat: 22.54,
        position_time: '2026-11-27 09:59:00',
        created: '2026-11-27 09:00:00',
      })
      .execute();
    // as the SIP layer emits a decoded NOTIFY: a fix-less one, then a real one (applied in order)
    const platform = t.app.gb.platform!;
    const stored: string[] = [];
    const onStored = (e: { deviceId: string; what: string }) => e.deviceId === FIXLESS && stored.push(e.what);
    t.app.gb.on('stored', onStored);
    try {
      const zero = { deviceId: FIXLESS, sourceId: FIXLESS, longitude: 0, latitude: 0, time: '2026-11-27T10:00:00' };
      platform.emit('position', zero);
      platform.emit('position', { ...zero, longitude: 0, latitude: 22.5, time: '2026-11-27T10:00:01' });
      await until('the second position stored', async () => stored.length > 0);
    } finally {
      t.app.gb.off('stored', onStored);
    }
    // the 0/0 one changed nothing and was not announced; lng 0 alone is a position
    expect(stored).toEqual(['position']);
    const after = await t.db
      .selectFrom('gb_devices')
      .select(['lng', 'lat', 'position_time'])
      .where('gbid', '=', FIXLESS)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ lng: 0, lat: 22.5, position_time: '2026-11-27 10:00:01' });
    await t.db.deleteFrom('gb_devices').where('gbid', '=', FIXLESS).execute();
  });

  it('goes offline when it unregisters; PTZ then says so', async () => {
    const offline = new Promise<void>((resolve) =>
      t.app.gb.on('stored', (e) => e.deviceId === DEVICE && e.what === 'offline' && resolve()),
    );
    await dev.stop();
    await offline;
    const row = await t.db
      .selectFrom('gb_devices')
      .select('online')
      .where('gbid', '=', DEVICE)
      .executeTakeFirstOrThrow();
    expect(row.online).toBe(0);
    const EN = { ...admin.headers, 'x-lang': 'en-US' };
    expect(envelope(await post('gbPtz', { device: DEVICE, channel: CH1, action: 'up' }, EN))).toEqual({
      code: 409,
      msg: 'The GB device is offline.',
      data: null,
    });
    const gone = await t.db.selectFrom('gb_devices').select('id').where('gbid', '=', DEVICE).executeTakeFirstOrThrow();
    expect(envelope(await post('gbDeviceRefresh', { id: gone.id }, EN))).toEqual({
      code: 409,
      msg: 'The GB device is offline.',
      data: null,
    });
  });
});

describe('saving the settings', () => {
  it('restarts the platform on a new port, and stops it when GB mode goes off', async () => {
    const first = t.app.gb.platform;
    const firstLive = t.app.gbLive.current;
    const next = await freePort();
    expect(envelope(await saveSettings({ LocalPort: next })).code).toBe(200);
    expect(t.app.gb.platform).not.toBe(first);
    expect(t.app.gb.platform?.port).toBe(next);
    expect(t.app.gbLive.current).not.toBeNull();
    expect(t.app.gbLive.current).not.toBe(firstLive);
    // a save that changes nothing the platform uses keeps it
    const second = t.app.gb.platform;
    expect(envelope(await saveSettings({ LocalPort: next, DevicePassword: 'Other#pw1' })).code).toBe(200);
    expect(t.app.gb.platform).toBe(second);
    expect(envelope(await saveSettings({ LocalPort: next, gb_mode: 0 })).code).toBe(200);
    expect(t.app.gb.platform).toBeNull();
    expect(t.app.gbLive.current).toBeNull();
    // a refresh then says the platform is not running
    const row = await t.db.selectFrom('gb_devices').select('id').where('gbid', '=', DEVICE).executeTakeFirstOrThrow();
    expect(envelope(await post('gbDeviceRefresh', { id: row.id }, { ...admin.headers, 'x-lang': 'en-US' }))).toEqual({
      code: 409,
      msg: 'GB28181 access is not running (GB mode is off or the SIP port could not be opened).',
      data: null,
    });
    expect((await auditRows(t.db, Api.gbDeviceRefresh.path))[0]).toMatchObject({ result_code: 409 });
  });
});
