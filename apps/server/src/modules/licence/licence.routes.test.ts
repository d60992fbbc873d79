import { generateKeyPairSync } from 'node:crypto';
import { Api, HTTP_STATUS_NOT_ACCEPTABLE, ResultCode, type LicencePayload } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, envelope, login, loginBody, type TestApp } from '../../../test/helpers';
import { issueLicenceCode, rawPublicKeyBase64 } from './licence-code';
import { storeLicence } from './licence.repository';

const vendor = generateKeyPairSync('ed25519');
const attacker = generateKeyPairSync('ed25519');

let t: TestApp;
let mac: string;
beforeAll(async () => {
  // a real installation: no demo licence, the vendor's public key from config
  t = await createTestApp({ demo: false, licencePublicKey: rawPublicKeyBase64(vendor.publicKey) });
  mac = t.app.licence.macCode;
});
afterAll(async () => t.close());

const code = (over: Partial<LicencePayload> = {}, key = vendor.privateKey) =>
  issueLicenceCode(
    {
      v: 1,
      mac_code: mac,
      customer: 'it',
      issued_at: new Date().toISOString(),
      valid_days: 30,
      workstations: 2,
      devices: 50,
      ...over,
    },
    key,
  );
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const register = (regist_code: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: Api.register.path,
    payload: { regist_code } as Record<string, unknown>,
    headers,
  });

describe('unregistered installation', () => {
  it('GET unregistered/get shows the machine code and registered false', async () => {
    expect(envelope(await get(Api.registration.path))).toEqual({
      code: 200,
      msg: '操作成功',
      data: { registered: false, mac_code: mac, valid_days: 0 },
    });
    expect(envelope<{ registered: boolean }>(await get(Api.loginGet.path)).data.registered).toBe(false);
  });

  it('refuses login with 460', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: Api.login.path,
      payload: await loginBody(t.app, DEMO.admin.username, DEMO.admin.password),
    });
    expect(envelope(res)).toEqual({ code: ResultCode.UNREGISTERED, msg: '软件未注册，请输入注册码', data: null });
  });

  it('update validates regist_code', async () => {
    expect(envelope(await register(undefined))).toMatchObject({ code: 400, msg: '字段 regist_code：不能为空' });
    expect(envelope(await register(''))).toMatchObject({ code: 400, msg: '字段 regist_code：不能为空' });
    expect(envelope(await register(12))).toMatchObject({ code: 400, msg: '字段 regist_code：类型不正确' });
    expect(envelope(await register('x'.repeat(4097)))).toMatchObject({
      code: 400,
      msg: '字段 regist_code：长度超出限制',
    });
  });

  it('update refuses malformed, forged, wrong-machine and expired codes with distinct messages', async () => {
    expect(envelope(await register('%%%not-a-code'))).toEqual({ code: 400, msg: '注册码格式不正确', data: null });
    expect(envelope(await register(code({}, attacker.privateKey)))).toEqual({
      code: 400,
      msg: '注册码无效：签名校验失败',
      data: null,
    });
    expect(envelope(await register(code({ mac_code: 'FFFF-FFFF-FFFF-FFFF-FFFF-FFFF' })))).toEqual({
      code: 400,
      msg: '注册码与本机机器码不匹配',
      data: null,
    });
    const old = code({ issued_at: new Date(Date.now() - 40 * 86_400_000).toISOString() });
    expect(envelope(await register(old))).toEqual({ code: 400, msg: '注册码已过期', data: null });
    expect(envelope(await register(old, { 'x-lang': 'en-US' })).msg).toBe('The registration code has expired');
    expect(envelope(await get(Api.registration.path)).data).toMatchObject({ registered: false });
  });
});

