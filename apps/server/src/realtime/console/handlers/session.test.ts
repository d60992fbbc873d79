import { CmdStatus, MenuId, REALTIME_MAX_CLIENT_ALIVE_MINUTES } from '@bwc/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { ConsoleClient } from '../../../../test/console-client';
import { consoleUrl, groupApiOf, logonConsole, logonTerminal } from '../../../../test/console-fixtures';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../../test/helpers';
import { addDevice, unitIdOf } from '../../../../test/devices';

/** Session family: logon (consoles and terminals), take-over, resume, logout, password, invalidation. */
let t: TestApp;
let address: string;
let url: string;
let admin: Session;
let dispatchRole: number;
const clients: ConsoleClient[] = [];

/** HTTP sessions opened by a test, ended after it (the demo licence allows 10 workstations) */
const sessions: Session[] = [];
async function dispatcher(unitBh = '440304000000'): Promise<{ session: Session; username: string; password: string }> {
  const u = await createUser(t.db, { roleId: dispatchRole, unitBh });
  const session = await login(t.app, u.username, u.password);
  sessions.push(session);
  return { session, username: u.username, password: u.password };
}
async function open(query = ''): Promise<ConsoleClient> {
  const c = await ConsoleClient.open(consoleUrl(address, query));
  clients.push(c);
  return c;
}
const loginRow = (id: number) =>
  t.db.selectFrom('console_logins').selectAll().where('uid', '=', id).orderBy('id', 'desc').executeTakeFirst();

