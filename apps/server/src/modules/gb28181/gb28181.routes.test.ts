import { createServer, type Server } from 'node:net';
import { Api, GB_SETTINGS_DEFAULTS, MenuId } from '@bwc/protocol';
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
import { seedGbMode } from './gb28181.repository';

let t: TestApp;
let admin: Session;
let dispatcher: Session;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
});
afterAll(async () => t.close());

const EN = { 'x-lang': 'en-US' };
const get = (headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'GET', url: `${Api.settingsGet.path}?type=gbconfig`, headers });
const update = (payload: Record<string, unknown>, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'POST', url: Api.settingsUpdate.path, headers, payload: { type: 'gbconfig', ...payload } });
const gbConfig = (headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'GET', url: Api.gbConfig.path, headers });
const checkUser = (headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'POST', url: Api.gbCheckUser.path, headers, payload: {} });
const context = async (headers: Record<string, string>) =>
  envelope<{ gb: number }>(await t.app.inject({ method: 'GET', url: Api.userContext.path, headers })).data.gb;

const VALID = {
  gb_mode: 0,
  SipDomain: '4403050001',
  SipId: '44030500012000000001',
  LocalIp: '192.168.10.20',
  LocalPort: 15060,
  RegExpires: 7200,
  AliveInterval: 30,
  AliveTimeoutCnt: 4,
  VideoPort: 40000,
  AudioPort: 41000,
  PortCount: 200,
  DevicePassword: 'Gb#28181pw',
};

async function userWith(menus: number[], actions: ('view' | 'edit' | 'add')[], username?: string) {
  const roleId = await createRole(t.db, `r_${Math.random().toString(36).slice(2, 8)}`, [{ ids: menus, actions }]);
  const u = await createUser(t.db, { roleId, username });
  return { ...u, session: await login(t.app, u.username, u.password) };
}

