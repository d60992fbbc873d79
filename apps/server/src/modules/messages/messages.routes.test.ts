import {
  CONSOLE_UID_BASE,
  MenuId,
  type Page,
  type PushMessage,
  type PushRecipient,
  type PushSend,
} from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../../test/api';
import type { ConsoleClient } from '../../../test/console-client';
import { consoleUrl, logonTerminal } from '../../../test/console-fixtures';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../test/devices';
import { createRole, createTestApp, createUser, DEMO, login, type Session, type TestApp } from '../../../test/helpers';

/**
 * Message push (gismessage, gismessagesend, gismessagesendlist): messages of the caller's units,
 * sent to terminals of his units through the console service, per-terminal delivered and read
 * states; refusals store nothing.
 */
const FUTIAN = '440304000000';
const LUOHU = '440303000000';

let t: TestApp;
let url: string;
let admin: Session;
let dispatcher: Session;
let dispatcherId: number;
let futianDesk: Session;
let reader: Session;
let outsider: Session;
let camA: CreatedDevice;
let camB: CreatedDevice;
let camNoCode: CreatedDevice;
let camLuohu: CreatedDevice;
const clients: ConsoleClient[] = [];

const counts = async () => ({
  messages: (await t.db.selectFrom('push_messages').select('id').execute()).length,
  sends: (await t.db.selectFrom('push_sends').select('id').execute()).length,
  rows: (await t.db.selectFrom('push_send_recipients').select('uid').execute()).length,
  ims: (await t.db.selectFrom('console_im').select('id').execute()).length,
});

async function addMessage(who: Session, title: string, content = `${title} 的内容`): Promise<PushMessage> {
  const env = await api<PushMessage>(t.app, 'messAdd', who, { title, content });
  expect(env.code, env.msg).toBe(200);
  return env.data;
}

async function recipients(who: Session, sendid: number): Promise<PushRecipient[]> {
  const env = await api<Page<PushRecipient>>(t.app, 'messRecipients', who, { sendid });
  expect(env.code, env.msg).toBe(200);
  return env.data.list;
}

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  dispatcherId = (
    await t.db.selectFrom('users').select('id').where('username', '=', DEMO.dispatcher.username).executeTakeFirstOrThrow()
  ).id;
  const pusher = await createRole(t.db, 'message pusher', [{ ids: [MenuId.MSG_MANAGE], actions: ['view', 'add', 'edit'] }]);
  const desk = await createUser(t.db, { roleId: pusher, unitBh: FUTIAN, hostname: '福田值班台' });
  futianDesk = await login(t.app, desk.username, desk.password);
  const viewOnly = await createRole(t.db, 'message reader', [{ ids: [MenuId.MSG_MANAGE], actions: ['view'] }]);
  const r = await createUser(t.db, { roleId: viewOnly, unitBh: FUTIAN });
  reader = await login(t.app, r.username, r.password);
  const other = await createRole(t.db, 'emergency only', [{ ids: [MenuId.EMERGENCY], actions: ['view', 'add', 'edit'] }]);
  const o = await createUser(t.db, { roleId: other, unitBh: FUTIAN });
  outsider = await login(t.app, o.username, o.password);
  const futian = await unitIdOf(t.db, FUTIAN);
  camA = await addDevice(t.app, admin, futian, { jq_hostcode: '550001', hostname: '警员甲' });
  camB = await addDevice(t.app, admin, futian, { jq_hostcode: '550002', hostname: '警员乙' });
  camNoCode = await addDevice(t.app, admin, futian, { hostname: '无集群号' });
  camLuohu = await addDevice(t.app, admin, await unitIdOf(t.db, LUOHU), { jq_hostcode: '550003', hostname: '罗湖警员' });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('every message push endpoint', () => {
  const input = { id: 1, ids: [1], title: 't', content: 'c', messid: 1, device: [1], sendid: 1 };
  const all = [
    'messList',
    'messAdd',
    'messEdit',
    'messSaveEdit',
    'messDelete',
    'messSendList',
    'messSend',
    'messRecipients',
  ] as const;

  it.each(all)('%s refuses a caller without a session', async (name) => {
    expect(await api(t.app, name, null, input)).toMatchObject({ code: 401 });
  });

  it.each(all)('%s needs its right on menu 10105', async (name) => {
    const env = await api(t.app, name, outsider, input);
    expect(env.code).toBe(403);
    expect(env.msg).toContain(String(MenuId.MSG_MANAGE));
  });

  it.each([
    ['messAdd', 'add'],
    ['messEdit', 'edit'],
    ['messSaveEdit', 'edit'],
    ['messDelete', 'edit'],
    ['messSend', 'add'],
  ] as const)('%s needs %s (view is not enough)', async (name, action) => {
    const before = await counts();
    const env = await api(t.app, name, reader, input);
    expect(env).toMatchObject({
      code: 403,
      msg: `没有权限：需要菜单 ${MenuId.MSG_MANAGE} 的“${action === 'add' ? '新增' : '编辑'}”权限`,
    });
    expect(await counts()).toEqual(before);
  });
});

