import {
  CONSOLE_WS_PATH,
  ConsoleCodes,
  LOG_AREA_MAX,
  LOG_LINE_MAX,
  LogLevel,
  PRODUCT_PREFIX,
  REALTIME_EMPTY_CALLBACK,
  REALTIME_HEARTBEAT_MS,
  REALTIME_INIT_TIMEOUT_MS,
  REALTIME_RECONNECT_MS,
  SdkCode,
} from '@bwc/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../i18n';
import { cacheKey, LOGIN_CACHE_FIELDS, LoginCacheStore } from './cache';
import { SdkError } from './errors';
import { LOG_OUTPUT_ID, SdkLogger } from './log';
import { FakeSocket } from './fakeSocket';
import { InitStatus, LOGOUT_ANSWER_WAIT_MS, RealtimeSdk } from './RealtimeSdk';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const location = { protocol: 'http:', host: 'console.test:8080', hostname: 'console.test' };

function setup() {
  const sockets: FakeSocket[] = [];
  const wakes: (() => void)[] = [];
  const logger = new SdkLogger({ sink: silent, document: null });
  const warn = vi.spyOn(logger, 'warn');
  const sdk = new RealtimeSdk({
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    logger,
    location,
    now: () => 1_700_000_000_000,
    watchConnectivity: (wake) => {
      wakes.push(wake);
      return () => undefined;
    },
  });
  const current = () => sockets[sockets.length - 1]!;
  return { sdk, sockets, current, warn, wake: () => wakes.forEach((w) => w()) };
}

const profile = {
  uid: 100000001,
  ext_id: 'itrunk_admin',
  user_type: 1,
  display_name: 'Admin',
  username: 'admin',
  unit_id: 1,
  unitname: 'HQ',
  dwbh: '330100000000',
  state: 7,
  paraminfo: {},
};

/** Logs on through the fake service: logon answer, then the profile answer. */
async function logon(sdk: RealtimeSdk, current: () => FakeSocket) {
  const done = sdk.logon({
    logon_name: 'admin',
    passwd: 'secret',
    client_alive_time: 5,
    ipaddr: '10.0.0.5',
    port: '9080',
  });
  await vi.waitFor(() => expect(current().last('req_logon')).toBeDefined());
  const req = current().last('req_logon')!;
  current().receive({
    msg_code: 'rsp_logon',
    cmd_type: 1,
    cbid: req.cbid,
    cmd_status: 0,
    error_reason: '',
    uid: profile.uid,
    ext_id: profile.ext_id,
    user_type: 1,
    display_name: 'Admin',
    token: 'tok',
    clientid: req.clientid,
    client_alive_time: 5,
    client_login_time: 1_700_000_000_500,
    took_over: 0,
  });
  await vi.waitFor(() => expect(current().last('req_user_profile')).toBeDefined());
  const ask = current().last('req_user_profile')!;
  expect(ask.targets).toEqual([profile.uid]);
  current().receive({
    msg_code: 'rsp_user_profile',
    cmd_type: 1,
    cbid: ask.cbid,
    cmd_status: 0,
    error_reason: '',
    user_info: [profile],
    unknown: [],
  });
  return done;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RealtimeSdk init status', () => {
  it('is 1 before init and 3 at once when no connection is needed', () => {
    const { sdk, sockets } = setup();
    expect(sdk.initStatus).toBe(InitStatus.NOT_INITIALISED);
    sdk.init({ ip: 'svc', port: 9080 });
    expect(sdk.initStatus).toBe(InitStatus.DONE);
    expect(sockets).toHaveLength(0);
  });

  it('is 2 while connecting and 3 on the first heartbeat reply', () => {
    const { sdk, current } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    expect(sdk.initStatus).toBe(InitStatus.IN_PROGRESS);
    current().open();
    expect(sdk.initStatus).toBe(InitStatus.IN_PROGRESS);
    current().receive({ msg_code: 'heartbeat', cmd_type: 1, cmd_status: 0, error_reason: '', logged_on: 0, time: 1 });
    expect(sdk.initStatus).toBe(InitStatus.DONE);
  });

  it('becomes 3 after 10 s without a reply', () => {
    const { sdk } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    vi.advanceTimersByTime(REALTIME_INIT_TIMEOUT_MS - 1);
    expect(sdk.initStatus).toBe(InitStatus.IN_PROGRESS);
    vi.advanceTimersByTime(1);
    expect(sdk.initStatus).toBe(InitStatus.DONE);
  });

  it('refuses requests before init with 10106', async () => {
    const { sdk } = setup();
    await expect(sdk.request('req_user_state', { uids: [], extuids: [] })).rejects.toMatchObject({
      code: SdkCode.INIT_NOT_EXECUTED,
    });
  });
});

