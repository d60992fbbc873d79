import { CmdStatus, MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { type ConsoleClient } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../../test/helpers';

/** Groups: profiles, attachments, create / delete, enter / leave, force, members; stored and notified. */
let t: TestApp;
let url: string;
let admin: Session;
let desk: LoggedOn;
let viewer: LoggedOn;
let luohuDesk: LoggedOn;
let devA: CreatedDevice;
let devB: CreatedDevice;
let devC: CreatedDevice;
let devLuohu: CreatedDevice;
let camA: LoggedOn;
let camB: LoggedOn;
let fixedGroup: number;
const clients: ConsoleClient[] = [];
type Group = {
  tgid: number;
  tg_name: string;
  uids: number[];
  members: { uid: number; state: number; attachg: number }[];
};

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const editor = await createRole(t.db, 'group editor', [
    { ids: [MenuId.EMERGENCY], actions: ['view', 'edit', 'add'] },
  ]);
  const reader = await createRole(t.db, 'group reader', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const make = async (role: number, unit: string) => {
    const u = await createUser(t.db, { roleId: role, unitBh: unit });
    const l = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(l.client);
    return l;
  };
  desk = await make(editor, '440304000000');
  viewer = await make(reader, '440304000000');
  luohuDesk = await make(editor, '440303000000');
  const futian = await unitIdOf(t.db, '440304000000');
  devA = await addDevice(t.app, admin, futian, { jq_hostcode: '220001' });
  devB = await addDevice(t.app, admin, futian, { jq_hostcode: '220002' });
  devC = await addDevice(t.app, admin, futian, { jq_hostcode: '220003' });
  devLuohu = await addDevice(t.app, admin, await unitIdOf(t.db, '440303000000'), { jq_hostcode: '220004' });
  const fixed = await api<{ groupid: number }>(t.app, 'groupAdd', admin, {
    channel_name: '一中队',
    cate: '1',
    device: ['220001', '220002'],
    bh: '440304000000',
  });
  fixedGroup = fixed.data.groupid;
  camA = await logonTerminal(url, devA);
  camB = await logonTerminal(url, devB);
  clients.push(camA.client, camB.client);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('req_grp_profile', () => {
  it('lists the groups of the scope with members, states and attachments; a terminal its own', async () => {
    const all = await desk.client.request('req_grp_profile');
    const group = (all.groups as Group[]).find((g) => g.tgid === fixedGroup)!;
    expect(group).toMatchObject({ tg_name: '一中队', preconfig: 1, uids: [devA.id, devB.id].sort((a, b) => a - b) });
    expect(group.members.map((m) => m.state)).toEqual([7, 7]);
    expect(((await luohuDesk.client.request('req_grp_profile')).groups as Group[]).map((g) => g.tgid)).not.toContain(
      fixedGroup,
    );
    expect(await luohuDesk.client.request('req_grp_profile', { tgid: fixedGroup })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(((await camA.client.request('req_grp_profile')).groups as Group[]).map((g) => g.tgid)).toEqual([fixedGroup]);
  });
});

describe('enter and leave', () => {
  it('a terminal enters its group: stored, members and consoles notified; attach info follows', async () => {
    expect(await camA.client.request('req_enter_group', { tgid: fixedGroup, mute: 1 })).toMatchObject({
      cmd_status: 0,
      tgid: fixedGroup,
      uids: [devA.id],
    });
    expect(await camB.client.notice('notice_enter_group')).toMatchObject({
      tgid: fixedGroup,
      uids: [devA.id],
      ext_ids: ['220001'],
      force: 0,
    });
    expect(await viewer.client.notice('notice_group_attach_info')).toMatchObject({
      attach: [{ uid: devA.id, tgid: fixedGroup, speak: 0, hear: 1 }],
    });
    expect(await desk.client.request('req_group_attach_info', { tgid: fixedGroup })).toMatchObject({
      attach: [
        { uid: devA.id, tgid: fixedGroup },
        { uid: devB.id, tgid: 0 },
      ],
    });
    expect(await camA.client.request('req_leave_group', { tgid: fixedGroup })).toMatchObject({ uids: [devA.id] });
    await camB.client.notice('notice_leave_group', (m) => m.tgid === fixedGroup);
    expect(await camA.client.request('req_group_attach_info')).toMatchObject({ attach: [{ uid: devA.id, tgid: 0 }] });
  });

  it('a terminal cannot enter a group it is not a member of', async () => {
    const other = await logonTerminal(url, devC);
    clients.push(other.client);
    expect(await other.client.request('req_enter_group', { tgid: fixedGroup })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    const stored = await t.db.selectFrom('console_group_attach').select('uid').where('uid', '=', devC.id).execute();
    expect(stored).toEqual([]);
  });

  it('a console forces members in and out; non-members are refused', async () => {
    expect(await viewer.client.request('req_force_enter_group', { tgid: fixedGroup, uids: [devB.id] })).toMatchObject({
      cmd_status: CmdStatus.FORBIDDEN,
    });
    expect(await desk.client.request('req_force_enter_group', { tgid: fixedGroup, uids: [devC.id] })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: `不是群组 ${fixedGroup} 的成员：${devC.id}`,
    });
    expect(await desk.client.request('req_force_enter_group', { tgid: fixedGroup, extuids: ['220002'] })).toMatchObject(
      {
        cmd_status: 0,
        uids: [devB.id],
      },
    );
    expect(await camB.client.notice('notice_enter_group', (m) => m.force === 1)).toMatchObject({ operator: desk.uid });
    expect(await desk.client.request('req_force_leave_group', { tgid: fixedGroup, uids: [devB.id] })).toMatchObject({
      uids: [devB.id],
    });
    await camB.client.notice('notice_leave_group', (m) => m.force === 1);
  });
});

describe('create, members, delete', () => {
  let temp: number;

  it('creates a temporary group of terminals of the scope and notifies its members', async () => {
    expect(await desk.client.request('req_create_grp', { name: '', uids: [devA.id, devLuohu.id] })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    const rsp = await desk.client.request('req_create_grp', { name: '', uids: [devA.id], extuids: ['220003'] });
    expect(rsp).toMatchObject({ cmd_status: 0 });
    const group = rsp.group as Group & { preconfig: number; expires: string };
    temp = group.tgid;
    expect(group).toMatchObject({ preconfig: 0, uids: [devA.id, devC.id] });
    expect(group.tg_name).toMatch(/^临时组\d{15}$/);
    expect(Date.parse(group.expires) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const isTemp = (m: Record<string, unknown>) => (m.group as { tgid: number }).tgid === temp;
    expect(await camA.client.notice('notice_create_grp', isTemp)).toMatchObject({ group: { tgid: temp } });
    expect(await viewer.client.notice('notice_create_grp', isTemp)).toMatchObject({ group: { tgid: temp } });
    expect(await viewer.client.request('req_create_grp', { uids: [devA.id] })).toMatchObject({
      cmd_status: CmdStatus.FORBIDDEN,
    });
  });

  it('adds and removes members, stored and notified', async () => {
    expect(await desk.client.request('req_add_grp_mem', { tgid: temp, uids: [devB.id, devA.id] })).toMatchObject({
      uids: [devB.id],
    });
    expect(await camB.client.notice('notice_add_grp_mem')).toMatchObject({
      tgid: temp,
      uids: [devB.id],
      ext_ids: ['220002'],
    });
    expect(await desk.client.request('req_rem_grp_mem', { tgid: temp, uids: [devA.id] })).toMatchObject({
      uids: [devA.id],
    });
    expect(await camA.client.notice('notice_rem_grp_mem')).toMatchObject({ tgid: temp, uids: [devA.id] });
    const members = await t.db
      .selectFrom('talk_group_members')
      .select('device_id')
      .where('group_id', '=', temp)
      .orderBy('device_id')
      .execute();
    expect(members.map((m) => m.device_id)).toEqual([devB.id, devC.id].sort((a, b) => a - b));
    expect(await desk.client.request('req_add_grp_mem', { tgid: temp, uids: [devLuohu.id] })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
  });

  it('deletes a group and notifies; external groups are refused', async () => {
    await t.db.updateTable('talk_groups').set({ ext_tgid: 'jg_900' }).where('id', '=', fixedGroup).execute();
    expect(await desk.client.request('req_delete_grp', { tgid: fixedGroup })).toMatchObject({
      cmd_status: CmdStatus.FORBIDDEN,
      error_reason: '外部群组（jg_900）不能修改',
    });
    expect(await desk.client.request('req_delete_grp', { tgid: temp })).toMatchObject({ cmd_status: 0, tgid: temp });
    expect(await camB.client.notice('notice_delete_grp')).toMatchObject({ tgid: temp });
    expect(await t.db.selectFrom('talk_groups').select('id').where('id', '=', temp).executeTakeFirst()).toBeUndefined();
  });
});

describe('group member status', () => {
  it('tells the other members when a member logs on or off', async () => {
    const c = await logonTerminal(url, devB, { clientid: 'again' });
    clients.push(c.client);
    await camA.client.notice(
      'notice_grp_mem_status',
      (m) => m.uid === devB.id && m.state === 7 && m.tgid === fixedGroup,
    );
  });
});

describe('groups changed by administrators (HTTP)', () => {
  it('tells the consoles of the unit and the members at once: created, updated, deleted; other units hear nothing', async () => {
    const created = await api<{ groupid: number }>(t.app, 'groupAdd', admin, {
      channel_name: '夜巡组',
      cate: '1',
      device: ['220003'],
      bh: '440304000000',
    });
    expect(created.code).toBe(200);
    const tgid = created.data.groupid;
    const byTgid = (m: Record<string, unknown>) => (m.group as { tgid: number } | undefined)?.tgid === tgid;
    expect(await desk.client.notice('notice_create_grp', byTgid)).toMatchObject({
      group: { tgid, tg_name: '夜巡组', uids: [devC.id] },
    });
    expect(await viewer.client.notice('notice_create_grp', byTgid)).toBeTruthy();

    const edited = await api(t.app, 'groupEdit', admin, {
      channel_id: tgid,
      channel_name: '夜巡二组',
      cate: '1',
      device: [devB.id, devC.id],
      bh: '440304000000',
    });
    expect(edited.code).toBe(200);
    expect(await desk.client.notice('notice_update_grp', byTgid)).toMatchObject({
      group: { tgid, tg_name: '夜巡二组', uids: expect.arrayContaining([devB.id, devC.id]) },
    });
    expect(await viewer.client.notice('notice_update_grp', byTgid)).toBeTruthy();

    expect((await api(t.app, 'groupDelete', admin, { channel_id: tgid })).code).toBe(200);
    expect(await desk.client.notice('notice_delete_grp', (m) => (m as { tgid?: number }).tgid === tgid)).toMatchObject({
      tgid,
      uids: expect.arrayContaining([devB.id, devC.id]),
    });

    // the Luohu console, which does not see the group, was told nothing of it
    await luohuDesk.client.request('heartbeat');
    for (const code of ['notice_create_grp', 'notice_update_grp'] as const)
      expect(luohuDesk.client.notices(code).filter(byTgid)).toEqual([]);
    expect(luohuDesk.client.notices('notice_delete_grp').filter((m) => (m as { tgid?: number }).tgid === tgid)).toEqual(
      [],
    );
  });
});