describe('messages', () => {
  it('adds, lists, reads for editing, saves and belongs to the author unit', async () => {
    const added = await api<PushMessage>(t.app, 'messAdd', futianDesk, { title: ' 早班提醒 ', content: '八点前到岗' });
    expect(added).toMatchObject({ code: 200, msg: '新增成功' });
    expect(added.data).toMatchObject({
      title: '早班提醒',
      content: '八点前到岗',
      author: '福田值班台',
      unit_id: await unitIdOf(t.db, FUTIAN),
      send_count: 0,
      last_send: null,
    });
    const list = await api<Page<PushMessage>>(t.app, 'messList', reader, { keyword: '早班' });
    expect(list.data.list.map((m) => m.id)).toEqual([added.data.id]);
    expect(list.data.list[0]!.unitname).toBeTruthy();
    expect((await api<PushMessage>(t.app, 'messEdit', futianDesk, { id: added.data.id })).data.title).toBe('早班提醒');
    const saved = await api<PushMessage>(t.app, 'messSaveEdit', futianDesk, {
      id: added.data.id,
      title: '早班提醒（改）',
      content: '七点半到岗',
    });
    expect(saved).toMatchObject({ code: 200, msg: '修改成功', data: { title: '早班提醒（改）', content: '七点半到岗' } });
  });

  it('names the field of bad input and stores nothing', async () => {
    const before = await counts();
    expect(await api(t.app, 'messAdd', futianDesk, { content: 'x' })).toMatchObject({
      code: 400,
      msg: '字段 title：不能为空',
    });
    expect(await api(t.app, 'messAdd', futianDesk, { title: '   ', content: 'x' })).toMatchObject({
      code: 400,
      msg: '字段 title：不能为空',
    });
    expect(await api(t.app, 'messAdd', futianDesk, { title: 'x'.repeat(51), content: 'x' }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Title is too long.',
    });
    expect(await api(t.app, 'messAdd', futianDesk, { title: 'x', content: 'y'.repeat(1001) })).toMatchObject({
      code: 400,
      msg: '字段 content：长度超出限制',
    });
    expect(await api(t.app, 'messAdd', futianDesk, { title: 'x', content: 5 })).toMatchObject({
      code: 400,
      msg: expect.stringContaining('字段 content'),
    });
    const own = await addMessage(futianDesk, '不改');
    const afterAdd = await counts();
    expect(await api(t.app, 'messSaveEdit', futianDesk, { id: own.id, title: '', content: 'z' })).toMatchObject({
      code: 400,
      msg: '字段 title：不能为空',
    });
    expect((await api<PushMessage>(t.app, 'messEdit', futianDesk, { id: own.id })).data.title).toBe('不改');
    expect(await api(t.app, 'messEdit', futianDesk, { id: 'abc' })).toMatchObject({ code: 400, msg: expect.stringContaining('字段 id') });
    expect(await api(t.app, 'messEdit', futianDesk, { id: 999999 }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'Message not found',
    });
    expect(await counts()).toEqual({ ...before, messages: afterAdd.messages });
  });

  it('keeps messages of other units out of sight and out of reach', async () => {
    const cityMessage = await addMessage(dispatcher, '全市通告');
    const futianList = await api<Page<PushMessage>>(t.app, 'messList', futianDesk, { limit: 100 });
    expect(futianList.data.list.map((m) => m.id)).not.toContain(cityMessage.id);
    const cityList = await api<Page<PushMessage>>(t.app, 'messList', dispatcher, { limit: 100 });
    expect(cityList.data.list.map((m) => m.id)).toContain(cityMessage.id);
    for (const [name, body] of [
      ['messEdit', { id: cityMessage.id }],
      ['messSaveEdit', { id: cityMessage.id, title: 'x', content: 'y' }],
      ['messDelete', { ids: [cityMessage.id] }],
      ['messSend', { messid: cityMessage.id, device: [camA.id] }],
    ] as const) {
      const before = await counts();
      expect(await api(t.app, name, futianDesk, body)).toMatchObject({ code: 403, msg: '无权访问本单位及下级单位以外的数据' });
      expect(await counts()).toEqual(before);
    }
    expect((await api<PushMessage>(t.app, 'messEdit', dispatcher, { id: cityMessage.id })).data.title).toBe('全市通告');
  });

  it('deletes only when every id names a message in scope, with its sends', async () => {
    const one = await addMessage(futianDesk, '删除一');
    const two = await addMessage(futianDesk, '删除二');
    const sent = await api<PushSend>(t.app, 'messSend', futianDesk, { messid: one.id, device: [camB.id] });
    expect(sent.code, sent.msg).toBe(200);
    const before = await counts();
    expect(await api(t.app, 'messDelete', futianDesk, { ids: [one.id, 999998] })).toMatchObject({
      code: 400,
      msg: '字段 ids：消息 999998 不存在',
    });
    expect(await api(t.app, 'messDelete', futianDesk, { ids: [] })).toMatchObject({ code: 400, msg: '字段 ids：不能为空' });
    expect(await counts()).toEqual(before);
    expect(await api(t.app, 'messDelete', futianDesk, { ids: [one.id, two.id] })).toMatchObject({
      code: 200,
      msg: '删除成功',
    });
    const after = await counts();
    expect(after).toEqual({ ...before, messages: before.messages - 2, sends: before.sends - 1, rows: before.rows - 1 });
    expect(await api(t.app, 'messRecipients', futianDesk, { sendid: sent.data.id })).toMatchObject({ code: 404 });
  });
});