describe('RealtimeSdk heartbeat', () => {
  it('sends three heartbeats at open, then one every 10 s', () => {
    const { sdk, current } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().open();
    expect(current().heartbeats()).toHaveLength(3);
    vi.advanceTimersByTime(REALTIME_HEARTBEAT_MS - 1);
    expect(current().heartbeats()).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(current().heartbeats()).toHaveLength(4);
    vi.advanceTimersByTime(REALTIME_HEARTBEAT_MS * 3);
    expect(current().heartbeats()).toHaveLength(7);
  });

  it('carries the cached clientid and token, and takes the reply as a pong', async () => {
    const { sdk, current, warn } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().open();
    expect(current().heartbeats()[0]).toEqual({ msg_code: 'heartbeat', cmd_type: 0 });
    await logon(sdk, current);
    vi.advanceTimersByTime(REALTIME_HEARTBEAT_MS);
    expect(current().heartbeats()[3]).toMatchObject({ clientid: '1700000000000', token: 'tok' });
    const pongs: unknown[] = [];
    sdk.on('heartbeat', (m) => pongs.push(m));
    current().receive({ msg_code: 'heartbeat', cmd_type: 1, cmd_status: 0, error_reason: '', logged_on: 1, time: 1 });
    expect(pongs).toHaveLength(1);
    expect(warn).not.toHaveBeenCalledWith(expect.stringContaining('dropped'));
  });
});