beforeAll(async () => {
  t = await createTestApp();
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = consoleUrl(address);
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatchRole = await createRole(t.db, 'console desk', [
    { ids: [MenuId.EMERGENCY], actions: ['view', 'edit', 'add'] },
    { ids: [MenuId.DISPATCH_ALARM], actions: ['view', 'edit'] },
  ]);
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await api(t.app, 'logout', s);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('group_api: the console-service account of gis info', () => {
  it('hands a dispatch user his account, bound to his session', async () => {
    const d = await dispatcher();
    const account = await groupApiOf(t.app, d.session);
    expect(account).toMatchObject({
      switch: 1,
      username: d.username,
      orgid: '440304000000',
      islogin: 0,
      path: '/ws/console',
    });
    expect(account.djpwd).toMatch(/^[\w-]{43}$/);
    expect(account.port).toBeGreaterThan(0);
    // another session of the same user gets another password
    const again = await login(t.app, d.username, d.password);
    sessions.push(again);
    expect((await groupApiOf(t.app, again)).djpwd).not.toBe(account.djpwd);
  });

  it('gives no password to a user without dispatch rights', async () => {
    const role = await createRole(t.db, 'log reader', [{ ids: [MenuId.OPERATION_LOG], actions: ['view'] }]);
    const u = await createUser(t.db, { roleId: role });
    const session = await login(t.app, u.username, u.password);
    sessions.push(session);
    const account = await groupApiOf(t.app, session);
    expect(account).toMatchObject({ switch: 0, djpwd: '' });
  });
});

describe('req_logon', () => {
  it('logs a console on with its group_api account; islogin follows', async () => {
    const d = await dispatcher();
    const { rsp, uid } = await logonConsole(t.app, url, d.session, { client_alive_time: '', console_name: 'desk 1' });
    expect(rsp).toMatchObject({
      msg_code: 'rsp_logon',
      cmd_status: 0,
      user_type: 1,
      ext_id: `itrunk_${d.username}`,
      client_alive_time: 0,
      took_over: 0,
    });
    expect(rsp.token).toEqual(expect.any(String));
    expect(rsp.client_login_time).toEqual(expect.any(Number));
    expect((await groupApiOf(t.app, d.session)).islogin).toBe(1);
    expect(await loginRow(uid)).toMatchObject({ status: 'active', user_type: 1, console_name: 'desk 1' });
  });

  it('caps client_alive_time above 120 minutes with a warning, keeps smaller values', async () => {
    const d = await dispatcher();
    const capped = await logonConsole(t.app, url, d.session, { client_alive_time: 500 });
    expect(capped.rsp).toMatchObject({ client_alive_time: REALTIME_MAX_CLIENT_ALIVE_MINUTES });
    expect(capped.rsp.warning).toBe('client_alive_time 超过 120 分钟，已按 120 分钟处理');
    const e = await dispatcher();
    const kept = await logonConsole(t.app, url, e.session, { client_alive_time: '30' });
    expect(kept.rsp.client_alive_time).toBe(30);
    expect(kept.rsp.warning).toBeUndefined();
  });

  it('refuses a wrong password, an unknown account and another unit code alike, storing nothing', async () => {
    const d = await dispatcher();
    const account = await groupApiOf(t.app, d.session);
    const c = await open('?lang=en-US');
    const before = (await t.db.selectFrom('console_logins').select('id').execute()).length;
    const wrong = await c.request('req_logon', { logon_name: account.username, passwd: 'x'.repeat(43) });
    expect(wrong).toMatchObject({ cmd_status: CmdStatus.BAD_CREDENTIALS, error_reason: 'Wrong account or password' });
    const unknown = await c.request('req_logon', { logon_name: 'nobody_here', passwd: account.djpwd });
    expect(unknown).toMatchObject({ cmd_status: CmdStatus.BAD_CREDENTIALS, error_reason: 'Wrong account or password' });
    const org = await c.request('req_logon', {
      logon_name: account.username,
      passwd: account.djpwd,
      orgid: '440303000000',
    });
    expect(org).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: 'The organisation id does not match the account',
    });
    expect((await t.db.selectFrom('console_logins').select('id').execute()).length).toBe(before);
    expect(await c.request('req_user_profile')).toMatchObject({ cmd_status: CmdStatus.NOT_LOGGED_ON });
  });

  it('answers 10105 to a second logon on the same connection', async () => {
    const d = await dispatcher();
    const { client } = await logonConsole(t.app, url, d.session);
    clients.push(client);
    const account = await groupApiOf(t.app, d.session);
    expect(await client.request('req_logon', { logon_name: account.username, passwd: account.djpwd })).toMatchObject({
      cmd_status: CmdStatus.ALREADY_LOGGED_ON,
      error_reason: '此连接已登录',
    });
  });

  it('a second logon of the account elsewhere takes over: notice_logon cmd_status 2 to the first, which is closed', async () => {
    const d = await dispatcher();
    const first = await logonConsole(t.app, url, d.session);
    clients.push(first.client);
    const second = await logonConsole(t.app, url, d.session);
    clients.push(second.client);
    expect(second.rsp.took_over).toBe(1);
    const notice = await first.client.notice('notice_logon');
    expect(notice).toMatchObject({
      cmd_type: 2,
      cmd_status: CmdStatus.LOGON_TAKEN_OVER,
      uid: first.uid,
      error_reason: '账号已在别处登录，集群功能将无法正常使用',
    });
    await first.client.waitClose();
    const rows = await t.db
      .selectFrom('console_logins')
      .select(['status'])
      .where('uid', '=', first.uid)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['taken_over', 'active']);
    expect(await second.client.request('heartbeat')).toMatchObject({ logged_on: 1, uid: first.uid });
  });

  it('logs terminals on with their device credentials (hostbody or cluster number)', async () => {
    const futian = await unitIdOf(t.db, '440304000000');
    const device = await addDevice(t.app, admin, futian, { jq_hostcode: '880001' });
    const byHostbody = await logonTerminal(url, device);
    clients.push(byHostbody.client);
    expect(byHostbody.rsp).toMatchObject({ cmd_status: 0, uid: device.id, ext_id: '880001', user_type: 0 });
    const byCluster = await logonTerminal(url, { hostbody: '880001', secret: device.secret });
    clients.push(byCluster.client);
    expect(byCluster.rsp).toMatchObject({ uid: device.id, took_over: 1 });
    await byHostbody.client.waitClose();

    const c = await open();
    expect(await c.request('req_logon', { logon_name: device.hostbody, passwd: 'wrong', user_type: 0 })).toMatchObject({
      cmd_status: CmdStatus.BAD_CREDENTIALS,
    });
    const plain = await addDevice(t.app, admin, futian);
    expect(
      await c.request('req_logon', { logon_name: plain.hostbody, passwd: plain.secret, user_type: 0 }),
    ).toMatchObject({
      cmd_status: CmdStatus.CONFLICT,
      error_reason: '该设备没有集群号，不能作为终端登录',
    });
  });
});

