import { Api, LOGIN_SOURCE_DELAY_MAX_MS, LOGIN_SOURCE_FREE_FAILURES, ResultCode } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSettings } from '../../db/settings';
import {
  auditRows,
  createTestApp,
  createUser,
  DEMO,
  envelope,
  login,
  loginBody,
  TEST_CAPTCHA,
  type TestApp,
} from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /rest/index/login/get', () => {
  it('gives a one-time captcha image and its token, and the registration state', async () => {
    const a = envelope<{ token: string; captcha: string; registered: boolean }>(await get(Api.loginGet.path));
    const b = envelope<{ token: string }>(await get(Api.loginGet.path));
    expect(a.code).toBe(200);
    expect(a.data.captcha).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(a.data.captcha.split(',')[1]!, 'base64').toString()).toContain('<svg');
    expect(a.data.registered).toBe(true);
    expect(a.data.token).not.toBe(b.data.token);
  });
});

describe('POST /rest/index/login/login', () => {
  it('logs in: token, username, ifadmin and an HttpOnly SameSite=Lax cookie that authenticates', async () => {
    const res = await post(Api.login.path, await loginBody(t.app, DEMO.admin.username, DEMO.admin.password));
    expect(envelope(res)).toMatchObject({ code: 200, msg: '登录成功', data: { username: 'admin', ifadmin: 1 } });
    const cookie = res.cookies.find((c) => c.name === 'bwc_sid')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const info = await t.app.inject({ method: 'GET', url: Api.userInfo.path, cookies: { bwc_sid: cookie.value } });
    expect(envelope(info)).toMatchObject({ code: 200, data: { username: 'admin' } });
  });

  it('names a missing field', async () => {
    const body = await loginBody(t.app, 'admin', 'Admin@123');
    delete body.login_info;
    expect(envelope(await post(Api.login.path, body))).toEqual({
      code: 400,
      msg: '字段 login_info：不能为空',
      data: null,
    });
  });

  it('names a field of the wrong type, in English with x-lang', async () => {
    const body = await loginBody(t.app, 'admin', 'Admin@123', { overrides: { timestamp: 'soon' } });
    expect(envelope(await post(Api.login.path, body, { 'x-lang': 'en-US' }))).toEqual({
      code: 400,
      msg: 'Timestamp must be a number.',
      data: null,
    });
    const body2 = await loginBody(t.app, 'admin', 'Admin@123', { overrides: { token: 42 } });
    expect(envelope(await post(Api.login.path, body2)).msg).toBe('字段 token：类型不正确');
  });

  it('names a field that is too long', async () => {
    const body = await loginBody(t.app, 'admin', 'Admin@123', { overrides: { captcha_code: 'x'.repeat(17) } });
    expect(envelope(await post(Api.login.path, body)).msg).toBe('字段 captcha_code：长度超出限制');
  });

  it('asks for the verification code when it is empty', async () => {
    const body = await loginBody(t.app, 'admin', 'Admin@123', { overrides: { captcha_code: '  ' } });
    expect(envelope(await post(Api.login.path, body))).toMatchObject({
      code: 400,
      msg: '字段 captcha_code：请输入验证码',
    });
  });

  it('refuses a wrong or stale signature with 462', async () => {
    const tampered = await loginBody(t.app, 'admin', 'Admin@123', {
      overrides: { pe_signals: 'changed after signing' },
    });
    expect(envelope(await post(Api.login.path, tampered))).toMatchObject({
      code: ResultCode.SIGNATURE,
      msg: '请求签名无效或已过期',
    });
    const stale = await loginBody(t.app, 'admin', 'Admin@123', { timestamp: Date.now() - 6 * 60_000 });
    expect(envelope(await post(Api.login.path, stale)).code).toBe(ResultCode.SIGNATURE);
    const badLength = await loginBody(t.app, 'admin', 'Admin@123', { overrides: { signature: 'abc' } });
    expect(envelope(await post(Api.login.path, badLength)).msg).toBe('字段 signature：签名格式不正确');
  });

  it('refuses a wrong captcha with 461, and a captcha token used once already', async () => {
    const wrong = await loginBody(t.app, 'admin', 'Admin@123', { captcha: '9999' });
    expect(envelope(await post(Api.login.path, wrong))).toMatchObject({ code: ResultCode.CAPTCHA, msg: '验证码错误' });
    // the same token again (re-signed so only the captcha is at fault)
    const again = await loginBody(t.app, 'admin', 'Admin@123', { overrides: { token: wrong.token }, resign: true });
    expect(envelope(await post(Api.login.path, again))).toMatchObject({
      code: ResultCode.CAPTCHA,
      msg: '验证码已过期，请刷新',
    });
  });

  it('refuses login_info that does not decode (forbidden characters)', async () => {
    const body = await loginBody(t.app, 'admin', 'Admin@123', {
      overrides: { login_info: '<script>%%%' },
      resign: true,
    });
    expect(envelope(await post(Api.login.path, body))).toMatchObject({ code: 400, msg: '登录信息格式不正确' });
  });

  it('counts a wrong password and an unknown user alike, and audits the failure', async () => {
    const user = await createUser(t.db, {});
    const wrong = envelope(
      await post(Api.login.path, await loginBody(t.app, user.username, 'Wrong@123'), {}, '10.1.1.1'),
    );
    expect(wrong).toEqual({ code: 400, msg: '用户名或密码错误，该账号再失败 4 次将被锁定', data: null });
    const unknown = envelope(
      await post(Api.login.path, await loginBody(t.app, 'nobody-here', 'Wrong@123'), {}, '10.1.1.2'),
    );
    expect(unknown.msg).toBe('用户名或密码错误，该账号再失败 4 次将被锁定');
    const [row] = await auditRows(t.db, Api.login.path);
    expect(row).toMatchObject({
      username: 'nobody-here',
      ip: '10.1.1.2',
      result_code: 400,
      msg: '用户名或密码错误，该账号再失败 4 次将被锁定',
      user_id: null,
    });
  });

  it('refuses a disabled account', async () => {
    const user = await createUser(t.db, { status: 'disabled' });
    const res = envelope(await post(Api.login.path, await loginBody(t.app, user.username, user.password)));
    expect(res).toMatchObject({ code: ResultCode.FORBIDDEN, msg: '账号已停用，请联系管理员' });
  });

  it('audits a successful login with user, unit and address', async () => {
    await login(t.app, DEMO.unitadmin.username, DEMO.unitadmin.password, '10.9.9.9');
    const [row] = await auditRows(t.db, Api.login.path);
    expect(row).toMatchObject({
      username: 'unitadmin',
      unit_name: '福田分局',
      ip: '10.9.9.9',
      result_code: 200,
      msg: '登录成功',
    });
    expect(row!.user_id).toBeGreaterThan(0);
    expect(Number(row!.target)).toBeGreaterThan(0);
  });
});