describe('RealtimeSdk connection', () => {
  it('tries the configured port, 9080, 3001-3005, then the page origin, and gives up with 10101', async () => {
    const { sdk, sockets, current } = setup();
    sdk.init({ ip: 'svc', port: 18120, path: CONSOLE_WS_PATH, connect: false, lang: 'en-US' });
    const errors: SdkError[] = [];
    sdk.onError((e) => errors.push(e));
    // a request with no connection opens one first
    const failed = sdk.request('req_logon', { logon_name: 'a', passwd: 'b', client_alive_time: 0 });
    for (let i = 0; i < 8; i++) current().fail();
    expect(sockets.map((s) => s.url)).toEqual([
      'ws://svc:18120/ws/console?lang=en-US',
      'ws://svc:9080/?lang=en-US',
      'ws://svc:3001/?lang=en-US',
      'ws://svc:3002/?lang=en-US',
      'ws://svc:3003/?lang=en-US',
      'ws://svc:3004/?lang=en-US',
      'ws://svc:3005/?lang=en-US',
      'ws://console.test:8080/ws/console?lang=en-US',
    ]);
    await expect(failed).rejects.toMatchObject({ code: SdkCode.WS_INIT_FAILED });
    expect(errors.map((e) => e.code)).toEqual([SdkCode.WS_INIT_FAILED]);
    // no login cached: no new round
    vi.advanceTimersByTime(REALTIME_RECONNECT_MS * 3);
    expect(sockets).toHaveLength(8);
  });

  it('resets the port index on open and sends the request once connected', async () => {
    const { sdk, sockets, current } = setup();
    sdk.init({ ip: 'svc', port: 9080 });
    const answer = sdk.request('req_logon', { logon_name: 'a', passwd: 'b', client_alive_time: 0 });
    current().fail(); // 9080
    current().open(); // 3001
    expect(current().url).toBe('ws://svc:3001/');
    await vi.waitFor(() => expect(current().last('req_logon')).toBeDefined());
    current().receive({
      msg_code: 'rsp_logon',
      cmd_type: 1,
      cbid: current().last('req_logon')!.cbid,
      cmd_status: 40101,
      error_reason: 'bad',
    });
    await expect(answer).rejects.toMatchObject({ code: SdkCode.FAILURE, message: 'bad', cmdStatus: 40101 });
    expect(sockets).toHaveLength(2);
  });

  it('reconnects 5 s after a close when a login is cached, and not without one', async () => {
    const { sdk, sockets, current } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().open();
    current().drop();
    vi.advanceTimersByTime(REALTIME_RECONNECT_MS * 2);
    expect(sockets).toHaveLength(1);

    const second = setup();
    second.sdk.init({ ip: 'svc', port: 9080, connect: true });
    second.current().open();
    await logon(second.sdk, second.current);
    second.current().drop();
    vi.advanceTimersByTime(REALTIME_RECONNECT_MS - 1);
    expect(second.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(second.sockets).toHaveLength(2);
    expect(second.current().url).toBe('ws://svc:9080/');
  });

  it('tells when an open connection is lost, not when a connection attempt fails', () => {
    const { sdk, current } = setup();
    const lost = vi.fn();
    sdk.onConnectionLost(lost);
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().fail();
    expect(lost).not.toHaveBeenCalled();
    current().open();
    current().drop();
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('reconnects at once when the connectivity comes back while a reconnect waits', async () => {
    const { sdk, sockets, current, wake } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().open();
    wake(); // nothing waits: nothing happens
    expect(sockets).toHaveLength(1);
    await logon(sdk, current);
    current().drop();
    wake();
    expect(sockets).toHaveLength(2);
  });

  it('starts a new round of ports 5 s after giving up while a login is cached', async () => {
    const { sdk, sockets, current } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().open();
    await logon(sdk, current);
    current().drop();
    vi.advanceTimersByTime(REALTIME_RECONNECT_MS);
    for (let i = 0; i < 7; i++) current().fail();
    expect(sockets).toHaveLength(8);
    vi.advanceTimersByTime(REALTIME_RECONNECT_MS);
    expect(sockets).toHaveLength(9);
    expect(current().url).toBe('ws://svc:9080/');
  });
});

describe('RealtimeSdk requests', () => {
  it('fails every request but logon and logout without a login with 10104', async () => {
    const { sdk, sockets } = setup();
    sdk.init({ ip: 'svc', port: 9080 });
    const error = await sdk.request('req_im_list', { target: 5, start: 0, count: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: SdkCode.NOT_LOGGED_IN, message: i18next.t('10104', { ns: 'sdk' }) });
    expect(sockets).toHaveLength(0);
  });

  it('calls back by cbid, and fire-and-forget codes with true at once', async () => {
    const { sdk, current } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().open();
    await logon(sdk, current);
    const first = sdk.request('req_im_list', { target: 5 });
    const second = sdk.request('req_im_list', { target: 6 });
    await vi.waitFor(() => expect(current().sent.filter((m) => m.msg_code === 'req_im_list')).toHaveLength(2));
    const [a, b] = current().sent.filter((m) => m.msg_code === 'req_im_list');
    expect(a!.cbid).not.toBe(b!.cbid);
    const page = { total: 0, start: 0, count: 20, im: [] };
    current().receive({
      msg_code: 'rsp_im_list',
      cmd_type: 1,
      cbid: b!.cbid,
      cmd_status: 0,
      error_reason: '',
      ...page,
      total: 6,
    });
    current().receive({
      msg_code: 'rsp_im_list',
      cmd_type: 1,
      cbid: a!.cbid,
      cmd_status: 0,
      error_reason: '',
      ...page,
      total: 5,
    });
    expect((await first).total).toBe(5);
    expect((await second).total).toBe(6);

    await expect(sdk.request('req_user_state', { uids: [1] })).resolves.toBe(true);
    expect(current().last('req_user_state')).toMatchObject({ cbid: REALTIME_EMPTY_CALLBACK, uids: [1] });
  });

  it('marks the fire-and-forget codes of the spec', () => {
    const ff = Object.entries(ConsoleCodes)
      .filter(([, d]) => d.fireAndForget)
      .map(([code]) => code)
      .sort();
    expect(ff).toEqual(
      [
        'req_call',
        'req_emergency_handled',
        'req_query_gps',
        'req_enter_group',
        'req_leave_group',
        'req_force_enter_group',
        'req_force_leave_group',
        'req_add_grp_mem',
        'req_rem_grp_mem',
        'req_user_state',
        'req_call_status',
        'req_ptt_on',
        'req_ptt_off',
        'req_ptt_replay',
        'req_dtmf',
        'req_play_video',
        'req_stop_play_video',
        'req_switch_camera',
        'req_video_mute',
      ].sort(),
    );
  });
});

describe('RealtimeSdk conversions and notices', () => {
  async function loggedOn() {
    const env = setup();
    env.sdk.init({ ip: 'svc', port: 9080, connect: true });
    env.current().open();
    await logon(env.sdk, env.current);
    env.warn.mockClear();
    return env;
  }

  it('turns send_im, query_gps, params_set, play_video and stop_play_video responses into notices', async () => {
    const { sdk, current } = await loggedOn();
    const seen: string[] = [];
    for (const code of ['notice_im', 'notice_gps', 'notice_params_set', 'notice_play_video', 'notice_stop_play_video'])
      sdk.on(code, (m) => seen.push(`${m.msg_code}:${m.cmd_type}`));
    const im = {
      msg_id: 1,
      from: profile.uid,
      extfrom: profile.ext_id,
      from_name: 'Admin',
      target: 5,
      exttarget: 'T5',
      target_type: 0,
      im_type: 1,
      content: 'hi',
      time: '2026-01-01T00:00:00Z',
      filename: '',
      size: 0,
      fid: '',
      ourl: '',
      surl: '',
    };
    const sent = sdk.request('req_send_im', { target: 5, im_type: 1, content: 'hi' });
    await vi.waitFor(() => expect(current().last('req_send_im')).toBeDefined());
    const ok = { cmd_type: 1, cmd_status: 0, error_reason: '' };
    current().receive({ msg_code: 'rsp_send_im', cbid: current().last('req_send_im')!.cbid, ...ok, im });
    expect((await sent).im.content).toBe('hi');
    current().receive({ msg_code: 'rsp_query_gps', cbid: REALTIME_EMPTY_CALLBACK, ...ok, gps: [] });
    current().receive({ msg_code: 'rsp_params_set', cbid: 'x', ...ok, targets: [5], paraminfo: {} });
    current().receive({ msg_code: 'rsp_play_video', cbid: REALTIME_EMPTY_CALLBACK, ...ok });
    current().receive({ msg_code: 'rsp_stop_play_video', cbid: REALTIME_EMPTY_CALLBACK, ...ok });
    expect(seen).toEqual([
      'notice_im:2',
      'notice_gps:2',
      'notice_params_set:2',
      'notice_play_video:2',
      'notice_stop_play_video:2',
    ]);
  });

  it('ignores the console own share_video_in_video_conf response without cbid, warns on other unknown responses', async () => {
    const { sdk, current, warn } = await loggedOn();
    const seen: unknown[] = [];
    sdk.on('rsp_share_video_in_video_conf', (m) => seen.push(m));
    current().receive({ msg_code: 'rsp_share_video_in_video_conf', cmd_type: 1, cmd_status: 0, error_reason: '' });
    expect(warn).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
    current().receive({ msg_code: 'rsp_grp_profile', cmd_type: 1, cbid: 'nobody', cmd_status: 0, error_reason: '' });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('hands notices to listeners by msg_code, dynamic codes included; an empty msg_code is a warning', async () => {
    const { sdk, current, warn } = await loggedOn();
    const states: number[] = [];
    const custom: unknown[] = [];
    sdk.on('notice_user_state', (n) => states.push(n.state));
    sdk.on('notice_vendor_status', (m) => custom.push(m.tgid));
    sdk.on('', () => undefined);
    expect(warn).toHaveBeenCalledTimes(1);
    const state = { uid: 5, ext_id: 'T5', user_type: 0, state: 7, unit_id: 1, time: 1 };
    current().receive({ msg_code: 'notice_user_state', cmd_type: 2, ...state });
    current().receive({ msg_code: 'notice_vendor_status', cmd_type: 2, tgid: 3 });
    current().receive({ msg_code: 'notice_user_state', cmd_type: 2, uid: 'bad' });
    current().receive({ msg_code: 'notice_nobody_listens', cmd_type: 2 });
    expect(states).toEqual([7]);
    expect(custom).toEqual([3]);
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it('clears the cache and closes on a logon notice with cmd_status 2, a logout notice, and error 52001', async () => {
    for (const notice of [
      { msg_code: 'notice_logon', cmd_type: 2, cmd_status: 2, uid: profile.uid, ext_id: profile.ext_id },
      { msg_code: 'notice_logout', cmd_type: 2, cmd_status: 0, uid: profile.uid, ext_id: profile.ext_id },
      { msg_code: 'notice_error', cmd_type: 2, cmd_status: 52001, error_reason: 'session ended' },
    ]) {
      const { sdk, current, sockets } = await loggedOn();
      const errors: SdkError[] = [];
      sdk.onError((e) => errors.push(e));
      let seen = 0;
      sdk.on(notice.msg_code, () => (seen += 1));
      expect(sdk.login).not.toBeNull();
      current().receive(notice);
      expect(sdk.login, notice.msg_code).toBeNull();
      expect(seen).toBe(1);
      if (notice.msg_code === 'notice_error') expect(errors.map((e) => e.cmdStatus)).toEqual([52001]);
      else expect(current().readyState).toBe(3);
      current().drop();
      vi.advanceTimersByTime(REALTIME_RECONNECT_MS * 2);
      expect(sockets).toHaveLength(1);
      vi.clearAllTimers();
    }
  });
});

describe('RealtimeSdk logon and cache', () => {
  it('caches the login under the product prefix after the profile returns', async () => {
    const { sdk, current } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().open();
    const answer = await logon(sdk, current);
    expect(answer.uid).toBe(profile.uid);
    expect(current().last('req_logon')).toMatchObject({ clientid: '1700000000000', client_alive_time: 5 });
    const keys = LOGIN_CACHE_FIELDS.map(cacheKey);
    expect(keys).toEqual(
      [
        'login_uid',
        'login_user',
        'ipaddr',
        'port',
        'token',
        'clientid',
        'client_alive_time',
        'client_login_time',
        'upload_url_gfile',
      ].map((k) => `${PRODUCT_PREFIX}${k}`),
    );
    expect(sessionStorage.getItem(`${PRODUCT_PREFIX}login_uid`)).toBe(String(profile.uid));
    expect(JSON.parse(sessionStorage.getItem(`${PRODUCT_PREFIX}login_user`)!)).toEqual(profile);
    expect(sessionStorage.getItem(`${PRODUCT_PREFIX}upload_url_gfile`)).toBe(
      `http://10.0.0.5:9080/gfile/upload?token=tok&uid=${profile.uid}`,
    );
    expect(new LoginCacheStore().read()).toMatchObject({
      ipaddr: '10.0.0.5',
      port: '9080',
      client_login_time: 1_700_000_000_500,
    });
  });

  it('caps client_alive_time above 120 minutes with a warning, empty becomes 0', async () => {
    const { sdk, current, warn } = setup();
    sdk.init({ ip: 'svc', port: 9080 });
    void sdk.logon({ logon_name: 'a', passwd: 'b', client_alive_time: 500 }).catch(() => undefined);
    current().open();
    await vi.waitFor(() => expect(current().last('req_logon')).toMatchObject({ client_alive_time: 120 }));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('capped'));
    void sdk.logon({ logon_name: 'a', passwd: 'b', client_alive_time: '' as unknown as number }).catch(() => undefined);
    await vi.waitFor(() => expect(current().sent.filter((m) => m.msg_code === 'req_logon')).toHaveLength(2));
    expect(current().last('req_logon')).toMatchObject({ client_alive_time: 0 });
  });

  it('logout clears the cache and closes the socket', async () => {
    const { sdk, current } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().open();
    await logon(sdk, current);
    const out = sdk.logout();
    await vi.waitFor(() => expect(current().last('req_logout')).toBeDefined());
    current().receive({
      msg_code: 'rsp_logout',
      cmd_type: 1,
      cbid: current().last('req_logout')!.cbid,
      cmd_status: 0,
      error_reason: '',
    });
    await out;
    expect(sdk.login).toBeNull();
    expect(current().readyState).toBe(3);
  });

  it('logout ends the login here when the service stays connected and does not answer', async () => {
    const { sdk, current, warn } = setup();
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    current().open();
    await logon(sdk, current);
    let ended = false;
    const out = sdk.logout().then(() => (ended = true));
    await vi.waitFor(() => expect(current().last('req_logout')).toBeDefined());
    vi.advanceTimersByTime(LOGOUT_ANSWER_WAIT_MS - 1);
    await Promise.resolve();
    expect(ended).toBe(false);
    vi.advanceTimersByTime(1);
    await out;
    expect(sdk.login).toBeNull();
    expect(current().readyState).toBe(3);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('req_logout: no answer'));
  });
});

describe('SdkLogger', () => {
  it('filters by level (default 20), cuts lines at 500 characters and alerts at notice level', () => {
    const alert = vi.fn();
    const logger = new SdkLogger({ sink: silent, document: null, alert });
    expect(logger.level).toBe(20);
    expect(logger.write(LogLevel.all, ['hidden'])).toBeNull();
    const line = logger.write(LogLevel.info, ['x'.repeat(2_000)])!;
    expect(line.length).toBeLessThan(LOG_LINE_MAX + 60);
    expect(line.endsWith('…')).toBe(true);
    expect(alert).not.toHaveBeenCalled();
    logger.notice('Forced offline');
    expect(alert).toHaveBeenCalledWith('Forced offline');
    logger.level = LogLevel.none;
    expect(logger.write(LogLevel.notice, ['x'])).toBeNull();
  });

  it('writes colour-coded lines to sdk_output and clears it past 15 000 characters', () => {
    const area = document.createElement('div');
    area.id = LOG_OUTPUT_ID;
    document.body.appendChild(area);
    try {
      const logger = new SdkLogger({ sink: silent, document });
      logger.warn('careful');
      logger.error('broken');
      const rows = [...area.children] as HTMLElement[];
      expect(rows.map((r) => r.dataset.level)).toEqual(['40', '50']);
      expect(rows[0]!.style.color).not.toBe(rows[1]!.style.color);
      for (let i = 0; i < 40; i++) logger.info('y'.repeat(490));
      expect((area.textContent ?? '').length).toBeLessThanOrEqual(LOG_AREA_MAX);
      expect(area.textContent).not.toContain('careful');
    } finally {
      area.remove();
    }
  });
});
