import { CmdStatus, GFILE_UPLOAD_PATH, ImType, MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { ConsoleClient } from '../../../../test/console-client';
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

/** Instant messages: stored, delivered live or at the next logon, exactly once; files by chunks. */
let t: TestApp;
let url: string;
let admin: Session;
let desk: LoggedOn;
let otherDesk: LoggedOn;
let camA: CreatedDevice;
let camB: CreatedDevice;
let camLuohu: CreatedDevice;
const clients: ConsoleClient[] = [];
const count = async () => (await t.db.selectFrom('console_im').select('id').execute()).length;

async function upload(who: LoggedOn, query: Record<string, string | number>, bytes: Buffer) {
  const q = new URLSearchParams({
    token: who.token,
    uid: String(who.uid),
    ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `${GFILE_UPLOAD_PATH}?${q.toString()}`,
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const role = await createRole(t.db, 'im desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const u = await createUser(t.db, { roleId: role, unitBh: '440304000000', hostname: 'Desk Futian' });
  desk = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
  const v = await createUser(t.db, { roleId: role, unitBh: '440303000000' });
  otherDesk = await logonConsole(t.app, url, await login(t.app, v.username, v.password));
  clients.push(desk.client, otherDesk.client);
  const futian = await unitIdOf(t.db, '440304000000');
  camA = await addDevice(t.app, admin, futian, { jq_hostcode: '440001' });
  camB = await addDevice(t.app, admin, futian, { jq_hostcode: '440002' });
  camLuohu = await addDevice(t.app, admin, await unitIdOf(t.db, '440303000000'), { jq_hostcode: '440003' });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('req_send_im: text', () => {
  it('delivers to a recipient that is logged on and answers the stored message', async () => {
    const cam = await logonTerminal(url, camA);
    clients.push(cam.client);
    const rsp = await desk.client.request('req_send_im', {
      target: camA.id,
      im_type: ImType.TEXT,
      content: '到岗请回复',
      time: '12:00',
    });
    expect(rsp).toMatchObject({ msg_code: 'rsp_send_im', cmd_status: 0 });
    expect(rsp.im).toMatchObject({
      from: desk.uid,
      from_name: 'Desk Futian',
      target: camA.id,
      exttarget: '440001',
      content: '到岗请回复',
    });
    const notice = await cam.client.notice('notice_im');
    expect(notice.im).toEqual(rsp.im);
    const row = await t.db
      .selectFrom('console_im_recipients')
      .selectAll()
      .where('uid', '=', camA.id)
      .executeTakeFirstOrThrow();
    expect(row.delivered).not.toBe('');
  });

  it('keeps messages for a recipient that is not logged on and delivers them in order, once, at its logon', async () => {
    await desk.client.request('req_send_im', { exttarget: '440002', im_type: ImType.TEXT, content: 'first' });
    await desk.client.request('req_send_im', { exttarget: '440002', im_type: ImType.TEXT, content: 'second' });
    const cam = await logonTerminal(url, camB, { clientid: 'b' });
    clients.push(cam.client);
    await cam.client.notice('notice_im', (m) => (m.im as { content: string }).content === 'second');
    expect(cam.client.notices('notice_im').map((m) => (m.im as { content: string }).content)).toEqual([
      'first',
      'second',
    ]);
    cam.client.close();
    await cam.client.waitClose();
    const again = await ConsoleClient.open(url);
    clients.push(again);
    expect(await again.request('heartbeat', { clientid: 'b', token: cam.token })).toMatchObject({ logged_on: 1 });
    await again.request('heartbeat');
    expect(again.notices('notice_im')).toEqual([]);
  });

  it("lets a terminal answer the consoles that see it, not others'", async () => {
    const cam = await logonTerminal(url, camA, { clientid: 'a2' });
    clients.push(cam.client);
    expect(
      await cam.client.request('req_send_im', { target: desk.uid, im_type: ImType.TEXT, content: '收到' }),
    ).toMatchObject({ cmd_status: 0 });
    expect(await desk.client.notice('notice_im', (m) => (m.im as { from: number }).from === camA.id)).toMatchObject({
      im: { content: '收到', extfrom: '440001' },
    });
    const before = await count();
    expect(
      await cam.client.request('req_send_im', { target: otherDesk.uid, im_type: ImType.TEXT, content: 'x' }),
    ).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(
      await desk.client.request('req_send_im', { target: camLuohu.id, im_type: ImType.TEXT, content: 'x' }),
    ).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(
      await desk.client.request('req_send_im', { target: camA.id, im_type: ImType.TEXT, content: '   ' }),
    ).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: '字段 content：不能为空',
    });
    expect(await count()).toBe(before);
  });

  it('sends to a group: its members', async () => {
    const group = await api<{ groupid: number }>(t.app, 'groupAdd', admin, {
      channel_name: '巡逻一组',
      cate: '1',
      device: ['440001', '440002'],
      bh: '440304000000',
    });
    expect(group.code).toBe(200);
    const a = await logonTerminal(url, camA, { clientid: 'a3' });
    clients.push(a.client);
    const rsp = await desk.client.request('req_send_im', {
      target: group.data.groupid,
      target_type: 1,
      im_type: ImType.TEXT,
      content: '集合',
    });
    expect(rsp).toMatchObject({ cmd_status: 0, im: { target_type: 1, target: group.data.groupid } });
    expect(await a.client.notice('notice_im', (m) => (m.im as { content: string }).content === '集合')).toBeTruthy();
    const recipients = await t.db
      .selectFrom('console_im_recipients')
      .select('uid')
      .where('im_id', '=', (rsp.im as { msg_id: number }).msg_id)
      .execute();
    expect(recipients.map((r) => r.uid).sort()).toEqual([camA.id, camB.id].sort());
    expect(
      await otherDesk.client.request('req_send_im', {
        target: group.data.groupid,
        target_type: 1,
        im_type: 1,
        content: 'x',
      }),
    ).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
  });
});

describe('files', () => {
  it('uploads in chunks with resume, completes, sends an image and lets the recipient download it', async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256));
    const fid = 'img-0000001';
    const first = await upload(
      desk,
      { fid, offset: 0, size: bytes.length, filename: 'scene.png', im_type: ImType.IMAGE },
      bytes.subarray(0, 1000),
    );
    expect(first).toEqual({ status: 200, body: { fid, received: 1000, size: 3000, cmd_status: 0, error_reason: '' } });
    const progress = await t.app.inject({
      method: 'GET',
      url: `${GFILE_UPLOAD_PATH}?token=${desk.token}&uid=${desk.uid}&fid=${fid}`,
    });
    expect(progress.json()).toMatchObject({ received: 1000, size: 3000 });
    expect(await upload(desk, { fid, offset: 500 }, bytes.subarray(500, 1000))).toMatchObject({
      status: 409,
      body: { cmd_status: CmdStatus.CONFLICT, error_reason: '上传位置不正确：应为 1000' },
    });
    expect(await desk.client.request('req_send_file_done', { fid })).toMatchObject({
      cmd_status: CmdStatus.CONFLICT,
      error_reason: '文件尚未上传完成：已收到 1000 / 3000 字节',
    });
    expect(await upload(desk, { fid, offset: 1000 }, bytes.subarray(1000))).toMatchObject({
      status: 200,
      body: { received: 3000 },
    });
    const done = await desk.client.request('req_send_file_done', { fid });
    expect(done).toMatchObject({
      cmd_status: 0,
      fid,
      filename: 'scene.png',
      size: 3000,
      im_type: ImType.IMAGE,
      ourl: `/gfile/file/${fid}`,
      surl: `/gfile/file/${fid}`,
    });

    const cam = await logonTerminal(url, camA, { clientid: 'a4' });
    clients.push(cam.client);
    await desk.client.request('req_send_im', { target: camA.id, im_type: ImType.IMAGE, fid });
    const notice = await cam.client.notice('notice_im', (m) => (m.im as { fid: string }).fid === fid);
    const ourl = (notice.im as { ourl: string }).ourl;
    const download = await t.app.inject({ method: 'GET', url: `${ourl}?token=${cam.token}&uid=${cam.uid}` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(download.rawPayload, bytes)).toBe(0);
    const stranger = await t.app.inject({
      method: 'GET',
      url: `${ourl}?token=${otherDesk.token}&uid=${otherDesk.uid}`,
    });
    expect(stranger.statusCode).toBe(404);
    const noToken = await t.app.inject({ method: 'GET', url: `${ourl}?token=nope&uid=${cam.uid}` });
    expect(noToken.statusCode).toBe(401);
  });

  it('checks type, size, owner and the message kind', async () => {
    expect(
      await upload(
        desk,
        { fid: 'bad-type-01', offset: 0, size: 10, filename: 'run.exe', im_type: ImType.FILE },
        Buffer.alloc(10),
      ),
    ).toMatchObject({
      status: 400,
      body: { error_reason: '不允许的文件类型：.exe' },
    });
    expect(
      await upload(
        desk,
        { fid: 'too-big-001', offset: 0, size: 11 * 1024 * 1024, filename: 'a.jpg', im_type: ImType.IMAGE },
        Buffer.alloc(10),
      ),
    ).toMatchObject({
      body: { error_reason: '文件不能大于 10 MB' },
    });
    expect(
      await upload(
        desk,
        { fid: 'voice-00001', offset: 0, size: 4, filename: 'note.webm', im_type: ImType.VOICE },
        Buffer.alloc(4),
      ),
    ).toMatchObject({ status: 200 });
    expect(await upload(otherDesk, { fid: 'voice-00001', offset: 4 }, Buffer.alloc(1))).toMatchObject({ status: 403 });
    await desk.client.request('req_send_file_done', { fid: 'voice-00001' });
    expect(
      await desk.client.request('req_send_im', { target: camA.id, im_type: ImType.IMAGE, fid: 'voice-00001' }),
    ).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
    });
    expect(
      await otherDesk.client.request('req_send_im', {
        target: otherDesk.uid,
        im_type: ImType.VOICE,
        fid: 'voice-00001',
      }),
    ).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(
      await desk.client.request('req_send_im', { target: camA.id, im_type: ImType.VOICE, fid: 'voice-00001' }),
    ).toMatchObject({
      cmd_status: 0,
      im: { filename: 'note.webm', size: 4, surl: '' },
    });
  });
});

