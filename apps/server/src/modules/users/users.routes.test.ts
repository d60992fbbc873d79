import { Api, HeartbeatState, MenuId, type Account, type OnlineUser, type Page, type RoleOption } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSettings, readSettings } from '../../db/settings';
import { api } from '../../../test/api';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  envelope,
  login,
  loginBody,
  type Session,
  type TestApp,
} from '../../../test/helpers';

let t: TestApp;
let admin: Session;
let unitadmin: Session;
let dispatcher: Session;
let adminRole: number;
let unitadminRole: number;
let futian: number;
let luohu: number;

const FUTIAN = '440304000000';
const LUOHU = '440303000000';

async function idOf(
  table: 'units' | 'roles' | 'users',
  column: 'bh' | 'name' | 'username',
  value: string,
): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const row = await (t.db as any).selectFrom(table).select('id').where(column, '=', value).executeTakeFirstOrThrow();
  return row.id as number;
}
const userRow = (id: number) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
const users = () => t.db.selectFrom('users').selectAll().orderBy('id').execute();

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  unitadmin = await login(t.app, DEMO.unitadmin.username, DEMO.unitadmin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  adminRole = await idOf('roles', 'name', '管理员');
  unitadminRole = await idOf('roles', 'name', '单位管理员');
  futian = await idOf('units', 'bh', FUTIAN);
  luohu = await idOf('units', 'bh', LUOHU);
});
afterAll(async () => t.close());

const newAccount = (extra: Record<string, unknown> = {}) => ({
  username: `zhang${Math.floor(Math.random() * 1e6)}`,
  password: 'Zhang@123',
  hostname: '张三',
  phone: '13900000000',
  unit_id: futian,
  role_id: unitadminRole,
  ...extra,
});

describe('every account endpoint', () => {
  const input = {
    id: 1,
    username: 'nobody',
    password: 'Abc@12345',
    hostname: 'x',
    unit_id: 1,
    role_id: 1,
    status: 'enabled',
  };
  const names = [
    'accountList',
    'accountAdd',
    'accountUpdate',
    'accountStatus',
    'accountResetPassword',
    'accountDelete',
    'onlineUsers',
    'forceOffline',
    'roleOptions',
  ] as const;
  it.each(names)('%s refuses a caller without a session', async (name) => {
    expect(await api(t.app, name, null, input)).toMatchObject({ code: 401, msg: '请先登录' });
  });
  it.each(names)('%s needs menu 10411 (the dispatcher has none)', async (name) => {
    const env = await api(t.app, name, dispatcher, input);
    expect(env.code).toBe(403);
    expect(env.msg).toContain(String(MenuId.ACCOUNTS));
  });
});

describe('GET rest/user/user/list', () => {
  it('lists every account for an administrator, without password hashes', async () => {
    const env = await api<Page<Account>>(t.app, 'accountList', admin, { limit: 10 });
    expect(env.code).toBe(200);
    expect(env.data.total).toBeGreaterThanOrEqual(3);
    expect(env.data.list.map((a) => a.username)).toEqual(expect.arrayContaining(['admin', 'dispatcher', 'unitadmin']));
    const a = env.data.list.find((x) => x.username === 'admin')!;
    expect(a).toMatchObject({ ifadmin: 1, status: 'enabled', group_name: '管理员', dwbh: '440300000000', online: 1 });
    expect(JSON.stringify(env.data)).not.toContain('argon2');
  });

  it('shows a unit administrator only the accounts of his subtree', async () => {
    await createUser(t.db, { unitBh: '440304010000', roleId: unitadminRole, username: 'huafu1' });
    await createUser(t.db, { unitBh: '440303010000', roleId: unitadminRole, username: 'dongmen1' });
    const env = await api<Page<Account>>(t.app, 'accountList', unitadmin, { limit: 100 });
    const names = env.data.list.map((a) => a.username);
    expect(names).toEqual(expect.arrayContaining(['unitadmin', 'huafu1']));
    expect(names).not.toContain('dongmen1');
    expect(names).not.toContain('admin');
    expect(env.data.list.every((a) => a.dwbh.startsWith('440304'))).toBe(true);
  });

  it('filters by name, unit (with or without sub-units), role, state and pages', async () => {
    const byName = await api<Page<Account>>(t.app, 'accountList', admin, { keyword: 'HUAFU' });
    expect(byName.data.list.map((a) => a.username)).toEqual(['huafu1']);
    const unitOnly = await api<Page<Account>>(t.app, 'accountList', admin, { unit_id: futian, include_sub: 0 });
    expect(unitOnly.data.list.map((a) => a.username)).toEqual(['unitadmin']);
    const withSub = await api<Page<Account>>(t.app, 'accountList', admin, { unit_id: futian });
    expect(withSub.data.list.map((a) => a.username).sort()).toEqual(['huafu1', 'unitadmin']);
    const byRole = await api<Page<Account>>(t.app, 'accountList', admin, {
      role_id: adminRole,
      status: 'enabled',
      unit_id: '',
    });
    expect(byRole.data.list.map((a) => a.username)).toEqual(['admin']);
    const page = await api<Page<Account>>(t.app, 'accountList', admin, { limit: 2, page: 2 });
    expect(page.data).toMatchObject({ page: 2, limit: 2 });
    expect(page.data.list).toHaveLength(2);
  });

  it('refuses a unit out of scope and bad input', async () => {
    expect(await api(t.app, 'accountList', unitadmin, { unit_id: luohu })).toMatchObject({
      code: 403,
      msg: '无权访问本单位及下级单位以外的数据',
    });
    expect(await api(t.app, 'accountList', admin, { status: 'gone' })).toMatchObject({
      code: 400,
      msg: '字段 status：不是允许的选项',
    });
    expect(await api(t.app, 'accountList', admin, { limit: 1000 })).toMatchObject({
      code: 400,
      msg: '字段 limit：超出允许范围',
    });
  });
});

