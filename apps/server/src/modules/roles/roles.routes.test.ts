import { MenuId, MODULES, type PermissionNode, type Role, type RoleAuthTree, type UserContext } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { createRole, createTestApp, createUser, DEMO, login, type Session, type TestApp } from '../../../test/helpers';

let t: TestApp;
let admin: Session;
let unitadmin: Session;
let dispatcher: Session;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  unitadmin = await login(t.app, DEMO.unitadmin.username, DEMO.unitadmin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
});
afterAll(async () => t.close());

const roleId = async (name: string) =>
  (await t.db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
const roleRow = (id: number) => t.db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
const perms = (id: number) =>
  t.db
    .selectFrom('role_permissions')
    .select(['module_id', 'view', 'edit', 'add'])
    .where('role_id', '=', id)
    .orderBy('module_id')
    .execute();
const flatten = (nodes: PermissionNode[]): PermissionNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe('every role endpoint', () => {
  const names = ['roleList', 'roleAdd', 'roleUpdate', 'roleDelete', 'roleAuthGet', 'roleAuthUpdate'] as const;
  const input = { id: 1, name: 'x', permissions: [] };
  it.each(names)('%s refuses a caller without a session', async (name) => {
    expect(await api(t.app, name, null, input)).toMatchObject({ code: 401, msg: '请先登录' });
  });
  it.each(names)('%s needs menu 10412 (the dispatcher has none)', async (name) => {
    const env = await api(t.app, name, dispatcher, input);
    expect(env.code).toBe(403);
    expect(env.msg).toContain(String(MenuId.ROLES));
  });
});

describe('GET rest/user/role/get', () => {
  it('lists roles by weight with their accounts counted within scope', async () => {
    const all = await api<Role[]>(t.app, 'roleList', admin);
    expect(all.data.map((r) => r.name)).toEqual(['管理员', '调度员', '单位管理员', '民警', '审计员']);
    expect(all.data.find((r) => r.name === '管理员')).toMatchObject({ weight: 100, users: 1 });
    const scoped = await api<Role[]>(t.app, 'roleList', unitadmin);
    expect(scoped.data.find((r) => r.name === '管理员')).toMatchObject({ users: 0 });
    expect(scoped.data.find((r) => r.name === '单位管理员')).toMatchObject({ users: 1 });
    const found = await api<Role[]>(t.app, 'roleList', admin, { keyword: '审计' });
    expect(found.data.map((r) => r.name)).toEqual(['审计员']);
  });
});

describe('POST rest/user/role/add, update, del', () => {
  it('creates, edits and deletes a role; the weight orders the list', async () => {
    const added = await api<{ id: number }>(t.app, 'roleAdd', admin, {
      name: '值班员',
      weight: 60,
      remark: '夜间值班',
    });
    expect(added).toMatchObject({ code: 200, msg: '新增成功' });
    expect(await roleRow(added.data.id)).toMatchObject({ name: '值班员', weight: 60, remark: '夜间值班' });
    const list = await api<Role[]>(t.app, 'roleList', admin);
    expect(list.data.map((r) => r.name).slice(0, 3)).toEqual(['管理员', '值班员', '调度员']);
    expect(await api(t.app, 'roleUpdate', admin, { id: added.data.id, name: '值班长', weight: 5 })).toMatchObject({
      code: 200,
      msg: '修改成功',
    });
    expect(await roleRow(added.data.id)).toMatchObject({ name: '值班长', weight: 5, remark: '' });
    expect(await api(t.app, 'roleDelete', admin, { id: added.data.id })).toMatchObject({ code: 200, msg: '删除成功' });
    expect(await roleRow(added.data.id)).toBeUndefined();
    expect(await api(t.app, 'roleDelete', admin, { id: added.data.id })).toMatchObject({
      code: 404,
      msg: '角色不存在',
    });
  });

  it('names bad input and refuses duplicate names, changing nothing', async () => {
    const before = await t.db.selectFrom('roles').selectAll().orderBy('id').execute();
    expect(await api(t.app, 'roleAdd', admin, { name: '' })).toMatchObject({ code: 400, msg: '字段 name：不能为空' });
    expect(await api(t.app, 'roleAdd', admin, { name: 'x', weight: 'heavy' })).toMatchObject({
      code: 400,
      msg: '字段 weight：必须是数字',
    });
    expect(await api(t.app, 'roleAdd', admin, { name: 'x', weight: 10000 })).toMatchObject({
      code: 400,
      msg: '字段 weight：取值范围为 0 到 9999',
    });
    expect(await api(t.app, 'roleAdd', admin, { name: '调度员' })).toMatchObject({
      code: 409,
      msg: '角色名称 调度员 已存在',
    });
    expect(await api(t.app, 'roleUpdate', admin, { id: await roleId('审计员'), name: '调度员' })).toMatchObject({
      code: 409,
    });
    expect(await api(t.app, 'roleUpdate', admin, { name: 'x' })).toMatchObject({ code: 400, msg: '字段 id：不能为空' });
    expect(await api(t.app, 'roleDelete', admin, { id: 'all' })).toMatchObject({
      code: 400,
      msg: '字段 id：必须是数字',
    });
    expect(await t.db.selectFrom('roles').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('refuses deleting a role still assigned', async () => {
    const id = await roleId('调度员');
    expect(await api(t.app, 'roleDelete', admin, { id })).toMatchObject({
      code: 409,
      msg: '该角色仍分配给 1 个账号，不能删除',
    });
    expect(await roleRow(id)).toBeDefined();
    expect((await perms(id)).length).toBeGreaterThan(0);
  });

  it('keeps a non-administrator off roles beyond his rights', async () => {
    const adminRole = await roleId('管理员');
    const before = await roleRow(adminRole);
    expect(await api(t.app, 'roleUpdate', unitadmin, { id: adminRole, name: '管理员', weight: 0 })).toMatchObject({
      code: 403,
      msg: '不能分配或修改超出自己权限的权限',
    });
    const spare = await createRole(t.db, 'spare-dispatch', [{ ids: [10101], actions: ['view'] }]);
    expect(await api(t.app, 'roleDelete', unitadmin, { id: spare })).toMatchObject({ code: 403 });
    expect(await roleRow(adminRole)).toEqual(before);
    expect(await roleRow(spare)).toBeDefined();
  });

  it('keeps a non-administrator off roles held by accounts outside his unit scope', async () => {
    const shared = await createRole(t.db, 'shared-auditor', [{ ids: [MenuId.OPERATION_LOG], actions: ['view'] }]);
    await createUser(t.db, { roleId: shared, unitBh: '440303000000' });
    const before = await perms(shared);
    expect(await api(t.app, 'roleUpdate', unitadmin, { id: shared, name: 'renamed' })).toMatchObject({
      code: 403,
      msg: '无权访问本单位及下级单位以外的数据',
    });
    expect(await api(t.app, 'roleAuthUpdate', unitadmin, { id: shared, permissions: [] })).toMatchObject({ code: 403 });
    expect(await perms(shared)).toEqual(before);
    expect((await roleRow(shared))!.name).toBe('shared-auditor');
  });

  it('the list says which roles the caller may change, as the refusals above decide', async () => {
    const changeable = async (s: Session) =>
      Object.fromEntries((await api<Role[]>(t.app, 'roleList', s)).data.map((r) => [r.name, r.changeable]));
    const asUnitadmin = await changeable(unitadmin);
    // beyond his rights, and held by an account outside his units
    expect(asUnitadmin).toMatchObject({ 管理员: 0, 'shared-auditor': 0 });
    const asAdmin = await changeable(admin);
    expect(Object.values(asAdmin).every((c) => c === 1)).toBe(true);
    // what he is offered works: a role within his rights and units
    const mine = await createRole(t.db, 'futian-desk', [{ ids: [10411], actions: ['view'] }]);
    expect((await changeable(unitadmin))['futian-desk']).toBe(1);
    expect(await api(t.app, 'roleUpdate', unitadmin, { id: mine, name: 'futian-desk-2', weight: 1 })).toMatchObject({
      code: 200,
    });
  });
});

describe('permission distribution', () => {
  it('auth_get gives every module as a tree with the role actions and the caller ceiling', async () => {
    const auditor = await roleId('审计员');
    const env = await api<RoleAuthTree>(t.app, 'roleAuthGet', admin, { id: auditor });
    expect(env.code).toBe(200);
    expect(env.data.role_name).toBe('审计员');
    expect(env.data.modules.map((m) => m.id)).toEqual([10001, 10100, 10150, 10200, 10090, 10300, 10400]);
    const all = flatten(env.data.modules);
    expect(all).toHaveLength(MODULES.length);
    expect(all.find((m) => m.id === MenuId.OPERATION_LOG)).toMatchObject({ view: 1, edit: 0, add: 0 });
    expect(all.find((m) => m.id === MenuId.ACCOUNTS)).toMatchObject({ view: 0, edit: 0, add: 0 });
    expect(Object.keys(env.data.grantable)).toHaveLength(MODULES.length);
    const own = await api<RoleAuthTree>(t.app, 'roleAuthGet', unitadmin, { id: auditor });
    expect(own.data.grantable[MenuId.ACCOUNTS]).toEqual({ view: 1, edit: 1, add: 1 });
    expect(own.data.grantable[10101]).toBeUndefined();
    expect(await api(t.app, 'roleAuthGet', admin, { id: 99999 })).toMatchObject({ code: 404 });
    expect(await api(t.app, 'roleAuthGet', admin, {})).toMatchObject({ code: 400, msg: '字段 id：不能为空' });
  });

  it('a change applies to logged-in users at their next request', async () => {
    const role = await createRole(t.db, 'watcher');
    const u = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
    const s = await login(t.app, u.username, u.password);
    expect(await api(t.app, 'logList', s)).toMatchObject({ code: 403 });

    const grant = { id: role, permissions: [{ module_id: MenuId.OPERATION_LOG, view: 1 }] };
    expect(await api(t.app, 'roleAuthUpdate', admin, grant)).toMatchObject({ code: 200, msg: '权限分配已保存' });
    // same session, next request
    expect(await api(t.app, 'logList', s)).toMatchObject({ code: 200 });
    const context = await api<UserContext>(t.app, 'userContext', s);
    expect(context.data.modules.map((m) => m.id)).toEqual([10400, 10430, MenuId.OPERATION_LOG]);
    expect(await perms(role)).toEqual([
      { module_id: 10400, view: 1, edit: 0, add: 0 },
      { module_id: 10430, view: 1, edit: 0, add: 0 },
      { module_id: MenuId.OPERATION_LOG, view: 1, edit: 0, add: 0 },
    ]);

    expect(await api(t.app, 'roleAuthUpdate', admin, { id: role, permissions: [] })).toMatchObject({ code: 200 });
    expect(await api(t.app, 'logList', s)).toMatchObject({ code: 403 });
    expect((await api<UserContext>(t.app, 'userContext', s)).data.modules).toEqual([]);
  });

  it('refuses unknown modules and bad input, changing nothing', async () => {
    const auditor = await roleId('审计员');
    const before = await perms(auditor);
    expect(
      await api(t.app, 'roleAuthUpdate', admin, {
        id: auditor,
        permissions: [
          { module_id: MenuId.OPERATION_LOG, view: 1 },
          { module_id: 99, view: 1 },
        ],
      }),
    ).toMatchObject({
      code: 400,
      msg: '字段 permissions.1.module_id：不是已知的模块编号',
    });
    expect(await api(t.app, 'roleAuthUpdate', admin, { id: auditor, permissions: 'all' })).toMatchObject({
      code: 400,
      msg: '字段 permissions：类型不正确',
    });
    expect(
      await api(t.app, 'roleAuthUpdate', admin, { id: auditor, permissions: [{ module_id: 10431, view: 2 }] }),
    ).toMatchObject({
      code: 400,
      msg: '字段 permissions.0.view：不是允许的选项',
    });
    expect(await perms(auditor)).toEqual(before);
  });

  it('lets a non-administrator distribute only what he holds', async () => {
    const role = await createRole(t.db, 'helper');
    expect(
      await api(t.app, 'roleAuthUpdate', unitadmin, { id: role, permissions: [{ module_id: 10101, view: 1 }] }),
    ).toMatchObject({
      code: 403,
      msg: '不能分配或修改超出自己权限的权限',
    });
    expect(await perms(role)).toEqual([]);
    expect(
      await api(t.app, 'roleAuthUpdate', unitadmin, {
        id: role,
        permissions: [{ module_id: MenuId.ACCOUNTS, view: 1, edit: 1 }],
      }),
    ).toMatchObject({
      code: 200,
    });
    expect((await perms(role)).find((p) => p.module_id === MenuId.ACCOUNTS)).toEqual({
      module_id: MenuId.ACCOUNTS,
      view: 1,
      edit: 1,
      add: 0,
    });
    const adminRole = await roleId('管理员');
    const before = await perms(adminRole);
    expect(await api(t.app, 'roleAuthUpdate', unitadmin, { id: adminRole, permissions: [] })).toMatchObject({
      code: 403,
    });
    expect(await perms(adminRole)).toEqual(before);
  });
});
