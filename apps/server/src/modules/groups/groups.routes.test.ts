import { MenuId, type GroupAddAnswer, type GroupFromDevicesAnswer, type TalkGroup } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import {
  auditRows,
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../test/helpers';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../test/devices';
import { temporaryGroupName } from './groups.service';

let t: TestApp;
let admin: Session;
let dispatcher: Session;
/** Emergency view+add+edit in FUTIAN */
let futianDispatcher: Session;
let viewer: Session;
let nobody: Session;
let a: CreatedDevice;
let b: CreatedDevice;
let noCode1: CreatedDevice;
let noCode2: CreatedDevice;
let luohuDevice: CreatedDevice;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  const role = await createRole(t.db, 'futian dispatch', [
    { ids: [MenuId.EMERGENCY], actions: ['view', 'add', 'edit'] },
  ]);
  const u1 = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
  futianDispatcher = await login(t.app, u1.username, u1.password);
  const viewRole = await createRole(t.db, 'viewers', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  viewer = await login(t.app, (await createUser(t.db, { roleId: viewRole })).username, 'Test@1234');
  nobody = await login(t.app, (await createUser(t.db, {})).username, 'Test@1234');
  const futian = await unitIdOf(t.db, '440304000000');
  a = await addDevice(t.app, admin, futian, { jq_hostcode: '8001', hostname: 'Alice' });
  b = await addDevice(t.app, admin, futian, { jq_hostcode: '8002', hostname: 'Bob' });
  noCode1 = await addDevice(t.app, admin, futian, { hostname: 'Carol' });
  noCode2 = await addDevice(t.app, admin, futian, { hostname: 'Dave' });
  luohuDevice = await addDevice(t.app, admin, await unitIdOf(t.db, '440303000000'), { jq_hostcode: '9001' });
});
afterAll(async () => t.close());

const groupCount = async () => (await t.db.selectFrom('talk_groups').selectAll().execute()).length;

describe('auth', () => {
  const valid = () => ({
    ids: [a.id],
    device: ['8001'],
    bh: '440304000000',
    channel_id: 1,
    channel_name: 'x',
    cate: '0',
  });
  it.each(['groupAdd', 'groupFromDevices', 'groupEdit', 'groupGet', 'groupList', 'groupDelete'] as const)(
    '%s: 401 without a session, 403 without the menu',
    async (name) => {
      expect(await api(t.app, name, null, valid(), 'en-US')).toMatchObject({ code: 401 });
      const action =
        name === 'groupAdd' || name === 'groupFromDevices'
          ? 'add'
          : name === 'groupEdit' || name === 'groupDelete'
            ? 'edit'
            : 'view';
      expect(await api(t.app, name, nobody, valid(), 'en-US')).toMatchObject({
        code: 403,
        msg: `Permission denied: this needs "${action}" on menu 10101`,
      });
    },
  );
  it('view only may not create', async () => {
    expect(await api(t.app, 'groupFromDevices', viewer, { ids: [a.id] }, 'en-US')).toMatchObject({
      code: 403,
      msg: 'Permission denied: this needs "add" on menu 10101',
    });
    expect(await groupCount()).toBe(0);
  });
  it('group management (10107) and cluster intercom (10102) reach the groups too, each action on its own', async () => {
    const managers = await createRole(t.db, 'group managers', [
      { ids: [MenuId.VOICE_MANAGE], actions: ['view', 'add', 'edit'] },
    ]);
    const manager = await login(
      t.app,
      (await createUser(t.db, { roleId: managers, unitBh: '440304000000' })).username,
      'Test@1234',
    );
    const talkers = await createRole(t.db, 'cluster talkers', [{ ids: [MenuId.CLUSTER], actions: ['view'] }]);
    const talker = await login(
      t.app,
      (await createUser(t.db, { roleId: talkers, unitBh: '440304000000' })).username,
      'Test@1234',
    );
    const made = await api<GroupAddAnswer>(t.app, 'groupAdd', manager, {
      channel_name: 'Managed',
      cate: '1',
      device: ['8001'],
      bh: '440304000000',
    });
    expect(made).toMatchObject({ code: 200, data: { tg_name: 'Managed' } });
    const seen = await api<TalkGroup[]>(t.app, 'groupList', talker, { keyword: 'Managed' });
    expect(seen.data.map((g) => g.tgid)).toEqual([made.data.groupid]);
    expect(
      await api(
        t.app,
        'groupEdit',
        talker,
        { channel_id: made.data.groupid, channel_name: 'x', cate: '1', device: [a.id], bh: '440304000000' },
        'en-US',
      ),
    ).toMatchObject({ code: 403, msg: 'Permission denied: this needs "edit" on menu 10101' });
    // still unit-scoped: a unit outside the manager's subtree is refused
    expect(
      await api(
        t.app,
        'groupAdd',
        manager,
        { channel_name: '', cate: '0', device: ['8001'], bh: '440303000000' },
        'en-US',
      ),
    ).toMatchObject({ code: 403 });
    expect((await api(t.app, 'groupDelete', manager, { channel_id: made.data.groupid })).code).toBe(200);
  });
});