describe('POST rest/user/user/add', () => {
  it('creates an account that can log in', async () => {
    const body = newAccount({ username: 'lisi' });
    const env = await api<{ id: number }>(t.app, 'accountAdd', admin, body);
    expect(env).toMatchObject({ code: 200, msg: '新增成功' });
    expect(await userRow(env.data.id)).toMatchObject({
      username: 'lisi',
      unit_id: futian,
      role_id: unitadminRole,
      ifadmin: 0,
      status: 'enabled',
    });
    expect((await userRow(env.data.id))!.password_hash).toMatch(/^\$argon2id\$/);
    await expect(login(t.app, 'lisi', 'Zhang@123')).resolves.toBeTruthy();
  });

  it('applies the password and field rules, naming the field, and writes nothing', async () => {
    const before = await users();
    expect(await api(t.app, 'accountAdd', admin, newAccount({ password: 'Ab@1' }))).toMatchObject({
      code: 400,
      msg: '字段 password：密码长度为 8 到 12 位',
    });
    expect(await api(t.app, 'accountAdd', admin, newAccount({ password: 'abcdefgh1' }), 'en-US')).toMatchObject({
      code: 400,
      msg: 'Field password: The password must contain at least three of: upper-case letter, lower-case letter, digit, special character.',
    });
    expect(await api(t.app, 'accountAdd', admin, newAccount({ username: 'a b' }))).toMatchObject({
      code: 400,
      msg: '字段 username：用户名为 2 到 32 位字母、数字或 _ . @ -',
    });
    expect(await api(t.app, 'accountAdd', admin, newAccount({ hostname: '' }))).toMatchObject({
      code: 400,
      msg: '字段 hostname：不能为空',
    });
    expect(await api(t.app, 'accountAdd', admin, newAccount({ role_id: undefined }))).toMatchObject({
      code: 400,
      msg: '字段 role_id：不能为空',
    });
    expect(await api(t.app, 'accountAdd', admin, newAccount({ phone: 'call me' }))).toMatchObject({
      code: 400,
      msg: '字段 phone：请输入正确的电话号码',
    });
    expect(await api(t.app, 'accountAdd', admin, newAccount({ role_id: 99999 }))).toMatchObject({
      code: 404,
      msg: '角色不存在',
    });
    expect(await users()).toEqual(before);
  });

  it('refuses a duplicate username', async () => {
    const before = await users();
    expect(await api(t.app, 'accountAdd', admin, newAccount({ username: 'dispatcher' }))).toMatchObject({
      code: 409,
      msg: '用户名 dispatcher 已存在',
    });
    expect(await users()).toEqual(before);
  });

  it('keeps a unit administrator within his unit and his own rights', async () => {
    const before = await users();
    expect(await api(t.app, 'accountAdd', unitadmin, newAccount({ unit_id: luohu }))).toMatchObject({
      code: 403,
      msg: '无权访问本单位及下级单位以外的数据',
    });
    expect(await api(t.app, 'accountAdd', unitadmin, newAccount({ ifadmin: 1 }))).toMatchObject({
      code: 403,
      msg: '只有管理员可以授予管理员身份',
    });
    expect(await api(t.app, 'accountAdd', unitadmin, newAccount({ role_id: adminRole }))).toMatchObject({
      code: 403,
      msg: '不能分配超出自己权限的角色',
    });
    expect(await users()).toEqual(before);
    const ok = await api(
      t.app,
      'accountAdd',
      unitadmin,
      newAccount({ role_id: await idOf('roles', 'name', '审计员') }),
    );
    expect(ok.code).toBe(200);
  });
});

