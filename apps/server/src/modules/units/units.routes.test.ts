import { MenuId, unitCodePrefix, type TreeNode, type Unit, type UnitInfo } from '@bwc/protocol';
import { sql } from 'kysely';
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

const ROOT = '440300000000';
const LUOHU = '440303000000';
const FUTIAN = '440304000000'; // the unit administrator's unit
const NANSHAN = '440305000000';

async function unitId(bh: string): Promise<number> {
  return (await t.db.selectFrom('units').select('id').where('bh', '=', bh).executeTakeFirstOrThrow()).id;
}
async function unitRow(id: number) {
  return t.db.selectFrom('units').selectAll().where('id', '=', id).executeTakeFirst();
}
async function snapshot() {
  return t.db.selectFrom('units').selectAll().orderBy('id').execute();
}

describe('every unit endpoint', () => {
  const endpoints = [
    'unitGet',
    'unitAdd',
    'unitUpdate',
    'unitMove',
    'unitDelete',
    'unitByCode',
    'unitTree',
    'unitTreeDevices',
    'unitSearch',
  ] as const;
  it.each(endpoints)('%s refuses a caller without a session', async (name) => {
    // a valid input, so that only the missing session is wrong
    const input = { id: 1, pid: 1, bh: '440300990000', name: 'x' };
    expect(await api(t.app, name, null, input)).toMatchObject({ code: 401, msg: '请先登录' });
  });
  const guarded = ['unitGet', 'unitAdd', 'unitUpdate', 'unitMove', 'unitDelete'] as const;
  it.each(guarded)('%s needs menu 10420 (the dispatcher has none)', async (name) => {
    const env = await api(t.app, name, dispatcher, { id: 1, pid: 1, bh: '440300990000', name: 'x' });
    expect(env.code).toBe(403);
    expect(env.msg).toContain(String(MenuId.UNITS));
  });
});

describe('GET rest/user/unit/get', () => {
  it('gives an administrator every unit with counts', async () => {
    const env = await api<Unit[]>(t.app, 'unitGet', admin);
    expect(env.code).toBe(200);
    expect(env.data).toHaveLength(21);
    const root = env.data.find((u) => u.bh === ROOT)!;
    expect(root).toMatchObject({ pid: 0, children: 5, users: 2, devices: expect.any(Number) });
  });

  it('gives a unit administrator only his subtree', async () => {
    const env = await api<Unit[]>(t.app, 'unitGet', unitadmin);
    expect(env.data.map((u) => u.bh).sort()).toEqual([FUTIAN, '440304010000', '440304020000', '440304030000']);
  });

  it('searches by name and keeps the ancestors in scope', async () => {
    const env = await api<Unit[]>(t.app, 'unitGet', admin, { keyword: '莲花' });
    expect(env.data.map((u) => u.bh)).toEqual(expect.arrayContaining([ROOT, FUTIAN, '440304020000']));
    expect(env.data).toHaveLength(3);
    const scoped = await api<Unit[]>(t.app, 'unitGet', unitadmin, { keyword: '莲花' });
    expect(scoped.data.map((u) => u.bh).sort()).toEqual([FUTIAN, '440304020000']);
  });

  it('names a bad query field', async () => {
    expect(await api(t.app, 'unitGet', admin, { keyword: 'x'.repeat(101) })).toMatchObject({
      code: 400,
      msg: '字段 keyword：长度超出限制',
    });
  });
});