describe('req_im_list', () => {
  it('pages a conversation newest first and marks it read', async () => {
    const cam = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), { jq_hostcode: '440009' });
    for (const content of ['m1', 'm2', 'm3'])
      await desk.client.request('req_send_im', { target: cam.id, im_type: 1, content });
    const page = await desk.client.request('req_im_list', { target: cam.id, start: -4, count: 2 });
    expect(page).toMatchObject({ cmd_status: 0, total: 3, start: 0, count: 2 });
    expect((page.im as { content: string }[]).map((m) => m.content)).toEqual(['m3', 'm2']);
    const rest = await desk.client.request('req_im_list', { exttarget: '440009', start: 2 });
    expect((rest.im as { content: string }[]).map((m) => m.content)).toEqual(['m1']);
    const terminal = await logonTerminal(url, cam);
    clients.push(terminal.client);
    await terminal.client.request('req_im_list', { target: desk.uid });
    const unread = await t.db
      .selectFrom('console_im_recipients')
      .select('uid')
      .where('uid', '=', cam.id)
      .where('read', '=', '')
      .execute();
    expect(unread).toEqual([]);
    expect(await desk.client.request('req_im_list', { target: cam.id, count: 500 })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
    });
  });
});

describe('req_im_sessions', () => {
  it("lists the caller's conversations, most recent first, with names, last message and unread; opening one reads it", async () => {
    const role = await createRole(t.db, 'im sessions', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
    const u = await createUser(t.db, { roleId: role, unitBh: '440304000000', hostname: 'Desk Two' });
    const fresh = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(fresh.client);
    expect(await fresh.client.request('req_im_sessions', {})).toMatchObject({ cmd_status: 0, sessions: [] });

    const cam = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), {
      jq_hostcode: '440010',
      hostname: '巡逻车 10',
    });
    const terminal = await logonTerminal(url, cam);
    clients.push(terminal.client);
    const sent: number[] = [];
    for (const content of ['在吗', '请回复']) {
      const rsp = await terminal.client.request('req_send_im', { target: fresh.uid, im_type: ImType.TEXT, content });
      sent.push((rsp.im as { msg_id: number }).msg_id);
    }
    const group = await api<{ groupid: number }>(t.app, 'groupAdd', admin, {
      channel_name: '会话组',
      cate: '1',
      device: ['440010'],
      bh: '440304000000',
    });
    await fresh.client.request('req_send_im', {
      target: group.data.groupid,
      target_type: 1,
      im_type: ImType.TEXT,
      content: '各组注意',
    });

    const listed = await fresh.client.request('req_im_sessions', {});
    expect(listed).toMatchObject({
      cmd_status: 0,
      sessions: [
        {
          target: group.data.groupid,
          target_type: 1,
          name: '会话组',
          unread: 0,
          unread_ids: [],
          last: { content: '各组注意', from: fresh.uid },
        },
        {
          target: cam.id,
          exttarget: '440010',
          target_type: 0,
          name: '巡逻车 10',
          unread: 2,
          unread_ids: [...sent].reverse(),
          last: { content: '请回复', from: cam.id },
        },
      ],
    });
    // the terminal's side: the console by name, and the group it is a member of, both unread
    const theirs = await terminal.client.request('req_im_sessions', { count: 5 });
    expect(theirs.sessions).toMatchObject([
      { target: group.data.groupid, target_type: 1, unread: 1 },
      { target: fresh.uid, target_type: 0, name: 'Desk Two', unread: 0 },
    ]);

    await fresh.client.request('req_im_list', { target: cam.id });
    const after = await fresh.client.request('req_im_sessions', { count: 1 });
    expect(after.sessions).toMatchObject([{ target: group.data.groupid }]);
    const again = await fresh.client.request('req_im_sessions', {});
    expect((again.sessions as { target: number; unread: number }[]).find((s) => s.target === cam.id)).toMatchObject({
      unread: 0,
    });

    // a console of another unit sees neither conversation
    expect(await otherDesk.client.request('req_im_sessions', {})).toMatchObject({ cmd_status: 0, sessions: [] });
    expect(await fresh.client.request('req_im_sessions', { count: 0 })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
    });
  });
});