describe('POST rest/user/user/update', () => {
  it('edits name, phone, unit and role', async () => {
    const u = await createUser(t.db, { unitBh: FUTIAN, roleId: unitadminRole });
    const station = await idOf('units', 'bh', '440304020000');
    const auditor = await idOf('roles', 'name', '审计员');
    const env = await api(t.app, 'accountUpdate', unitadmin, {
      id: u.id,
      hostname: '王五',
      phone: '',
      unit_id: station,
      role_id: auditor,
    });
    expect(env).toMatchObject({ code: 200, msg: '修改成功' });
    expect(await userRow(u.id)).toMatchObject({ hostname: '王五', unit_id: station, role_id: auditor, ifadmin: 0 });
  });

  it('refuses moving an account out of scope or touching one out of scope', async () => {
    const own = await createUser(t.db, { unitBh: FUTIAN, roleId: unitadminRole });
    const other = await createUser(t.db, { unitBh: LUOHU, roleId: unitadminRole });
    const before = await users();
    expect(
      await api(t.app, 'accountUpdate', unitadmin, {
        id: own.id,
        hostname: 'x',
        unit_id: luohu,
        role_id: unitadminRole,
      }),
    ).toMatchObject({ code: 403 });
    expect(
      await api(t.app, 'accountUpdate', unitadmin, {
        id: other.id,
        hostname: 'x',
        unit_id: futian,
        role_id: unitadminRole,
      }),
    ).toMatchObject({ code: 403 });
    expect(await users()).toEqual(before);
  });

  it('refuses demoting the last administrator, and a non-administrator touching an administrator', async () => {
    const me = await idOf('users', 'username', 'admin');
    const root = await idOf('units', 'bh', '440300000000');
    const before = await users();
    expect(
      await api(t.app, 'accountUpdate', admin, {
        id: me,
        hostname: '系统管理员',
        unit_id: root,
        role_id: adminRole,
        ifadmin: 0,
      }),
    ).toMatchObject({
      code: 409,
      msg: '不能删除、停用或取消最后一个管理员',
    });
    const boss = await createUser(t.db, { unitBh: FUTIAN, roleId: unitadminRole, ifadmin: 1 });
    expect(
      await api(t.app, 'accountUpdate', unitadmin, {
        id: boss.id,
        hostname: 'x',
        unit_id: futian,
        role_id: unitadminRole,
        ifadmin: 1,
      }),
    ).toMatchObject({
      code: 403,
      msg: '只有管理员可以管理管理员账号或权限超出自己的账号',
    });
    expect(await api(t.app, 'accountResetPassword', unitadmin, { id: boss.id })).toMatchObject({ code: 403 });
    expect(await api(t.app, 'accountDelete', unitadmin, { id: boss.id })).toMatchObject({ code: 403 });
    expect((await users()).filter((u) => u.id !== boss.id)).toEqual(before);
    // with a second administrator the first may be demoted
    expect(
      await api(t.app, 'accountUpdate', admin, {
        id: boss.id,
        hostname: 'x',
        unit_id: futian,
        role_id: unitadminRole,
        ifadmin: 0,
      }),
    ).toMatchObject({ code: 200 });
  });

  it('names bad input', async () => {
    expect(
      await api(t.app, 'accountUpdate', admin, { hostname: 'x', unit_id: futian, role_id: adminRole }),
    ).toMatchObject({ code: 400, msg: '字段 id：不能为空' });
    expect(
      await api(t.app, 'accountUpdate', admin, { id: 999999, hostname: 'x', unit_id: futian, role_id: adminRole }),
    ).toMatchObject({ code: 404, msg: '用户不存在' });
  });
});