describe('GB settings (system settings type gbconfig, menu 10003)', () => {
  it('answers the defaults before a save: GB mode off, the usual platform id and ports', async () => {
    expect(envelope(await get())).toEqual({ code: 200, msg: '操作成功', data: GB_SETTINGS_DEFAULTS });
    expect(GB_SETTINGS_DEFAULTS).toMatchObject({ gb_mode: 0, LocalPort: 5060, SipDomain: '3402000000' });
  });

  it('refuses without a session and without the dispatch-config menu, before the fields', async () => {
    expect(envelope(await get({}))).toMatchObject({ code: 401 });
    expect(envelope(await get(dispatcher.headers))).toEqual({
      code: 403,
      msg: '没有权限：需要菜单 10003 的“查看”权限',
      data: null,
    });
    expect(envelope(await update({ ...VALID, SipDomain: 'x' }, { ...dispatcher.headers, ...EN }))).toEqual({
      code: 403,
      msg: 'Permission denied: this needs "edit" on menu 10003',
      data: null,
    });
    // system settings (10002) alone do not reach the GB settings
    const sys = await userWith([MenuId.SYSTEM_SETTINGS], ['view', 'edit']);
    expect(envelope(await get(sys.session.headers))).toMatchObject({ code: 403 });
  });

  it('gives the device password only to those who may edit; viewers cannot save', async () => {
    await update(VALID);
    const viewer = await userWith([MenuId.TRACK, MenuId.DISPATCH_CONFIG], ['view']);
    const seen = envelope<typeof VALID>(await get(viewer.session.headers));
    expect(seen.code).toBe(200);
    expect(seen.data).toEqual({ ...VALID, DevicePassword: '' });
    expect(envelope<typeof VALID>(await get()).data.DevicePassword).toBe(VALID.DevicePassword);
    expect(envelope(await update({ ...VALID, LocalPort: 5070 }, viewer.session.headers))).toMatchObject({
      code: 403,
      msg: '没有权限：需要菜单 10003 的“编辑”权限',
    });
    expect(envelope<typeof VALID>(await get()).data.LocalPort).toBe(VALID.LocalPort);
  });

  it('refuses bad fields naming the field and the rule, and changes nothing', async () => {
    await update(VALID);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ SipDomain: '440305000' }, 'SipDomain', /SIP 域须为 10 位数字/],
      [{ SipDomain: '44030500a1' }, 'SipDomain', /10 位数字/],
      [{ SipId: '4403050001200000001' }, 'SipId', /20 位数字/],
      [{ SipId: '4403050001200000000x' }, 'SipId', /20 位数字/],
      [{ LocalIp: '192.168.1.300' }, 'LocalIp', /IP 地址/],
      [{ LocalIp: 'sip.example' }, 'LocalIp', /IP 地址/],
      [{ LocalPort: 80 }, 'LocalPort', /1024.*65535/],
      [{ LocalPort: 65536 }, 'LocalPort', /1024.*65535/],
      [{ LocalPort: 5060.5 }, 'LocalPort', /整数/],
      [{ RegExpires: 59 }, 'RegExpires', /60.*86400/],
      [{ AliveInterval: 601 }, 'AliveInterval', /5.*600/],
      [{ AliveTimeoutCnt: 0 }, 'AliveTimeoutCnt', /1.*10/],
      [{ VideoPort: 'abc' }, 'VideoPort', /数字/],
      [{ PortCount: 1 }, 'PortCount', /2.*10000/],
      [{ DevicePassword: 'has space' }, 'DevicePassword', /1 至 32 个可见 ASCII 字符/],
      [{ DevicePassword: '' }, 'DevicePassword', /./],
      [{ DevicePassword: 'x'.repeat(33) }, 'DevicePassword', /1 至 32/],
      [{ gb_mode: 2 }, 'gb_mode', /./],
    ];
    for (const [change, field, msg] of cases) {
      const answer = envelope<{ field?: string }>(await update({ ...VALID, ...change }));
      expect(answer.code, JSON.stringify(change)).toBe(400);
      expect(answer.msg, JSON.stringify(change)).toMatch(msg);
      expect(JSON.stringify(answer), JSON.stringify(change)).toContain(field);
    }
    const missing = envelope(
      await t.app.inject({
        method: 'POST',
        url: Api.settingsUpdate.path,
        headers: admin.headers,
        payload: { type: 'gbconfig', ...VALID, SipId: undefined },
      }),
    );
    expect(missing.code).toBe(400);
    expect(envelope(await update({ ...VALID, SipDomain: '1' }, { ...admin.headers, ...EN })).msg).toContain(
      'The SIP domain must be 10 digits.',
    );
    expect(envelope(await get()).data).toEqual(VALID);
  });

  it('keeps the port ranges under 65536, apart, and clear of the SIP port', async () => {
    await update(VALID);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ VideoPort: 65_400, PortCount: 200 }, /字段 VideoPort：端口段 65400 至 65599 超出了 65535/],
      [{ AudioPort: 65_535, PortCount: 2 }, /端口段 65535 至 65536 超出了 65535/],
      [{ VideoPort: 40_000, AudioPort: 40_199, PortCount: 200 }, /字段 AudioPort：视频与音频端口段重叠/],
      [{ VideoPort: 41_100, AudioPort: 41_000, PortCount: 200 }, /视频与音频端口段重叠/],
      [{ LocalPort: 40_100 }, /字段 LocalPort：信令端口不能落在媒体端口段内/],
      [{ LocalPort: 41_199 }, /信令端口不能落在媒体端口段内/],
    ];
    for (const [change, msg] of cases) {
      const answer = envelope(await update({ ...VALID, ...change }));
      expect(answer.code, JSON.stringify(change)).toBe(400);
      expect(answer.msg, JSON.stringify(change)).toMatch(msg);
    }
    expect(envelope(await update({ ...VALID, AudioPort: 65_535, PortCount: 2 }, { ...admin.headers, ...EN })).msg).toBe(
      'Field AudioPort: The port range 65535 to 65536 runs past 65535.',
    );
    // the edges: adjacent ranges and a SIP port just outside them are accepted
    const edges = { ...VALID, VideoPort: 40_000, AudioPort: 40_200, PortCount: 200, LocalPort: 40_400 };
    expect(envelope(await update(edges)).code).toBe(200);
    expect(envelope(await update({ ...edges, VideoPort: 65_336, AudioPort: 1024, LocalPort: 5060 })).code).toBe(200);
    await update(VALID);
  });

  it('saves, answers back, and audits the save and the refusals with the type as target', async () => {
    const next = { ...VALID, LocalIp: '', LocalPort: 5062, DevicePassword: 'Another1' };
    expect(envelope(await update(next))).toEqual({ code: 200, msg: '保存成功', data: next });
    expect(envelope(await get()).data).toEqual(next);
    await update({ ...next, AliveTimeoutCnt: 11 });
    await update(next, dispatcher.headers);
    const [refused, invalid, saved] = (await auditRows(t.db, Api.settingsUpdate.path)).filter(
      (r) => r.target === 'gbconfig',
    );
    expect(refused).toMatchObject({ username: 'dispatcher', result_code: 403 });
    expect(invalid).toMatchObject({ username: 'admin', result_code: 400 });
    expect(saved).toMatchObject({ username: 'admin', result_code: 200, msg: '保存成功' });
    // the device password is not written to the operation log
    expect(JSON.stringify(await auditRows(t.db, Api.settingsUpdate.path))).not.toContain('Another1');
  });
});