describe('resume, logout, invalidation', () => {
  it('resumes a login on a new connection with heartbeat {clientid, token}', async () => {
    const d = await dispatcher();
    const first = await logonConsole(t.app, url, d.session, { clientid: 'client-a' });
    first.client.close();
    await first.client.waitClose();
    const c = await open();
    expect(await c.request('heartbeat', { clientid: 'client-a', token: 'not-the-token' })).toMatchObject({
      logged_on: 0,
    });
    expect(await c.request('heartbeat', { clientid: 'client-b', token: first.token })).toMatchObject({ logged_on: 0 });
    expect(await c.request('heartbeat', { clientid: 'client-a', token: first.token })).toMatchObject({
      logged_on: 1,
      uid: first.uid,
    });
    expect(await c.request('req_user_profile')).not.toMatchObject({ cmd_status: CmdStatus.NOT_LOGGED_ON });
  });

  it('req_logout ends the login: it cannot be resumed and requests need a logon again', async () => {
    const d = await dispatcher();
    const { client, uid, token } = await logonConsole(t.app, url, d.session, { clientid: 'c-out' });
    clients.push(client);
    expect(await client.request('req_logout')).toMatchObject({ msg_code: 'rsp_logout', cmd_status: 0 });
    expect(await client.request('req_user_profile')).toMatchObject({ cmd_status: CmdStatus.NOT_LOGGED_ON });
    expect(await loginRow(uid)).toMatchObject({ status: 'ended' });
    const c = await open();
    expect(await c.request('heartbeat', { clientid: 'c-out', token })).toMatchObject({ logged_on: 0 });
    // logout without a login is answered too
    expect(await c.request('req_logout')).toMatchObject({ cmd_status: 0 });
  });

  it('ends the login with error notice 52001 when the console session ends', async () => {
    const d = await dispatcher();
    const { client, uid } = await logonConsole(t.app, url, d.session);
    clients.push(client);
    await api(t.app, 'logout', d.session);
    await t.app.consoleService.logins.refresh();
    const notice = await client.notice('notice_error');
    expect(notice).toMatchObject({
      cmd_status: CmdStatus.LOGIN_INVALID,
      error_reason: '控制台服务登录已失效：控制台会话已结束',
    });
    await client.waitClose();
    expect(await loginRow(uid)).toMatchObject({ status: 'ended' });
  });

  it('ends a terminal login at once when the device is remotely killed', async () => {
    const device = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), { jq_hostcode: '880002' });
    const { client } = await logonTerminal(url, device);
    clients.push(client);
    const adminUser = await t.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    await t.app.devices.remote(device.id, 'remote_kill', adminUser.id);
    expect(await client.notice('notice_error')).toMatchObject({ cmd_status: CmdStatus.LOGIN_INVALID });
    await client.waitClose();
    const c = await open();
    expect(
      await c.request('req_logon', { logon_name: device.hostbody, passwd: device.secret, user_type: 0 }),
    ).toMatchObject({
      cmd_status: CmdStatus.CONFLICT,
      error_reason: '设备已被远程遥毙，不能登录',
    });
  });
});

describe('req_change_passwd', () => {
  it("changes the console user's own password with the spec's rules", async () => {
    const d = await dispatcher();
    const { client } = await logonConsole(t.app, url, d.session);
    clients.push(client);
    expect(
      await client.request('req_change_passwd', { username: d.username, oldpasswd: d.password, newpasswd: 'short' }),
    ).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: '字段 newpasswd：密码长度为 8 到 12 位',
    });
    expect(
      await client.request('req_change_passwd', { username: 'admin', oldpasswd: d.password, newpasswd: 'New@12345' }),
    ).toMatchObject({
      cmd_status: CmdStatus.FORBIDDEN,
    });
    expect(
      await client.request('req_change_passwd', {
        username: d.username,
        oldpasswd: 'Wrong@123',
        newpasswd: 'New@12345',
      }),
    ).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: '原密码不正确',
    });
    expect(
      await client.request('req_change_passwd', {
        username: d.username,
        oldpasswd: d.password,
        newpasswd: 'New@12345',
      }),
    ).toMatchObject({
      msg_code: 'rsp_change_passwd',
      cmd_status: 0,
    });
    const fresh = await login(t.app, d.username, 'New@12345');
    sessions.push(fresh);
    expect(fresh.token).toEqual(expect.any(String));
  });

  it('refuses terminals', async () => {
    const device = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), { jq_hostcode: '880003' });
    const { client } = await logonTerminal(url, device);
    clients.push(client);
    expect(
      await client.request('req_change_passwd', { username: device.hostbody, oldpasswd: 'a', newpasswd: 'New@12345' }),
    ).toMatchObject({
      cmd_status: CmdStatus.CONFLICT,
    });
  });
});