describe('lockout (normalset login_fail_limit / login_lock_minutes)', () => {
  it('locks the account after N failures, reports it, and unlocks after the window', async () => {
    await writeSettings(t.db, 'normalset', { login_fail_limit: 3, login_lock_minutes: 2 });
    const user = await createUser(t.db, {});
    const attempt = async (password: string, ip = '10.2.0.1') =>
      envelope(await post(Api.login.path, await loginBody(t.app, user.username, password), {}, ip));
    expect((await attempt('Bad@1111')).msg).toBe('用户名或密码错误，该账号再失败 2 次将被锁定');
    expect((await attempt('Bad@1111', '10.2.0.2')).msg).toBe('用户名或密码错误，该账号再失败 1 次将被锁定');
    expect(await attempt('Bad@1111', '10.2.0.3')).toEqual({
      code: ResultCode.LOCKED,
      msg: '该账号登录失败次数过多，已被锁定，请 2 分钟后再试',
      data: null,
    });
    // the right password from a fresh address is refused while the account is locked
    expect((await attempt(user.password, '10.2.0.4')).code).toBe(ResultCode.LOCKED);
    // English
    const en = envelope(
      await post(
        Api.login.path,
        await loginBody(t.app, user.username, user.password),
        { 'x-lang': 'en-US' },
        '10.2.0.5',
      ),
    );
    expect(en.msg).toBe('This account is locked after too many failed logins, try again in 2 minutes');
    // the window passes
    const past = new Date(Date.now() - 3 * 60_000).toISOString();
    await t.db.updateTable('login_failures').set({ created: past }).where('username', '=', user.username).execute();
    expect((await attempt(user.password, '10.2.0.6')).code).toBe(200);
    await writeSettings(t.db, 'normalset', {});
  });

  it("never locks an account for other accounts' failures from the same address", async () => {
    await writeSettings(t.db, 'normalset', { login_fail_limit: 3, login_lock_minutes: 5 });
    // a control room behind one proxy: five typos on five names, none of them the administrator's
    const ip = '10.3.0.1';
    for (const name of ['ghost1', 'ghost2', 'ghost3', 'ghost4', 'ghost5'])
      expect(envelope(await post(Api.login.path, await loginBody(t.app, name, 'Bad@1111'), {}, ip))).toMatchObject({
        code: ResultCode.INVALID,
        msg: '用户名或密码错误，该账号再失败 2 次将被锁定',
      });
    const other = await createUser(t.db, {});
    expect(
      envelope(await post(Api.login.path, await loginBody(t.app, other.username, other.password), {}, ip)).code,
    ).toBe(200);
    await writeSettings(t.db, 'normalset', {});
  });

  it("a successful login starts the account's count afresh, whatever else failed from its address", async () => {
    await writeSettings(t.db, 'normalset', { login_fail_limit: 3, login_lock_minutes: 5 });
    const user = await createUser(t.db, {});
    const ip = '10.3.1.1';
    const attempt = async (username: string, password: string) =>
      envelope(await post(Api.login.path, await loginBody(t.app, username, password), {}, ip));
    await attempt('ghost-a', 'Bad@1111');
    await attempt(user.username, 'Bad@1111');
    expect((await attempt(user.username, 'Bad@1111')).msg).toBe('用户名或密码错误，该账号再失败 1 次将被锁定');
    expect((await attempt(user.username, user.password)).code).toBe(200);
    expect((await attempt(user.username, 'Bad@1111')).msg).toBe('用户名或密码错误，该账号再失败 2 次将被锁定');
    expect((await attempt(user.username, 'Bad@1111')).msg).toBe('用户名或密码错误，该账号再失败 1 次将被锁定');
    expect((await attempt(user.username, 'Bad@1111')).code).toBe(ResultCode.LOCKED);
    await writeSettings(t.db, 'normalset', {});
  });

  it('throttles an address past its free failures and says so, without locking any account', async () => {
    const ip = '10.3.2.1';
    const attempt = async (username: string, password = 'Bad@1111', lang = 'zh-CN') =>
      envelope(await post(Api.login.path, await loginBody(t.app, username, password), { 'x-lang': lang }, ip));
    for (let i = 0; i < LOGIN_SOURCE_FREE_FAILURES; i++) expect((await attempt(`spray${i}`)).code).toBe(400);
    // a spray goes on (recorded directly, so that the wait is long enough to observe on a busy machine)
    const stamp = () => new Date().toISOString();
    await t.db
      .insertInto('login_failures')
      .values(Array.from({ length: 5 }, (_, i) => ({ username: `spray-more${i}`, ip, created: stamp() })))
      .execute();
    const wait = LOGIN_SOURCE_DELAY_MAX_MS / 1000;
    expect(await attempt('spray-next')).toEqual({
      code: ResultCode.THROTTLED,
      msg: `此地址登录失败次数过多，请 ${wait} 秒后再试（没有账号被锁定）`,
      data: null,
    });
    // the right password from that address waits as well, and a refused attempt is no failure
    const user = await createUser(t.db, {});
    expect((await attempt(user.username, user.password, 'en-US')).msg).toBe(
      `Too many failed logins from this address: try again in ${wait} s (no account is locked)`,
    );
    const failures = await t.db.selectFrom('login_failures').select('username').where('ip', '=', ip).execute();
    expect(failures).toHaveLength(LOGIN_SOURCE_FREE_FAILURES + 5);
    expect(failures.map((f) => f.username)).not.toContain(user.username);
    // once the wait is over the right password gets in: no account was locked
    const past = new Date(Date.now() - LOGIN_SOURCE_DELAY_MAX_MS - 1000).toISOString();
    await t.db.updateTable('login_failures').set({ created: past }).where('ip', '=', ip).execute();
    expect((await attempt(user.username, user.password)).code).toBe(200);
  });
});