describe('temporary group from a map selection', () => {
  it('none with a cluster number: refused naming them, nothing created', async () => {
    const env = await api(t.app, 'groupFromDevices', dispatcher, { ids: [noCode1.id, noCode2.id] }, 'en-US');
    expect(env).toMatchObject({
      code: 400,
      msg: `None of the selected devices has a cluster number, no group was created: Carol (${noCode1.hostbody}), Dave (${noCode2.hostbody})`,
    });
    const zh = await api(t.app, 'groupFromDevices', dispatcher, { ids: [noCode1.id] });
    expect(zh.msg).toBe(`所选设备均没有集群号，未创建群组：Carol (${noCode1.hostbody})`);
    expect(await groupCount()).toBe(0);
  });

  it('some without: listed and nothing created until confirmed; then a 24 h group with the others', async () => {
    const ask = await api<GroupFromDevicesAnswer>(t.app, 'groupFromDevices', futianDispatcher, {
      ids: [a.id, noCode1.id, b.id],
    });
    expect(ask.code).toBe(200);
    expect(ask.data).toMatchObject({
      groupid: null,
      included: [{ id: a.id }, { id: b.id }],
      missing: [{ id: noCode1.id, hostname: 'Carol', jq_hostcode: '' }],
    });
    expect(await groupCount()).toBe(0);
    const before = Date.now();
    const made = await api<GroupFromDevicesAnswer>(t.app, 'groupFromDevices', futianDispatcher, {
      ids: [a.id, noCode1.id, b.id],
      confirm: 1,
    });
    expect(made.code).toBe(200);
    expect(made.data.groupid).toBeGreaterThan(0);
    expect(made.data.tg_name).toMatch(/^临时组\d{14}\d$/);
    const life = Date.parse(made.data.expires!) - before;
    expect(life).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(life).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    const g = await api<TalkGroup>(t.app, 'groupGet', futianDispatcher, { channel_id: made.data.groupid });
    expect(g.data).toMatchObject({
      tgid: made.data.groupid,
      preconfig: 0,
      treecate: '1',
      total: 2,
      bh: '440304000000',
      speak: false,
      hear: false,
    });
    expect(g.data.uids.sort()).toEqual([a.id, b.id].sort());
    expect(g.data.children.map((c) => c.display_name).sort()).toEqual([
      expect.stringMatching(/^Alice\(/),
      expect.stringMatching(/^Bob\(/),
    ]);
    expect((await auditRows(t.db, '/rest/gis/gischanneladd/addgroup'))[0]).toMatchObject({
      result_code: 200,
      target: String(made.data.groupid),
    });
  });

  it('English prefix; out-of-scope and unknown devices refused', async () => {
    const en = await api<GroupFromDevicesAnswer>(t.app, 'groupFromDevices', dispatcher, { ids: [a.id] }, 'en-US');
    expect(en.data.tg_name).toMatch(/^Temp group \d{15}$/);
    expect(
      await api(t.app, 'groupFromDevices', futianDispatcher, { ids: [a.id, luohuDevice.id] }, 'en-US'),
    ).toMatchObject({
      code: 403,
      msg: 'This data belongs to a unit outside your unit and its sub-units',
    });
    expect(await api(t.app, 'groupFromDevices', dispatcher, { ids: [999999] }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Field ids: Devices 999999 do not exist.',
    });
    expect(await api(t.app, 'groupFromDevices', dispatcher, { ids: [] }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Ids are required.',
    });
  });

  it('the name is prefix + date-time + one digit', () => {
    expect(temporaryGroupName('T', new Date(2026, 0, 2, 3, 4, 5), 7)).toBe('T202601020304057');
  });
});

describe('spec create/edit payloads, list, expiry, delete', () => {
  it('create by cluster numbers, unknown codes named, bh in scope', async () => {
    const made = await api<GroupAddAnswer>(t.app, 'groupAdd', futianDispatcher, {
      channel_name: 'Patrol',
      cate: '1',
      remark: 'r',
      device: ['8001', '8002'],
      bh: '440304000000',
    });
    expect(made).toMatchObject({ code: 200, data: { tg_name: 'Patrol', expires: null } });
    expect(
      await api(
        t.app,
        'groupAdd',
        futianDispatcher,
        { channel_name: '', cate: '0', device: ['8001', '9001'], bh: '440304000000' },
        'en-US',
      ),
    ).toMatchObject({
      code: 400,
      msg: 'Field device: No device in your scope has the cluster number(s) 9001.',
    });
    expect(
      await api(
        t.app,
        'groupAdd',
        futianDispatcher,
        { channel_name: '', cate: '0', device: ['8001'], bh: '440303000000' },
        'en-US',
      ),
    ).toMatchObject({ code: 403 });
    expect(
      await api(
        t.app,
        'groupAdd',
        futianDispatcher,
        { channel_name: '', cate: '1', device: ['8001'], bh: '440304000000' },
        'en-US',
      ),
    ).toMatchObject({
      code: 400,
      msg: 'Field channel_name: Please enter the group name.',
    });
    const edit = await api(t.app, 'groupEdit', futianDispatcher, {
      channel_id: made.data.groupid,
      channel_name: 'Patrol 2',
      cate: '1',
      remark: '',
      device: [a.id],
      bh: '440304000000',
    });
    expect(edit.code).toBe(200);
    const g = await api<TalkGroup>(t.app, 'groupGet', futianDispatcher, { channel_id: made.data.groupid });
    expect(g.data).toMatchObject({ tg_name: 'Patrol 2', preconfig: 1, total: 1, uids: [a.id], expires: null });
    const list = await api<TalkGroup[]>(t.app, 'groupList', futianDispatcher, {});
    expect(list.data[0]!.tgid).toBe(made.data.groupid);
    expect(list.data.every((x) => x.unit_id !== undefined)).toBe(true);
    expect(
      (await api<TalkGroup[]>(t.app, 'groupList', futianDispatcher, { keyword: 'patrol' })).data.map((x) => x.tgid),
    ).toEqual([made.data.groupid]);
  });

  it('external (jg_) groups cannot be edited; expired temporary groups disappear', async () => {
    const made = await api<GroupAddAnswer>(t.app, 'groupAdd', admin, {
      channel_name: '',
      cate: '0',
      device: ['8002'],
      bh: '440304000000',
    });
    await t.db.updateTable('talk_groups').set({ ext_tgid: 'jg_42' }).where('id', '=', made.data.groupid).execute();
    expect(
      await api(
        t.app,
        'groupEdit',
        admin,
        { channel_id: made.data.groupid, channel_name: 'x', cate: '0', device: [b.id], bh: '440304000000' },
        'en-US',
      ),
    ).toMatchObject({
      code: 403,
      msg: 'Groups of another system (starting with jg_) cannot be edited',
    });
    await t.db
      .updateTable('talk_groups')
      .set({ ext_tgid: '', expires: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', made.data.groupid)
      .execute();
    const list = await api<TalkGroup[]>(t.app, 'groupList', admin, {});
    expect(list.data.map((g) => g.tgid)).not.toContain(made.data.groupid);
    expect(
      await t.db.selectFrom('talk_groups').select('id').where('id', '=', made.data.groupid).execute(),
    ).toHaveLength(0);
    expect(
      await t.db
        .selectFrom('talk_group_members')
        .select('device_id')
        .where('group_id', '=', made.data.groupid)
        .execute(),
    ).toHaveLength(0);
    expect(await api(t.app, 'groupGet', admin, { channel_id: made.data.groupid }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'Group not found or expired',
    });
  });

  it('delete', async () => {
    const made = await api<GroupAddAnswer>(t.app, 'groupAdd', admin, {
      channel_name: '',
      cate: '0',
      device: ['8002'],
      bh: '440304000000',
    });
    expect(await api(t.app, 'groupDelete', futianDispatcher, { channel_id: made.data.groupid })).toMatchObject({
      code: 200,
    });
    expect(await api(t.app, 'groupDelete', futianDispatcher, { channel_id: made.data.groupid }, 'en-US')).toMatchObject(
      { code: 404 },
    );
  });
});