describe('POST rest/user/user/status', () => {
  it('disables an account: its session ends and it cannot log in; enabling lets it back', async () => {
    const u = await createUser(t.db, { unitBh: '440304030000', roleId: unitadminRole });
    const s = await login(t.app, u.username, u.password);
    expect(await api(t.app, 'accountStatus', unitadmin, { id: u.id, status: 'disabled' })).toMatchObject({
      code: 200,
      msg: '已停用',
    });
    expect(await api(t.app, 'userInfo', s)).toMatchObject({ code: 401 });
    const res = await t.app.inject({
      method: 'POST',
      url: Api.login.path,
      payload: await loginBody(t.app, u.username, u.password),
    });
    expect(envelope(res)).toMatchObject({ code: 403, msg: '账号已停用，请联系管理员' });
    expect(await api(t.app, 'accountStatus', unitadmin, { id: u.id, status: 'enabled' }, 'en-US')).toMatchObject({
      code: 200,
      msg: 'Enabled',
    });
    await expect(login(t.app, u.username, u.password)).resolves.toBeTruthy();
  });

  it('refuses disabling oneself, changing nothing', async () => {
    const me = await idOf('users', 'username', 'unitadmin');
    expect(await api(t.app, 'accountStatus', unitadmin, { id: me, status: 'disabled' })).toMatchObject({
      code: 409,
      msg: '不能停用或删除自己的账号',
    });
    expect((await userRow(me))!.status).toBe('enabled');
    expect(await api(t.app, 'userInfo', unitadmin)).toMatchObject({ code: 200 });
  });

  it('names bad input and refuses out of scope', async () => {
    const other = await createUser(t.db, { unitBh: LUOHU, roleId: unitadminRole });
    expect(await api(t.app, 'accountStatus', admin, { id: other.id, status: 'off' })).toMatchObject({
      code: 400,
      msg: '字段 status：不是允许的选项',
    });
    expect(await api(t.app, 'accountStatus', unitadmin, { id: other.id, status: 'disabled' })).toMatchObject({
      code: 403,
    });
    expect((await userRow(other.id))!.status).toBe('enabled');
  });
});

describe('POST rest/user/user/reset_password', () => {
  it('resets to the configured default and ends the sessions', async () => {
    const normal = await readSettings(t.db, 'normalset');
    await writeSettings(t.db, 'normalset', { ...normal, default_password: 'Reset@2026' });
    const u = await createUser(t.db, { unitBh: FUTIAN, roleId: unitadminRole });
    const s = await login(t.app, u.username, u.password);
    expect(await api(t.app, 'accountResetPassword', unitadmin, { id: u.id })).toMatchObject({
      code: 200,
      msg: '密码已重置为默认密码',
    });
    expect(await api(t.app, 'userInfo', s)).toMatchObject({ code: 401 });
    await expect(login(t.app, u.username, u.password)).rejects.toThrow();
    await expect(login(t.app, u.username, 'Reset@2026')).resolves.toBeTruthy();
  });

  it('refuses out of scope and bad input', async () => {
    const other = await createUser(t.db, { unitBh: LUOHU, roleId: unitadminRole });
    const hash = (await userRow(other.id))!.password_hash;
    expect(await api(t.app, 'accountResetPassword', unitadmin, { id: other.id })).toMatchObject({ code: 403 });
    expect((await userRow(other.id))!.password_hash).toBe(hash);
    expect(await api(t.app, 'accountResetPassword', admin, { id: 'me' })).toMatchObject({
      code: 400,
      msg: '字段 id：必须是数字',
    });
  });
});

describe('POST rest/user/user/del', () => {
  it('deletes an account in scope', async () => {
    const u = await createUser(t.db, { unitBh: FUTIAN, roleId: unitadminRole });
    expect(await api(t.app, 'accountDelete', unitadmin, { id: u.id })).toMatchObject({ code: 200, msg: '删除成功' });
    expect(await userRow(u.id)).toBeUndefined();
    expect(await api(t.app, 'accountDelete', unitadmin, { id: u.id })).toMatchObject({ code: 404 });
  });

  it('refuses deleting oneself and accounts out of scope, changing nothing', async () => {
    const me = await idOf('users', 'username', 'admin');
    const other = await createUser(t.db, { unitBh: LUOHU, roleId: unitadminRole });
    const before = await users();
    expect(await api(t.app, 'accountDelete', admin, { id: me })).toMatchObject({
      code: 409,
      msg: '不能停用或删除自己的账号',
    });
    expect(await api(t.app, 'accountDelete', unitadmin, { id: other.id })).toMatchObject({ code: 403 });
    expect(await api(t.app, 'accountDelete', admin, {})).toMatchObject({ code: 400, msg: '字段 id：不能为空' });
    expect(await users()).toEqual(before);
  });
});