describe('client address (TRUSTED_PROXIES)', () => {
  const failedFrom = async (app: TestApp, headers: Record<string, string>, remoteAddress: string) => {
    const username = `xff-${Math.random().toString(36).slice(2, 10)}`;
    await app.app.inject({
      method: 'POST',
      url: Api.login.path,
      payload: await loginBody(app.app, username, 'Bad@1111'),
      headers,
      remoteAddress,
    });
    const row = await app.db
      .selectFrom('login_failures')
      .select('ip')
      .where('username', '=', username)
      .executeTakeFirst();
    return row?.ip;
  };

  it('takes X-Forwarded-For only from a configured proxy', async () => {
    const proxied = await createTestApp({ trustedProxies: ['127.0.0.1', '10.8.0.0/16'] });
    try {
      const xff = { 'x-forwarded-for': '192.0.2.7' };
      expect(await failedFrom(proxied, xff, '127.0.0.1')).toBe('192.0.2.7');
      expect(await failedFrom(proxied, xff, '10.8.3.4')).toBe('192.0.2.7');
      // a client that is not a proxy cannot choose the address its failures count on
      expect(await failedFrom(proxied, xff, '198.51.100.9')).toBe('198.51.100.9');
    } finally {
      await proxied.close();
    }
    // without TRUSTED_PROXIES the header is ignored
    expect(await failedFrom(t, { 'x-forwarded-for': '192.0.2.7' }, '127.0.0.1')).toBe('127.0.0.1');
  });
});