describe('the GB mode flag', () => {
  it('switches the user context (gb) and the version info (play_versiton)', async () => {
    const version = async () =>
      envelope<{ play_versiton: string }>(
        await t.app.inject({ method: 'GET', url: Api.versionInfo.path, headers: admin.headers }),
      ).data.play_versiton;
    await update({ ...VALID, gb_mode: 0 });
    expect(await context(admin.headers)).toBe(0);
    expect(await context(dispatcher.headers)).toBe(0);
    expect(await version()).toBe('GIS');
    await update({ ...VALID, gb_mode: 1 });
    expect(await context(admin.headers)).toBe(1);
    expect(await context(dispatcher.headers)).toBe(1);
    expect(await version()).toBe('GB');
    await update({ ...VALID, gb_mode: 0 });
    expect(await context(dispatcher.headers)).toBe(0);
  });

  it('GB_MODE=1 turns it on in settings never saved, and leaves saved settings alone', async () => {
    const gb = await createTestApp({ gbMode: true });
    try {
      const s = await login(gb.app, DEMO.admin.username, DEMO.admin.password);
      const read = async () =>
        envelope<typeof VALID>(
          await gb.app.inject({ method: 'GET', url: `${Api.settingsGet.path}?type=gbconfig`, headers: s.headers }),
        ).data;
      expect(await read()).toEqual({ ...GB_SETTINGS_DEFAULTS, gb_mode: 1 });
      const ctx = await gb.app.inject({ method: 'GET', url: Api.userContext.path, headers: s.headers });
      expect(envelope<{ gb: number }>(ctx).data.gb).toBe(1);
      await gb.app.inject({
        method: 'POST',
        url: Api.settingsUpdate.path,
        headers: s.headers,
        payload: { type: 'gbconfig', ...VALID, gb_mode: 0 },
      });
      await seedGbMode(gb.db); // what the next start does
      expect(await read()).toEqual({ ...VALID, gb_mode: 0 });
    } finally {
      await gb.close();
    }
  });
});

/** a video-patrol user, the GB player's usual caller (the licence allows 10 consoles signed in) */
let patrol: Awaited<ReturnType<typeof userWith>>;

describe('gbconfig/get: the GB player configuration', () => {
  it('needs a session and view on video patrol, GB alarm history or replay', async () => {
    expect(envelope(await gbConfig({}))).toMatchObject({ code: 401 });
    const none = await userWith([MenuId.TRACK, MenuId.DISPATCH_CONFIG], ['view']);
    expect(envelope(await gbConfig({ ...none.session.headers, ...EN }))).toMatchObject({ code: 403 });
    patrol = await userWith([MenuId.VIDEO_PATROL], ['view'], 'gb.user-1');
    expect(envelope(await gbConfig(patrol.session.headers)).code).toBe(200);
    for (const menu of [MenuId.MONITOR_ALARM, MenuId.PLAYBACK]) {
      const u = await userWith([menu], ['view']);
      expect(envelope(await gbConfig(u.session.headers)).code).toBe(200);
    }
  });

  it('answers the platform the player plays from and the user it plays as; never a password', async () => {
    await update({ ...VALID, gb_mode: 1 });
    const u = patrol;
    const answer = envelope<Record<string, unknown>>(await gbConfig(u.session.headers));
    expect(answer.data).toEqual({
      status: 1,
      running: 0,
      ocx_config: {
        userid: u.id,
        username: u.username,
        ocxID: `4403050001300${String(u.id).padStart(7, '0')}`,
        SipDomain: VALID.SipDomain,
        ocxSip: VALID.SipId,
        ocxIp: VALID.LocalIp,
        ocxPort: VALID.LocalPort,
        RegExpires: VALID.RegExpires,
        AliveInterval: VALID.AliveInterval,
        AliveTimeoutCnt: VALID.AliveTimeoutCnt,
        VideoPort: VALID.VideoPort,
        AudioPort: VALID.AudioPort,
        PortCount: VALID.PortCount,
      },
      video_live_num: 9,
    });
    expect(JSON.stringify(answer)).not.toContain(VALID.DevicePassword);
    // every interface: the address the console reached the server at
    await update({ ...VALID, LocalIp: '' });
    const local = await gbConfig({ ...admin.headers, host: '10.1.2.3:8080' });
    expect(envelope<{ ocx_config: { ocxIp: string }; status: number }>(local).data).toMatchObject({
      status: 0,
      ocx_config: { ocxIp: '10.1.2.3' },
    });
  });
});