describe('online users and del_online', () => {
  it('lists active sessions within scope', async () => {
    const u = await createUser(t.db, { unitBh: '440304010000', roleId: unitadminRole });
    await login(t.app, u.username, u.password);
    // consoles heard from lately (their heartbeat): a slow run must not leave the seeded ones out
    for (const s of [dispatcher, unitadmin]) await api(t.app, 'heartbeatCheck', s);
    const all = await api<OnlineUser[]>(t.app, 'onlineUsers', admin);
    expect(all.data.map((o) => o.username)).toEqual(
      expect.arrayContaining(['admin', 'dispatcher', 'unitadmin', u.username]),
    );
    const scoped = await api<OnlineUser[]>(t.app, 'onlineUsers', unitadmin);
    expect(scoped.data.map((o) => o.username)).toEqual(expect.arrayContaining(['unitadmin', u.username]));
    expect(scoped.data.map((o) => o.username)).not.toContain('admin');
    const found = await api<OnlineUser[]>(t.app, 'onlineUsers', admin, { keyword: u.username });
    expect(found.data).toEqual([
      expect.objectContaining({ username: u.username, dname: '华富派出所', group_name: '单位管理员' }),
    ]);
  });

  it('a console not heard from for 2.5 minutes (a closed tab) is no longer online nor a workstation in use; its heartbeat brings it back', async () => {
    const u = await createUser(t.db, { unitBh: FUTIAN, roleId: unitadminRole });
    const s = await login(t.app, u.username, u.password);
    const names = async () => (await api<OnlineUser[]>(t.app, 'onlineUsers', admin)).data.map((o) => o.username);
    const inUse = async () =>
      (await api<{ use_workstation_nums: number }>(t.app, 'versionInfo', admin)).data.use_workstation_nums;
    expect(await names()).toContain(u.username);
    const before = await inUse();
    const sessionId = (
      await t.db.selectFrom('sessions').select('id').where('user_id', '=', u.id).executeTakeFirstOrThrow()
    ).id;
    // the tab was closed 3 minutes ago: no heartbeat since (the session timeout is 120 minutes)
    await t.db
      .updateTable('sessions')
      .set({ last_seen: new Date(Date.now() - 180_000).toISOString() })
      .where('id', '=', sessionId)
      .execute();
    expect(await names()).not.toContain(u.username);
    expect(await inUse()).toBe(before - 1);
    // reopened within the session timeout: the same session goes on
    expect(await api(t.app, 'heartbeatCheck', s)).toMatchObject({ data: { state: HeartbeatState.SUCCESS } });
    expect(await names()).toContain(u.username);
  });

  it('forces a user off: its next request answers 401 forcedOffline, its heartbeat fail', async () => {
    const u = await createUser(t.db, { unitBh: FUTIAN, roleId: unitadminRole });
    const s = await login(t.app, u.username, u.password);
    expect(await api(t.app, 'forceOffline', unitadmin, { id: u.id })).toMatchObject({ code: 200, msg: '已强制下线' });
    expect(await api(t.app, 'userInfo', s)).toEqual({ code: 401, msg: '账号已在别处登录，您已被迫下线', data: null });
    expect(await api(t.app, 'heartbeatCheck', s)).toMatchObject({ data: { state: HeartbeatState.FAIL } });
    const online = await api<OnlineUser[]>(t.app, 'onlineUsers', admin);
    expect(online.data.map((o) => o.username)).not.toContain(u.username);
  });

  it('refuses out of scope and bad input', async () => {
    const other = await createUser(t.db, { unitBh: LUOHU, roleId: unitadminRole });
    const s = await login(t.app, other.username, other.password);
    expect(await api(t.app, 'forceOffline', unitadmin, { id: other.id })).toMatchObject({ code: 403 });
    expect(await api(t.app, 'userInfo', s)).toMatchObject({ code: 200 });
    expect(await api(t.app, 'forceOffline', admin, {})).toMatchObject({ code: 400, msg: '字段 id：不能为空' });
    expect(await api(t.app, 'onlineUsers', admin, { keyword: 'x'.repeat(101) })).toMatchObject({
      code: 400,
      msg: '字段 keyword：长度超出限制',
    });
  });
});

describe('GET rest/user/role/options', () => {
  it('offers an administrator every role and a unit administrator only roles within his rights', async () => {
    const all = await api<RoleOption[]>(t.app, 'roleOptions', admin);
    expect(all.data.map((r) => r.name)).toEqual(['管理员', '调度员', '单位管理员', '民警', '审计员']);
    const own = await api<RoleOption[]>(t.app, 'roleOptions', unitadmin);
    expect(own.data.map((r) => r.name)).toEqual(['单位管理员', '审计员']);
  });
});

it('keeps the role test factory honest', async () => {
  // a role without permissions is within anyone's rights
  const empty = await createRole(t.db, 'empty-role');
  const own = await api<RoleOption[]>(t.app, 'roleOptions', unitadmin);
  expect(own.data.map((r) => r.id)).toContain(empty);
});