describe('notice_im_state', () => {
  it("tells a console when its message reached a terminal and when the terminal read it; terminals' senders get none", async () => {
    const cam = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), { jq_hostcode: '440011' });
    const terminal = await logonTerminal(url, cam);
    clients.push(terminal.client);
    const sent = await desk.client.request('req_send_im', {
      target: cam.id,
      im_type: ImType.TEXT,
      content: '收到请回复',
    });
    const msgId = (sent.im as { msg_id: number }).msg_id;
    const ofMsg = (m: Record<string, unknown>) => m.msg_id === msgId;
    expect(await desk.client.notice('notice_im_state', (m) => ofMsg(m) && m.state === 'delivered')).toMatchObject({
      msg_id: msgId,
      uid: cam.id,
      state: 'delivered',
    });
    await terminal.client.request('req_im_list', { target: desk.uid });
    expect(await desk.client.notice('notice_im_state', (m) => ofMsg(m) && m.state === 'read')).toMatchObject({
      uid: cam.id,
      state: 'read',
    });
    // listing again reads nothing new: no second notice
    await terminal.client.request('req_im_list', { target: desk.uid });
    await desk.client.request('heartbeat');
    expect(desk.client.notices('notice_im_state').filter(ofMsg)).toHaveLength(2);

    // the terminal's answer, delivered to the console and read there: the terminal hears nothing
    const answer = await terminal.client.request('req_send_im', {
      target: desk.uid,
      im_type: ImType.TEXT,
      content: '好',
    });
    await desk.client.notice(
      'notice_im',
      (m) => (m.im as { msg_id: number }).msg_id === (answer.im as { msg_id: number }).msg_id,
    );
    await desk.client.request('req_im_list', { target: cam.id });
    await terminal.client.request('heartbeat');
    expect(terminal.client.notices('notice_im_state')).toEqual([]);
  });
});