describe('sessions: forced offline, heartbeat, logout', () => {
  it('a second login forces the first offline: heartbeat fail, get_info 401 forcedOffline', async () => {
    const first = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
    expect(envelope(await post(Api.heartbeatCreate.path, {}, first.headers)).data).toEqual({ state: 'success' });
    const second = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
    expect(envelope(await get(Api.heartbeatCheck.path, first.headers)).data).toEqual({ state: 'fail' });
    expect(envelope(await get(Api.userInfo.path, first.headers))).toEqual({
      code: 401,
      msg: '账号已在别处登录，您已被迫下线',
      data: null,
    });
    expect(envelope(await get(Api.userInfo.path, { ...first.headers, 'x-lang': 'en-US' })).msg).toBe(
      'The account is logged in elsewhere and the user was forced offline',
    );
    expect(envelope(await get(Api.heartbeatCheck.path, second.headers)).data).toEqual({ state: 'success' });
  });

  it('heartbeat without a session answers fail (the session is gone, retrying will not help); unknown token too', async () => {
    expect(envelope(await get(Api.heartbeatCheck.path)).data).toEqual({ state: 'fail' });
    expect(envelope(await get(Api.heartbeatCheck.path, { authorization: 'Bearer nope' })).data).toEqual({
      state: 'fail',
    });
  });

  it('heartbeat answers fail once the session idled past session_timeout_minutes', async () => {
    const user = await createUser(t.db, {});
    const s = await login(t.app, user.username, user.password);
    await t.db
      .updateTable('sessions')
      .set({ last_seen: new Date(Date.now() - 121 * 60_000).toISOString() })
      .where('status', '=', 'active')
      .execute();
    expect(envelope(await get(Api.heartbeatCheck.path, s.headers)).data).toEqual({ state: 'fail' });
    expect(envelope(await get(Api.userInfo.path, s.headers))).toMatchObject({
      code: 401,
      msg: '登录已过期，请重新登录',
    });
  });

  it('logout ends the session and clears the cookie', async () => {
    const user = await createUser(t.db, {});
    const s = await login(t.app, user.username, user.password);
    const res = await get(Api.logout.path, s.headers);
    expect(envelope(res)).toEqual({ code: 200, msg: '已退出登录', data: null });
    expect(res.cookies.find((c) => c.name === 'bwc_sid')?.value).toBe('');
    expect(envelope(await get(Api.userInfo.path, s.headers)).code).toBe(401);
    expect(envelope(await get(Api.heartbeatCheck.path, s.headers)).data).toEqual({ state: 'fail' });
    expect((await auditRows(t.db, Api.logout.path))[0]).toMatchObject({ username: user.username, result_code: 200 });
    // without a session it still answers success (idempotent)
    expect(envelope(await get(Api.logout.path)).code).toBe(200);
  });
});