describe('sending', () => {
  it('delivers to a terminal logged on at once, as an IM from the sender, then shows it read when listed', async () => {
    const cam = await logonTerminal(url, camA);
    clients.push(cam.client);
    const message = await addMessage(dispatcher, '集合', '十分钟后在东门集合');
    const sent = await api<PushSend>(t.app, 'messSend', dispatcher, { messid: message.id, device: [camA.id] });
    expect(sent).toMatchObject({ code: 200, msg: '消息已发送' });
    expect(sent.data).toMatchObject({ messid: message.id, title: '集合', sender: '张调度', total: 1 });
    const notice = await cam.client.notice('notice_im', (m) => (m.im as { content: string }).content.includes('东门'));
    expect(notice.im).toMatchObject({
      from: CONSOLE_UID_BASE + dispatcherId,
      extfrom: 'itrunk_dispatcher',
      from_name: '张调度',
      target: camA.id,
      exttarget: '550001',
      target_type: 0,
      im_type: 1,
      content: '集合\n十分钟后在东门集合',
    });
    await vi.waitFor(
      async () => {
        const [row] = await recipients(dispatcher, sent.data.id);
        expect(row).toMatchObject({ uid: camA.id, hostname: '警员甲', jq_hostcode: '550001', online: 1, read: null });
        expect(row!.delivered).toMatch(/^\d{4}-/);
      },
      { timeout: 10_000, interval: 50 },
    );
    // the terminal lists its conversation with the sender: the message counts as read
    const listed = await cam.client.request('req_im_list', { target: CONSOLE_UID_BASE + dispatcherId });
    expect(listed.cmd_status).toBe(0);
    const [row] = await recipients(dispatcher, sent.data.id);
    expect(row!.read).toMatch(/^\d{4}-/);
    const sends = await api<Page<PushSend>>(t.app, 'messSendList', dispatcher, { messid: message.id });
    expect(sends.data.list).toEqual([expect.objectContaining({ id: sent.data.id, total: 1, delivered: 1, read: 1 })]);
    expect((await api<PushMessage>(t.app, 'messEdit', dispatcher, { id: message.id })).data).toMatchObject({
      send_count: 1,
      last_send: sends.data.list[0]!.send_time,
    });
  });

  it('keeps it for a terminal that is not logged on and delivers it at its logon; an edit does not change what was sent', async () => {
    const message = await addMessage(futianDesk, '夜巡', '夜巡路线调整');
    const sent = await api<PushSend>(t.app, 'messSend', futianDesk, { messid: message.id, device: [camB.id, camB.id] });
    expect(sent.code, sent.msg).toBe(200);
    expect(sent.data.total).toBe(1);
    expect(await recipients(futianDesk, sent.data.id)).toEqual([
      expect.objectContaining({ uid: camB.id, delivered: null, read: null, online: 0 }),
    ]);
    await api(t.app, 'messSaveEdit', futianDesk, { id: message.id, title: '夜巡（新）', content: '另一条路线' });
    const cam = await logonTerminal(url, camB);
    clients.push(cam.client);
    const notice = await cam.client.notice('notice_im', (m) => (m.im as { content: string }).content.includes('夜巡'));
    expect((notice.im as { content: string }).content).toBe('夜巡\n夜巡路线调整');
    await vi.waitFor(
      async () => expect((await recipients(futianDesk, sent.data.id))[0]!.delivered).toMatch(/^\d{4}-/),
      { timeout: 10_000, interval: 50 },
    );
    const sends = await api<Page<PushSend>>(t.app, 'messSendList', futianDesk, { messid: message.id });
    expect(sends.data.list[0]).toMatchObject({ title: '夜巡', content: '夜巡路线调整', delivered: 1, read: 0 });
  });

  it('refuses bad recipients naming them and sends nothing', async () => {
    const message = await addMessage(futianDesk, '不会发出');
    const before = await counts();
    const refusals: [Record<string, unknown>, { code: number; msg: string }][] = [
      [{ messid: message.id, device: [] }, { code: 400, msg: '字段 device：不能为空' }],
      [{ messid: message.id }, { code: 400, msg: '字段 device：不能为空' }],
      [{ messid: message.id, device: ['x'] }, { code: 400, msg: expect.stringContaining('字段 device.0') as unknown as string }],
      [{ messid: message.id, device: [camA.id, 999997] }, { code: 400, msg: '字段 device：设备 999997 不存在' }],
      [
        { messid: message.id, device: [camA.id, camNoCode.id] },
        { code: 400, msg: expect.stringContaining('无集群号') as unknown as string },
      ],
      [{ messid: message.id, device: [camA.id, camLuohu.id] }, { code: 403, msg: '无权访问本单位及下级单位以外的数据' }],
      [{ messid: 999996, device: [camA.id] }, { code: 404, msg: '消息不存在' }],
      [{ messid: message.id, device: Array.from({ length: 501 }, (_, i) => i + 1) }, { code: 400, msg: '字段 device：长度超出限制' }],
    ];
    for (const [body, expected] of refusals) expect(await api(t.app, 'messSend', futianDesk, body)).toMatchObject(expected);
    expect(await counts()).toEqual(before);
  });

  it('shows sends and their terminals only within the unit scope', async () => {
    const message = await addMessage(dispatcher, '跨区');
    const sent = await api<PushSend>(t.app, 'messSend', dispatcher, { messid: message.id, device: [camA.id, camLuohu.id] });
    expect(sent.code, sent.msg).toBe(200);
    expect((await recipients(dispatcher, sent.data.id)).map((r) => r.uid)).toEqual([camA.id, camLuohu.id]);
    // a send of the city unit is outside a Futian desk's units
    expect(await api(t.app, 'messRecipients', futianDesk, { sendid: sent.data.id })).toMatchObject({
      code: 403,
      msg: '无权访问本单位及下级单位以外的数据',
    });
    const futianSends = await api<Page<PushSend>>(t.app, 'messSendList', futianDesk, { limit: 100 });
    expect(futianSends.data.list.map((s) => s.id)).not.toContain(sent.data.id);
    expect(await api(t.app, 'messRecipients', dispatcher, { sendid: 'x' })).toMatchObject({
      code: 400,
      msg: expect.stringContaining('字段 sendid'),
    });
    expect(await api(t.app, 'messRecipients', dispatcher, { sendid: 999995 }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'Send record not found',
    });
  });
});
