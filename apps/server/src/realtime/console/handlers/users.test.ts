import { CmdStatus, CONSOLE_UID_BASE, MenuId, UserState } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../../test/helpers';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../../test/devices';

/** Users family: profiles, states and their notices, parameters, administered users; scope by unit. */
let t: TestApp;
let url: string;
let futianDesk: LoggedOn;
let luohuDesk: LoggedOn;
let viewer: LoggedOn;
let inFutian: CreatedDevice;
let inLuohu: CreatedDevice;
let noCluster: CreatedDevice;
const clients: ConsoleClient[] = [];

async function desk(role: number, unitBh: string): Promise<LoggedOn> {
  const u = await createUser(t.db, { roleId: role, unitBh, hostname: `desk ${unitBh}` });
  const s: Session = await login(t.app, u.username, u.password);
  const l = await logonConsole(t.app, url, s);
  clients.push(l.client);
  return l;
}

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const editor = await createRole(t.db, 'desk edit', [{ ids: [MenuId.EMERGENCY], actions: ['view', 'edit'] }]);
  const reader = await createRole(t.db, 'desk view', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  futianDesk = await desk(editor, '440304000000');
  luohuDesk = await desk(editor, '440303000000');
  viewer = await desk(reader, '440304000000');
  inFutian = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), { jq_hostcode: '660001' });
  inLuohu = await addDevice(t.app, admin, await unitIdOf(t.db, '440303000000'), { jq_hostcode: '660002' });
  noCluster = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'));
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('req_user_profile', () => {
  it("answers the caller's own profile without targets (the SDK's login_user)", async () => {
    const rsp = await futianDesk.client.request('req_user_profile');
    expect(rsp).toMatchObject({ cmd_status: 0, unknown: [] });
    expect(rsp.user_info).toEqual([
      expect.objectContaining({
        uid: futianDesk.uid,
        user_type: 1,
        display_name: 'desk 440304000000',
        dwbh: '440304000000',
        state: UserState.ONLINE,
        paraminfo: {},
        admin_uids: [],
      }),
    ]);
  });

  it('answers terminals of the scope by uid or ext id and names the ones it may not see', async () => {
    const rsp = await futianDesk.client.request('req_user_profile', {
      targets: [inFutian.id, inLuohu.id, noCluster.id],
      exttargets: ['660001', 'nope'],
    });
    expect(rsp.user_info).toEqual([
      expect.objectContaining({
        uid: inFutian.id,
        ext_id: '660001',
        user_type: 0,
        hostbody: inFutian.hostbody,
        state: 0,
      }),
    ]);
    expect(rsp.unknown).toEqual([inLuohu.id, noCluster.id, 'nope']);
    const other = await luohuDesk.client.request('req_user_profile', { exttargets: ['660002'], user_type: 0 });
    expect((other.user_info as { uid: number }[]).map((u) => u.uid)).toEqual([inLuohu.id]);
  });
});

describe('user state', () => {
  it('notifies consoles of the unit when a terminal logs on and off (7 / 0), not the other units', async () => {
    const cam = await logonTerminal(url, inFutian);
    const online = await futianDesk.client.notice('notice_user_state', (m) => m.uid === inFutian.id && m.state === 7);
    expect(online).toMatchObject({ ext_id: '660001', user_type: 0, unit_id: expect.any(Number) });
    cam.client.close();
    await futianDesk.client.notice('notice_user_state', (m) => m.uid === inFutian.id && m.state === 0);
    expect(luohuDesk.client.notices('notice_user_state').filter((m) => m.uid === inFutian.id)).toEqual([]);
  });

  it('req_user_state answers the states and sends each as a notice; no names: every terminal of the scope', async () => {
    const cam = await logonTerminal(url, inLuohu);
    clients.push(cam.client);
    const rsp = await luohuDesk.client.request('req_user_state');
    expect(rsp).toMatchObject({ msg_code: 'rsp_user_state', cmd_status: 0 });
    expect(rsp.user_state).toEqual([expect.objectContaining({ uid: inLuohu.id, state: 7 })]);
    await luohuDesk.client.notice('notice_user_state', (m) => m.uid === inLuohu.id && m.state === 7);
    const named = await futianDesk.client.request('req_user_state', { uids: [futianDesk.uid, inLuohu.id] });
    expect(named.user_state).toEqual([expect.objectContaining({ uid: futianDesk.uid, state: 7, user_type: 1 })]);
  });
});