describe('GET /rest/user/user/get_info', () => {
  it('401 without a session', async () => {
    expect(envelope(await get(Api.userInfo.path))).toEqual({ code: 401, msg: '请先登录', data: null });
  });

  it('gives every user info field', async () => {
    const s = await login(t.app, DEMO.unitadmin.username, DEMO.unitadmin.password);
    const res = await t.app.inject({
      method: 'GET',
      url: Api.userInfo.path,
      headers: { ...s.headers, host: 'console.example:8080' },
    });
    const info = envelope<Record<string, unknown>>(res).data;
    expect(info).toMatchObject({
      username: 'unitadmin',
      hostname: '李管理',
      group_name: '单位管理员',
      dname: '福田分局',
      dwbh: '440304000000',
      scode: '440304000000',
      ifadmin: 0,
      auth_cate: 'user',
      wsurl: 'ws://console.example:8080/ws/session',
    });
    expect(info.logincode).toMatch(/^[0-9a-f]{24}$/);
    expect(info).not.toHaveProperty('password_hash');
  });
});

describe('GET /rest/user/user/get_context', () => {
  it('401 without a session', async () => {
    expect(envelope(await get(Api.userContext.path)).code).toBe(401);
  });

  it('admin: every module with all actions, system flags on', async () => {
    const s = await login(t.app, DEMO.admin.username, DEMO.admin.password);
    const ctx = envelope<{
      modules: { id: number; user_auth: object }[];
      all_modules: string[];
      set_auth: number;
      systerm_auth: number;
      replay_auth: number;
      gb: number;
    }>(await get(Api.userContext.path, s.headers)).data;
    expect(ctx.modules.length).toBe(ctx.all_modules.length);
    expect(ctx.modules.find((m) => m.id === 10002)?.user_auth).toEqual({ view: 1, edit: 1, add: 1 });
    expect(ctx).toMatchObject({ set_auth: 1, systerm_auth: 1, replay_auth: 1, gb: 0 });
    expect(ctx.all_modules).toContain('_101');
  });

  it('dispatcher: dispatch and monitor areas, announcements/downloads view only, no system settings', async () => {
    const s = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
    const ctx = envelope<{
      modules: { id: number; bh: string; user_auth: object }[];
      set_auth: number;
      systerm_auth: number;
      replay_auth: number;
    }>(await get(Api.userContext.path, s.headers)).data;
    const ids = ctx.modules.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining([10100, 10104, 10150, 10154, 10004, 10005, 10001]));
    expect(ids).not.toContain(10002);
    expect(ids).not.toContain(10400);
    expect(ctx.modules.find((m) => m.id === 10004)?.user_auth).toEqual({ view: 1 });
    expect(ctx).toMatchObject({ set_auth: 1, systerm_auth: 0, replay_auth: 0 });
  });

  it('reflects a permission change at the next request', async () => {
    const s = await login(t.app, DEMO.unitadmin.username, DEMO.unitadmin.password);
    const role = await t.db.selectFrom('roles').select('id').where('name', '=', '单位管理员').executeTakeFirstOrThrow();
    await t.db
      .insertInto('role_permissions')
      .values({ role_id: role.id, module_id: 10002, view: 1, edit: 0, add: 0 })
      .execute();
    expect(envelope<{ systerm_auth: number }>(await get(Api.userContext.path, s.headers)).data.systerm_auth).toBe(1);
    await t.db.deleteFrom('role_permissions').where('role_id', '=', role.id).where('module_id', '=', 10002).execute();
    expect(envelope<{ systerm_auth: number }>(await get(Api.userContext.path, s.headers)).data.systerm_auth).toBe(0);
  });
});