describe('POST rest/user/unit/add', () => {
  it('creates a unit whose code extends the parent prefix', async () => {
    const pid = await unitId(LUOHU);
    const env = await api<{ id: number }>(t.app, 'unitAdd', admin, { pid, bh: '440303040000', name: '笋岗派出所' });
    expect(env).toMatchObject({ code: 200, msg: '新增成功' });
    expect(await unitRow(env.data.id)).toMatchObject({ pid, bh: '440303040000', name: '笋岗派出所', sort: 0 });
  });

  it('refuses bad input, naming the field, and writes nothing', async () => {
    const before = await snapshot();
    const pid = await unitId(LUOHU);
    expect(await api(t.app, 'unitAdd', admin, { pid, bh: '4403', name: 'x' })).toMatchObject({
      code: 400,
      msg: '字段 bh：单位编号须为 12 位数字',
    });
    expect(await api(t.app, 'unitAdd', admin, { pid, bh: '440303050000', name: '' })).toMatchObject({
      code: 400,
      msg: '字段 name：不能为空',
    });
    expect(
      await api(t.app, 'unitAdd', admin, { pid, bh: '440303050000', name: 'x'.repeat(51) }, 'en-US'),
    ).toMatchObject({
      code: 400,
      msg: 'Name is too long.',
    });
    expect(await api(t.app, 'unitAdd', admin, { bh: '440303050000', name: 'x' })).toMatchObject({
      code: 400,
      msg: '字段 pid：不能为空',
    });
    expect(await api(t.app, 'unitAdd', admin, { pid, bh: '440304050000', name: 'x' })).toMatchObject({
      code: 400,
      msg: '单位编号 bh 须以上级单位编号的前缀 440303 开头并增加一级',
    });
    expect(await api(t.app, 'unitAdd', admin, { pid, bh: LUOHU, name: 'x' })).toMatchObject({ code: 400 });
    expect(await api(t.app, 'unitAdd', admin, { pid: 99999, bh: '440303050000', name: 'x' })).toMatchObject({
      code: 404,
      msg: '单位不存在',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a duplicate code', async () => {
    const pid = await unitId(ROOT);
    expect(await api(t.app, 'unitAdd', admin, { pid, bh: NANSHAN, name: '重复' })).toMatchObject({
      code: 409,
      msg: `单位编号 ${NANSHAN} 已存在`,
    });
  });

  it('lets a unit administrator create only inside his subtree, never a root', async () => {
    const before = await snapshot();
    expect(
      await api(t.app, 'unitAdd', unitadmin, { pid: await unitId(LUOHU), bh: '440303060000', name: 'x' }),
    ).toMatchObject({
      code: 403,
      msg: '无权访问本单位及下级单位以外的数据',
    });
    expect(await api(t.app, 'unitAdd', unitadmin, { pid: 0, bh: '450000000000', name: 'x' })).toMatchObject({
      code: 403,
      msg: '只有管理员可以创建或移动顶级单位',
    });
    expect(await snapshot()).toEqual(before);
    const ok = await api<{ id: number }>(t.app, 'unitAdd', unitadmin, {
      pid: await unitId(FUTIAN),
      bh: '440304040000',
      name: '梅林派出所',
    });
    expect(ok.code).toBe(200);
  });
});

describe('POST rest/user/unit/update', () => {
  it('renames and re-sorts', async () => {
    const id = await unitId('440305010000');
    expect(await api(t.app, 'unitUpdate', admin, { id, name: '蛇口街道派出所', sort: 7 })).toMatchObject({
      code: 200,
      msg: '修改成功',
    });
    expect(await unitRow(id)).toMatchObject({ name: '蛇口街道派出所', sort: 7, bh: '440305010000' });
  });

  it('changes a code and rebases the sub-units onto it', async () => {
    const pid = await unitId(ROOT);
    const added = await api<{ id: number }>(t.app, 'unitAdd', admin, { pid, bh: '440308000000', name: '光明分局' });
    const child = await api<{ id: number }>(t.app, 'unitAdd', admin, {
      pid: added.data.id,
      bh: '440308010000',
      name: '光明派出所',
    });
    expect(
      await api(t.app, 'unitUpdate', admin, { id: added.data.id, name: '光明分局', bh: '440309000000' }),
    ).toMatchObject({ code: 200 });
    expect((await unitRow(added.data.id))!.bh).toBe('440309000000');
    expect((await unitRow(child.data.id))!.bh).toBe('440309010000');
  });

  it('refuses a code taken by another unit, changing nothing', async () => {
    const before = await snapshot();
    const id = await unitId('440306000000');
    expect(await api(t.app, 'unitUpdate', admin, { id, name: '宝安分局', bh: '440307000000' })).toMatchObject({
      code: 409,
    });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a unit out of scope and unknown ids', async () => {
    expect(await api(t.app, 'unitUpdate', unitadmin, { id: await unitId(LUOHU), name: 'x' })).toMatchObject({
      code: 403,
    });
    expect(await api(t.app, 'unitUpdate', admin, { id: 99999, name: 'x' })).toMatchObject({ code: 404 });
    expect(await api(t.app, 'unitUpdate', admin, { id: 'abc', name: 'x' })).toMatchObject({
      code: 400,
      msg: '字段 id：必须是数字',
    });
  });
});

describe('POST rest/user/unit/move', () => {
  it('refuses a cycle: under itself or its own descendant, changing nothing', async () => {
    const before = await snapshot();
    const id = await unitId(NANSHAN);
    const child = await unitId('440305020000');
    expect(await api(t.app, 'unitMove', admin, { id, pid: child, bh: '440305020100' })).toMatchObject({
      code: 400,
      msg: '不能把单位移动到它自己或它的下级单位之下',
    });
    expect(await api(t.app, 'unitMove', admin, { id, pid: id }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'A unit cannot be moved under itself or one of its sub-units',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('asks for a new code when the old one does not fit the new parent', async () => {
    const id = await unitId('440305030000');
    expect(await api(t.app, 'unitMove', admin, { id, pid: await unitId(LUOHU) })).toMatchObject({
      code: 400,
      msg: '原单位编号不符合新上级单位的编号规则，请填写新的单位编号 bh',
    });
  });

  it('moves a unit with a new code under another parent', async () => {
    const id = await unitId('440305030000');
    const pid = await unitId(LUOHU);
    expect(await api(t.app, 'unitMove', admin, { id, pid, bh: '440303090000' })).toMatchObject({
      code: 200,
      msg: '移动成功',
    });
    expect(await unitRow(id)).toMatchObject({ pid, bh: '440303090000' });
  });

  it('keeps a unit administrator inside his subtree', async () => {
    const before = await snapshot();
    const own = await unitId('440304010000');
    expect(
      await api(t.app, 'unitMove', unitadmin, { id: own, pid: await unitId(LUOHU), bh: '440303080000' }),
    ).toMatchObject({
      code: 403,
      msg: '无权访问本单位及下级单位以外的数据',
    });
    expect(
      await api(t.app, 'unitMove', unitadmin, {
        id: await unitId(LUOHU),
        pid: await unitId(FUTIAN),
        bh: '440304080000',
      }),
    ).toMatchObject({
      code: 403,
    });
    expect(await api(t.app, 'unitMove', unitadmin, { id: own, pid: 0 })).toMatchObject({
      code: 403,
      msg: '只有管理员可以创建或移动顶级单位',
    });
    expect(await snapshot()).toEqual(before);
    // inside the subtree: under a sibling station
    expect(
      await api(t.app, 'unitMove', unitadmin, { id: own, pid: await unitId('440304020000'), bh: '440304020100' }),
    ).toMatchObject({ code: 200 });
  });

  it('names bad input', async () => {
    expect(await api(t.app, 'unitMove', admin, { id: 1, pid: -1 })).toMatchObject({
      code: 400,
      msg: '字段 pid：超出允许范围',
    });
  });
});

describe('POST rest/user/unit/del', () => {
  it('refuses while the unit has sub-units', async () => {
    const id = await unitId(ROOT);
    expect(await api(t.app, 'unitDelete', admin, { id })).toMatchObject({
      code: 409,
      msg: expect.stringMatching(/^该单位下还有 \d+ 个下级单位，不能删除$/),
    });
    expect(await unitRow(id)).toBeDefined();
  });

  it('refuses while the unit has accounts', async () => {
    const role = await createRole(t.db, 'del-test');
    await createUser(t.db, { roleId: role, unitBh: '440306030000' });
    const id = await unitId('440306030000');
    expect(await api(t.app, 'unitDelete', admin, { id }, 'en-US')).toMatchObject({
      code: 409,
      msg: 'The unit still has 1 accounts and cannot be deleted',
    });
    expect(await unitRow(id)).toBeDefined();
  });

  it('deletes an empty unit, within scope only', async () => {
    const id = await unitId('440303010000');
    expect(await api(t.app, 'unitDelete', unitadmin, { id })).toMatchObject({ code: 403 });
    expect(await unitRow(id)).toBeDefined();
    expect(await api(t.app, 'unitDelete', admin, { id })).toMatchObject({ code: 200, msg: '删除成功' });
    expect(await unitRow(id)).toBeUndefined();
    expect(await api(t.app, 'unitDelete', admin, { id })).toMatchObject({ code: 404 });
    expect(await api(t.app, 'unitDelete', admin, {})).toMatchObject({ code: 400, msg: '字段 id：不能为空' });
  });
});

describe('POST rest/user/unit/edit {bh}', () => {
  it('gives the unit with the code, within scope', async () => {
    const env = await api<UnitInfo>(t.app, 'unitByCode', unitadmin, { bh: '440304020000' });
    expect(env).toMatchObject({
      code: 200,
      data: { bh: '440304020000', dname: '莲花派出所', parent_name: '福田分局' },
    });
    expect(await api(t.app, 'unitByCode', unitadmin, { bh: NANSHAN })).toMatchObject({ code: 403 });
    expect(await api(t.app, 'unitByCode', admin, { bh: '999999999999' })).toMatchObject({ code: 404 });
    expect(await api(t.app, 'unitByCode', admin, { bh: 'x' })).toMatchObject({
      code: 400,
      msg: '字段 bh：单位编号须为 12 位数字',
    });
  });
});

describe('other/unitjson: gdlist, gdlist_dv, dweilist', () => {
  it('gdlist gives the roots of the caller scope, then children lazily', async () => {
    const roots = await api<TreeNode[]>(t.app, 'unitTree', admin, {});
    expect(roots.data).toEqual([
      expect.objectContaining({ bh: ROOT, unitname: '深圳市公安局', sub: 1, last: 0, treecate: 'unit' }),
    ]);
    const level = await api<TreeNode[]>(t.app, 'unitTree', admin, { id: roots.data[0]!.id });
    expect(level.data.map((n) => n.bh)).toEqual(expect.arrayContaining([LUOHU, FUTIAN, NANSHAN]));
    const own = await api<TreeNode[]>(t.app, 'unitTree', unitadmin, {});
    expect(own.data.map((n) => n.bh)).toEqual([FUTIAN]);
    const byCode = await api<TreeNode[]>(t.app, 'unitTree', unitadmin, { bh: FUTIAN });
    expect(byCode.data.every((n) => n.bh!.startsWith('440304'))).toBe(true);
    expect(byCode.data.length).toBeGreaterThanOrEqual(3);
  });

  it('gdlist refuses a parent out of scope and bad input', async () => {
    expect(await api(t.app, 'unitTree', unitadmin, { id: await unitId(ROOT) })).toMatchObject({ code: 403 });
    expect(await api(t.app, 'unitTree', admin, { id: 'x' })).toMatchObject({ code: 400, msg: '字段 id：必须是数字' });
  });

  it('gdlist_dv adds the online device count below each unit', async () => {
    const env = await api<TreeNode[]>(t.app, 'unitTreeDevices', unitadmin, { id: await unitId(FUTIAN) });
    expect(env.code).toBe(200);
    const units = env.data.filter((n) => n.treecate === 'unit');
    expect(units.length).toBeGreaterThan(0);
    const hasDevices = (await t.db.introspection.getTables()).some((table) => table.name === 'devices');
    for (const node of units) {
      // online devices of the unit and its sub-units, counted independently of the service
      const online = hasDevices
        ? Number(
            (
              await sql<{ n: number }>`select count(*) as n from devices d join units u on u.id = d.unit_id
                where d.lineon = 1 and u.bh like ${`${unitCodePrefix(node.bh!)}%`}`.execute(t.db)
            ).rows[0]!.n,
          )
        : 0;
      expect(node.lion_count).toBe(online);
    }
    expect(await api(t.app, 'unitTreeDevices', unitadmin, { id: await unitId(LUOHU) })).toMatchObject({ code: 403 });
  });

  it('dweilist searches by name or code within scope', async () => {
    const all = await api<TreeNode[]>(t.app, 'unitSearch', admin, { text: '派出所' });
    const own = await api<TreeNode[]>(t.app, 'unitSearch', unitadmin, { text: '派出所' });
    expect(all.data.length).toBeGreaterThan(own.data.length);
    expect(own.data.every((n) => n.bh!.startsWith('440304'))).toBe(true);
    const byKey = await api<TreeNode[]>(t.app, 'unitSearch', admin, { key: NANSHAN });
    expect(byKey.data.map((n) => n.bh)).toEqual([NANSHAN]);
    expect(await api(t.app, 'unitSearch', admin, { text: 'x'.repeat(101) })).toMatchObject({
      code: 400,
      msg: '字段 text：长度超出限制',
    });
  });
});