describe('registration', () => {
  it('accepts a genuine code without login, then only an admin may replace it', async () => {
    expect(envelope(await register(code()))).toEqual({
      code: 200,
      msg: '注册成功',
      data: { registered: true, mac_code: mac, valid_days: 30 },
    });
    expect(envelope(await register(code({ workstations: 3 })))).toEqual({
      code: 403,
      msg: '软件已注册，只有管理员可以更换注册码',
      data: null,
    });
    const dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
    expect(envelope(await register(code({ workstations: 3 }), dispatcher.headers)).code).toBe(403);
    const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
    expect(envelope(await register(code({ workstations: 3 }), admin.headers)).code).toBe(200);
    // the audit log has the anonymous registration and the admin's
    const rows = await t.db
      .selectFrom('operation_log')
      .selectAll()
      .where('action', '=', Api.register.path)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.username, r.result_code])).toContainEqual(['admin', 200]);
    expect(rows.map((r) => [r.username, r.result_code])).toContainEqual(['', 200]);
  });

  it('get_info: 401 without session, 403 for a non-admin, version info for an admin', async () => {
    expect(envelope(await get(Api.versionInfo.path)).code).toBe(401);
    const dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
    expect(envelope(await get(Api.versionInfo.path, dispatcher.headers))).toEqual({
      code: 403,
      msg: '只有管理员可以执行此操作',
      data: null,
    });
    const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
    const info = envelope<Record<string, unknown>>(await get(Api.versionInfo.path, admin.headers)).data;
    expect(info).toMatchObject({
      version: '0.1.0',
      valid_days: 30,
      workstation_nums: 3,
      use_workstation_nums: 2,
      device_nums: 50,
      use_device_nums: 0,
      mac_code: mac,
      play_versiton: 'GIS',
      registered: true,
    });
    expect(String(info.regist_code)).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it('refuses a login beyond the licensed workstations', async () => {
    // start from no open workstation
    await t.db.updateTable('sessions').set({ status: 'ended' }).where('status', '=', 'active').execute();
    await register(code({ workstations: 1 }), (await login(t.app, DEMO.admin.username, DEMO.admin.password)).headers);
    // admin holds the one workstation; the unit admin is the second
    const res = await t.app.inject({
      method: 'POST',
      url: Api.login.path,
      payload: await loginBody(t.app, DEMO.unitadmin.username, DEMO.unitadmin.password),
    });
    expect(envelope(res)).toEqual({
      code: ResultCode.UNREGISTERED,
      msg: '在线工作站数量已达授权上限（1）',
      data: null,
    });
    // the same user logging in again replaces his own session and is not counted twice
    await login(t.app, DEMO.admin.username, DEMO.admin.password);
  });
});

describe('expired licence', () => {
  it('answers HTTP 406 on session routes; login info, registration and logout stay reachable', async () => {
    const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
    // the stored code runs out (issued 31 days ago for 30 days)
    const expired = code({ issued_at: new Date(Date.now() - 31 * 86_400_000).toISOString() });
    await storeLicence(t.db, expired, '{}');
    for (const url of [Api.userInfo.path, Api.userContext.path, Api.heartbeatCheck.path, Api.versionInfo.path]) {
      const res = await get(url, admin.headers);
      expect({ url, status: res.statusCode }).toEqual({ url, status: HTTP_STATUS_NOT_ACCEPTABLE });
      expect(envelope(res)).toEqual({ code: 406, msg: '软件授权已过期，请联系管理员重新注册', data: null });
    }
    expect((await get(Api.loginGet.path)).statusCode).toBe(200);
    expect(envelope(await get(Api.registration.path)).data).toMatchObject({ registered: false, valid_days: 0 });
    expect(envelope(await get(Api.pageInfo.path)).code).toBe(200);
    // login is refused with 460 expired
    const res = await t.app.inject({
      method: 'POST',
      url: Api.login.path,
      payload: await loginBody(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password),
    });
    expect(envelope(res)).toMatchObject({ code: ResultCode.UNREGISTERED, msg: '注册码已过期' });
    // a new code may be registered without admin rights (no session can reach the dialog now)
    expect(envelope(await register(code())).code).toBe(200);
    expect(envelope(await get(Api.userInfo.path, admin.headers)).code).toBe(200);
    expect(envelope(await get(Api.logout.path, admin.headers)).code).toBe(200);
  });
});