describe('POST /rest/user/user/change_password (form-encoded)', () => {
  const form = (fields: Record<string, string>, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: Api.changePassword.path,
      payload: new URLSearchParams(fields).toString(),
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    });

  it('401 without a session', async () => {
    expect(envelope(await form({ old_password: 'a', new_password: 'Abcdef@12' }, {})).code).toBe(401);
  });

  it('validates every rule with the exact msg', async () => {
    const user = await createUser(t.db, {});
    const s = await login(t.app, user.username, user.password);
    const cases: [Record<string, string>, string][] = [
      [{ new_password: 'Abcdef@12' }, '字段 old_password：请输入原密码'],
      [{ old_password: user.password }, '字段 new_password：不能为空'],
      [{ old_password: user.password, new_password: '' }, '字段 new_password：请输入密码'],
      [{ old_password: user.password, new_password: 'Ab@1' }, '字段 new_password：密码长度为 8 到 12 位'],
      [{ old_password: user.password, new_password: 'Abcdefgh@1234' }, '字段 new_password：密码长度为 8 到 12 位'],
      [
        { old_password: user.password, new_password: 'abcdefgh1' },
        '字段 new_password：密码须包含大写字母、小写字母、数字、特殊字符中的至少三种',
      ],
      [{ old_password: 'Wrong@1234', new_password: 'Abcdef@12' }, '原密码不正确'],
      [{ old_password: user.password, new_password: user.password }, '新密码不能与原密码相同'],
    ];
    for (const [fields, msg] of cases) {
      const env = envelope(await form(fields, s.headers));
      expect({ fields, env }).toEqual({ fields, env: { code: 400, msg, data: null } });
    }
  });

  it('changes the password: the old one stops working, the new one logs in', async () => {
    const user = await createUser(t.db, {});
    const s = await login(t.app, user.username, user.password);
    expect(envelope(await form({ old_password: user.password, new_password: 'New#pass99' }, s.headers))).toEqual({
      code: 200,
      msg: '密码修改成功',
      data: null,
    });
    await expect(login(t.app, user.username, user.password)).rejects.toThrow(/用户名或密码错误/);
    await login(t.app, user.username, 'New#pass99');
    const [row] = await auditRows(t.db, Api.changePassword.path);
    expect(row).toMatchObject({ username: user.username, target: String(user.id), result_code: 200 });
    expect(JSON.stringify(row)).not.toContain('New#pass99');
  });
});

it('the fixed captcha is the configured test text', () => {
  expect(t.config.testCaptcha).toBe(TEST_CAPTCHA);
});