/** A TCP server on 127.0.0.1 holding a free port (1024 and up). */
async function holdPort(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const portOf = (s: Server) => (s.address() as { port: number }).port;
const closeServer = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

describe('gb_status: whether GB28181 access runs', () => {
  /** media ranges below the ephemeral ports the SIP port comes from */
  const LOW = { ...VALID, gb_mode: 1, LocalIp: '127.0.0.1', VideoPort: 1100, AudioPort: 1400, PortCount: 200 };
  const status = (headers: Record<string, string> = admin.headers) =>
    t.app.inject({ method: 'GET', url: Api.gbStatus.path, headers });

  it('needs view on dispatch config', async () => {
    expect(envelope(await status({}))).toMatchObject({ code: 401 });
    expect(envelope(await status(dispatcher.headers))).toMatchObject({
      code: 403,
      msg: '没有权限：需要菜单 10003 的“查看”权限',
    });
  });

  it('follows the saved settings: off, running on its port, and why it could not start', async () => {
    await update({ ...VALID, gb_mode: 0 });
    expect(envelope(await status()).data).toEqual({ gb_mode: 0, running: 0, host: VALID.LocalIp, port: 0, error: '' });

    // a port that was free a moment ago: the platform starts there before the save answers
    const probe = await holdPort();
    const free = portOf(probe);
    await closeServer(probe);
    expect(envelope(await update({ ...LOW, LocalPort: free })).code).toBe(200);
    expect(envelope(await status()).data).toEqual({ gb_mode: 1, running: 1, host: '127.0.0.1', port: free, error: '' });

    // a port another program holds: not running, with the reason
    const busy = await holdPort();
    try {
      expect(envelope(await update({ ...LOW, LocalPort: portOf(busy) })).code).toBe(200);
      const seen = envelope<{ running: number; error: string; port: number }>(await status()).data;
      expect(seen).toMatchObject({ running: 0, port: 0 });
      expect(seen.error).toMatch(/EADDRINUSE/);
    } finally {
      await closeServer(busy);
    }
    await update({ ...VALID, gb_mode: 0 });
    expect(envelope(await status()).data).toMatchObject({ gb_mode: 0, running: 0, error: '' });
  });
});

describe('checkgbuser: can the signed-in user be used for GB', () => {
  it('needs a session', async () => {
    expect(envelope(await checkUser({}))).toMatchObject({ code: 401 });
  });

  it('says no while GB mode is off, yes with the GB id once on, no for a username SIP cannot carry', async () => {
    await update({ ...VALID, gb_mode: 0 });
    const me = patrol;
    const gbid = `4403050001300${String(me.id).padStart(7, '0')}`;
    expect(envelope(await checkUser(me.session.headers)).data).toEqual({
      usable: 0,
      reason: 'gb_off',
      username: 'gb.user-1',
      gbid,
    });
    await update({ ...VALID, gb_mode: 1 });
    expect(envelope(await checkUser(me.session.headers)).data).toEqual({
      usable: 1,
      reason: null,
      username: 'gb.user-1',
      gbid,
    });
    const at = await userWith([MenuId.VIDEO_PATROL], ['view'], 'officer@unit');
    expect(envelope(await checkUser(at.session.headers)).data).toMatchObject({ usable: 0, reason: 'username' });
    // a read, not an operation: not in the operation log
    expect(await auditRows(t.db, Api.gbCheckUser.path)).toEqual([]);
  });
});