describe('req_params_set', () => {
  it('stores parameters on terminals and notifies them', async () => {
    const cam = await logonTerminal(url, inFutian);
    clients.push(cam.client);
    const rsp = await futianDesk.client.request('req_params_set', {
      targets: [inFutian.id],
      paraminfo: { gps_interval: 5, record: true },
    });
    expect(rsp).toMatchObject({ cmd_status: 0, targets: [inFutian.id], paraminfo: { gps_interval: 5, record: true } });
    expect(await cam.client.notice('notice_params_set')).toMatchObject({
      targets: [inFutian.id],
      paraminfo: { gps_interval: 5 },
    });
    await futianDesk.client.request('req_params_set', { exttargets: ['660001'], paraminfo: { record: false } });
    const profile = await viewer.client.request('req_user_profile', { targets: [inFutian.id] });
    expect(profile.user_info).toEqual([expect.objectContaining({ paraminfo: { gps_interval: 5, record: false } })]);
    await viewer.client.notice(
      'notice_user_profile',
      (m) => (m.user_info as { paraminfo: { record?: boolean } }[])[0]?.paraminfo.record === false,
    );
  });

  it('refuses targets out of scope (nothing stored), bad parameters, and roles without edit', async () => {
    const out = await futianDesk.client.request('req_params_set', {
      targets: [inFutian.id, inLuohu.id],
      paraminfo: { a: 1 },
    });
    expect(out).toMatchObject({ cmd_status: CmdStatus.NOT_FOUND, error_reason: `用户不存在：${inLuohu.id}` });
    const stored = await t.db
      .selectFrom('console_params')
      .select('paraminfo')
      .where('uid', '=', inFutian.id)
      .executeTakeFirst();
    expect(JSON.parse(stored!.paraminfo)).not.toHaveProperty('a');
    expect(
      await futianDesk.client.request('req_params_set', { targets: [inFutian.id], paraminfo: { a: { deep: 1 } } }),
    ).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
    });
    expect(
      await viewer.client.request('req_params_set', { targets: [inFutian.id], paraminfo: { a: 1 } }),
    ).toMatchObject({
      cmd_status: CmdStatus.FORBIDDEN,
      error_reason: '没有权限：需要菜单 10101 之一的“编辑”权限',
    });
  });

  it('is for consoles only', async () => {
    const cam = await logonTerminal(url, inLuohu);
    clients.push(cam.client);
    expect(await cam.client.request('req_params_set', { targets: [inLuohu.id], paraminfo: { a: 1 } })).toMatchObject({
      cmd_status: CmdStatus.WRONG_CLIENT,
    });
  });
});

describe('req_add_admin_users', () => {
  it('adds terminals of the scope to the console and lists them in its profile', async () => {
    const rsp = await futianDesk.client.request('req_add_admin_users', { uids: [inFutian.id] });
    expect(rsp).toMatchObject({ cmd_status: 0, admin_uids: [inFutian.id] });
    expect(await futianDesk.client.request('req_add_admin_users', { extuids: ['660001'] })).toMatchObject({
      admin_uids: [inFutian.id],
    });
    const self = await futianDesk.client.request('req_user_profile');
    expect(self.user_info).toEqual([expect.objectContaining({ admin_uids: [inFutian.id] })]);
    expect(await futianDesk.client.request('req_add_admin_users', { uids: [luohuDesk.uid - 0] })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(await futianDesk.client.request('req_add_admin_users', { uids: [viewer.uid] })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
    });
    expect(viewer.uid).toBeGreaterThan(CONSOLE_UID_BASE);
  });
});
