import { DICT_TYPES, MenuId, type DictEntry, type DictType } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { createRole, createTestApp, createUser, DEMO, login, type Session, type TestApp } from '../../../test/helpers';

let t: TestApp;
let admin: Session;
let dispatcher: Session;
let viewer: Session;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  // view on the dictionary screen, but neither add nor edit
  const role = await createRole(t.db, 'dict-viewer', [{ ids: [MenuId.DATA_DICTIONARY], actions: ['view'] }]);
  const u = await createUser(t.db, { roleId: role });
  viewer = await login(t.app, u.username, u.password);
});
afterAll(async () => t.close());

const entries = () => t.db.selectFrom('dict_entries').selectAll().orderBy('id').execute();
const entryId = async (type: string, key: string) =>
  (
    await t.db
      .selectFrom('dict_entries')
      .select('id')
      .where('type', '=', type)
      .where('key', '=', key)
      .executeTakeFirstOrThrow()
  ).id;

describe('every dictionary endpoint', () => {
  const input = { id: 1, type: DICT_TYPES.ALARM_TYPE, key: '99', label: 'x' };
  it.each(['dictTypes', 'dictList', 'dictAdd', 'dictUpdate', 'dictDelete'] as const)(
    '%s refuses a caller without a session',
    async (name) => {
      expect(await api(t.app, name, null, input)).toMatchObject({ code: 401, msg: '请先登录' });
    },
  );
  it.each([
    ['dictAdd', 'add'],
    ['dictUpdate', 'edit'],
    ['dictDelete', 'edit'],
  ] as const)('%s needs %s on menu 10450', async (name, action) => {
    for (const who of [dispatcher, viewer]) {
      const env = await api(t.app, name, who, input);
      expect(env.code).toBe(403);
      expect(env.msg).toBe(
        `没有权限：需要菜单 ${MenuId.DATA_DICTIONARY} 的“${action === 'add' ? '新增' : '编辑'}”权限`,
      );
    }
  });
});

describe('reading', () => {
  it('gives every logged-in user the seeded types and entries', async () => {
    const types = await api<DictType[]>(t.app, 'dictTypes', dispatcher);
    expect(types.data.map((x) => x.code)).toEqual(['alarm_type', 'alarm_level', 'device_type', 'media_category']);
    expect(types.data[0]).toMatchObject({ name: '报警类型', name_en: 'Alarm types', entries: 10 });
    const alarms = await api<DictEntry[]>(t.app, 'dictList', dispatcher, { type: DICT_TYPES.ALARM_TYPE });
    expect(alarms.data[0]).toMatchObject({
      key: '0',
      label: '电子围栏报警',
      label_en: 'Electronic fence alarm',
      builtin: 1,
      enabled: 1,
    });
    const levels = await api<DictEntry[]>(t.app, 'dictList', dispatcher, { type: DICT_TYPES.ALARM_LEVEL });
    expect(levels.data.map((e) => e.key)).toEqual(['criticle', 'middle', 'normal']);
  });

  it('names a bad or unknown type', async () => {
    expect(await api(t.app, 'dictList', dispatcher, {})).toMatchObject({ code: 400, msg: '字段 type：不能为空' });
    expect(await api(t.app, 'dictList', dispatcher, { type: 'Bad Type' })).toMatchObject({
      code: 400,
      msg: expect.stringContaining('字段 type：'),
    });
    expect(await api(t.app, 'dictList', dispatcher, { type: 'no_such' }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'No such dictionary type',
    });
  });
});

describe('editing', () => {
  it('adds, edits, disables and deletes an entry', async () => {
    const added = await api<{ id: number }>(t.app, 'dictAdd', admin, {
      type: DICT_TYPES.DEVICE_TYPE,
      key: '7',
      label: '手持终端',
      label_en: 'Handheld terminal',
      sort: 7,
    });
    expect(added).toMatchObject({ code: 200, msg: '新增成功' });
    expect(
      await api(t.app, 'dictUpdate', admin, {
        id: added.data.id,
        label: '警务通',
        label_en: 'Police handheld',
        sort: 8,
        enabled: 0,
      }),
    ).toMatchObject({ code: 200 });
    const all = await api<DictEntry[]>(t.app, 'dictList', dispatcher, { type: DICT_TYPES.DEVICE_TYPE });
    expect(all.data.find((e) => e.id === added.data.id)).toMatchObject({
      key: '7',
      label: '警务通',
      enabled: 0,
      builtin: 0,
    });
    const enabled = await api<DictEntry[]>(t.app, 'dictList', dispatcher, { type: DICT_TYPES.DEVICE_TYPE, enabled: 1 });
    expect(enabled.data.map((e) => e.id)).not.toContain(added.data.id);
    expect(await api(t.app, 'dictDelete', admin, { id: added.data.id })).toMatchObject({ code: 200, msg: '删除成功' });
    expect(await api(t.app, 'dictDelete', admin, { id: added.data.id })).toMatchObject({
      code: 404,
      msg: '字典项不存在',
    });
  });

  it('refuses duplicate keys, unknown types and bad input, changing nothing', async () => {
    const before = await entries();
    expect(await api(t.app, 'dictAdd', admin, { type: DICT_TYPES.ALARM_TYPE, key: '1', label: '重复' })).toMatchObject({
      code: 409,
      msg: '该类型中已有键值 1',
    });
    expect(await api(t.app, 'dictAdd', admin, { type: 'unknown_type', key: '1', label: 'x' })).toMatchObject({
      code: 404,
    });
    expect(await api(t.app, 'dictAdd', admin, { type: DICT_TYPES.ALARM_TYPE, key: 'a b', label: 'x' })).toMatchObject({
      code: 400,
      msg: '字段 key：键值为 1 到 32 位字母、数字、_ 或 -',
    });
    expect(await api(t.app, 'dictAdd', admin, { type: DICT_TYPES.ALARM_TYPE, key: '9', label: '' })).toMatchObject({
      code: 400,
      msg: '字段 label：不能为空',
    });
    expect(
      await api(t.app, 'dictUpdate', admin, { id: await entryId('alarm_type', '1'), label: 'x', enabled: 5 }),
    ).toMatchObject({
      code: 400,
      msg: '字段 enabled：不是允许的选项',
    });
    expect(await api(t.app, 'dictDelete', admin, {})).toMatchObject({ code: 400, msg: '字段 id：不能为空' });
    expect(await api(t.app, 'dictUpdate', admin, { id: 0, label: 'x' })).toMatchObject({
      code: 400,
      msg: '字段 id：超出允许范围',
    });
    expect(await entries()).toEqual(before);
  });

  it('lets built-in entries be renamed and disabled but not deleted', async () => {
    const id = await entryId('alarm_type', '0');
    expect(await api(t.app, 'dictDelete', admin, { id })).toMatchObject({
      code: 409,
      msg: '系统内置字典项不能删除，可以停用',
    });
    expect(
      await api(t.app, 'dictUpdate', admin, { id, label: '越界报警', label_en: 'Fence alarm', enabled: 0 }),
    ).toMatchObject({ code: 200 });
    const row = await t.db.selectFrom('dict_entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ key: '0', label: '越界报警', enabled: 0, builtin: 1 });
  });
});
