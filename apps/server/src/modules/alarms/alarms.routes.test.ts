import {
  Api,
  MenuId,
  SESSION_WS_CLOSE_UNAUTHORISED,
  SESSION_WS_PATH,
  type Alarm,
  type AlarmListResponse,
  type ApiName,
  type Page,
} from '@bwc/protocol';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, callApi } from '../../../test/api';
import { createRole, createTestApp, createUser, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { TestConsole } from '../../../test/ws-client';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../test/devices';

let t: TestApp;
let admin: Session;
/** 10104 + 10154 view/edit, 10095 view; unit Futian */
let futianUser: Session;
let futianUserName: string;
/** same rights, unit Luohu */
let luohuUser: Session;
/** no rights, unit Futian */
let nobody: Session;
let futian: number;
let luohu: number;
let inFutian: CreatedDevice;
let inLuohu: CreatedDevice;

// 1x1 PNG
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** An SOS through the device API; resolves with the stored alarm row once the alarm is committed. */
async function sos(device: CreatedDevice, message = 'help') {
  const headers = await deviceLogin(t.app, device);
  const res = await t.app.inject({
    method: 'POST',
    url: Api.deviceSos.path,
    headers,
    payload: { message, lat: 22.54, lng: 114.05 },
  });
  const env = res.json() as { code: number; data: { event_id: number } };
  expect(env.code).toBe(200);
  const eid = `sos:${env.data.event_id}`;
  return waitFor(() => t.db.selectFrom('alarms').selectAll().where('eid', '=', eid).executeTakeFirst());
}

const list = async (s: Session, name: ApiName = 'alarmList') => api<AlarmListResponse>(t.app, name, s);

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
  luohu = await unitIdOf(t.db, '440303000000');
  const role = await createRole(t.db, 'alarm desk', [
    { ids: [MenuId.DISPATCH_ALARM, MenuId.MONITOR_ALARM], actions: ['view', 'edit'] },
    { ids: [MenuId.FACE_ALARM], actions: ['view'] },
  ]);
  const u1 = await createUser(t.db, { roleId: role, unitBh: '440304000000', hostname: '王调度' });
  futianUserName = u1.username;
  futianUser = await login(t.app, u1.username, u1.password);
  const u2 = await createUser(t.db, { roleId: role, unitBh: '440303000000' });
  luohuUser = await login(t.app, u2.username, u2.password);
  const u3 = await createUser(t.db, { unitBh: '440304000000' });
  nobody = await login(t.app, u3.username, u3.password);
  inFutian = await addDevice(t.app, admin, futian);
  inLuohu = await addDevice(t.app, admin, luohu);
});
afterAll(async () => t.close());

describe('alarm endpoints: refusals', () => {
  const sessionApis: ApiName[] = [
    'alarmSettings',
    'alarmIsAlarm',
    'alarmList',
    'alarmLight',
    'alarmRead',
    'alarmReadAll',
    'alarmPosition',
    'alarmGbPosition',
    'alarmCategories',
    'alarmSearch',
    'alarmGbSearch',
    'alarmExport',
    'alarmGbExport',
    'alarmSure',
    'alarmGbSure',
    'alarmSureAll',
    'alarmPic',
  ];

  it('answers 401 without a session', async () => {
    for (const name of sessionApis) {
      const env = (await callApi(t.app, name, null)).json() as { code: number };
      expect(env.code, name).toBe(401);
    }
  });

  it('answers 403 without the alarm permissions', async () => {
    for (const name of sessionApis.filter((n) => n !== 'alarmSettings' && n !== 'alarmPicFile')) {
      const env = (await callApi(t.app, name, nobody)).json() as { code: number; msg: string };
      expect(env.code, name).toBe(403);
    }
    // the sound settings are for every console
    expect((await api(t.app, 'alarmSettings', nobody)).data).toEqual({ sos_alarm_time: 30, sos_alarm_audio: '' });
  });

  it("bell calls need view on either alarm menu, each mode's list its own, refused before the input is read", async () => {
    const gbRole = await createRole(t.db, 'gb bell', [{ ids: [MenuId.MONITOR_ALARM], actions: ['view'] }]);
    const dispatchRole = await createRole(t.db, 'dispatch bell', [{ ids: [MenuId.DISPATCH_ALARM], actions: ['view'] }]);
    const gbUser = await createUser(t.db, { roleId: gbRole, unitBh: '440304000000' });
    const dispatchUser = await createUser(t.db, { roleId: dispatchRole, unitBh: '440304000000' });
    const gb = await login(t.app, gbUser.username, gbUser.password);
    const dispatch = await login(t.app, dispatchUser.username, dispatchUser.password);
    for (const name of ['alarmIsAlarm', 'alarmReadAll', 'alarmCategories'] as const) {
      expect((await api(t.app, name, gb)).code, name).toBe(200);
      expect((await api(t.app, name, dispatch)).code, name).toBe(200);
    }
    expect((await api(t.app, 'alarmPosition', gb, { hostbody: [inFutian.hostbody] })).code).toBe(200);
    expect((await api(t.app, 'alarmGbPosition', dispatch, { gbbm: [inFutian.hostbody] })).code).toBe(200);
    expect((await api(t.app, 'alarmLight', gb)).code).toBe(200);
    expect((await api(t.app, 'alarmList', dispatch)).code).toBe(200);
    const listRefused = await api(t.app, 'alarmList', gb);
    expect(listRefused.code).toBe(403);
    expect(listRefused.msg).toContain(String(MenuId.DISPATCH_ALARM));
    const lightRefused = await api(t.app, 'alarmLight', dispatch);
    expect(lightRefused.code).toBe(403);
    expect(lightRefused.msg).toContain(String(MenuId.MONITOR_ALARM));
    // without either right the input rules stay unknown: the refusal names the mode's menu
    const readRefused = await api(t.app, 'alarmRead', nobody, { ids: 'x' });
    expect(readRefused.code).toBe(403);
    expect(readRefused.msg).toContain(String(MenuId.DISPATCH_ALARM));
    const gbRefused = await api(t.app, 'alarmGbPosition', nobody, { gbbm: 5 });
    expect(gbRefused.code).toBe(403);
    expect(gbRefused.msg).toContain(String(MenuId.MONITOR_ALARM));
    // with one of them, the same bad input is named
    expect((await api(t.app, 'alarmRead', gb, { ids: 'x' })).code).toBe(400);
  });

  it('AI engine ingest needs the engine token', async () => {
    const body = {
      event_id: 'x1',
      kind: 'face',
      deviceid: inFutian.hostbody,
      shottime: '2026-01-01T00:00:00Z',
      imgfile: PNG,
    };
    const none = await api(t.app, 'aiAlarm', null, body);
    expect(none).toMatchObject({ code: 401, msg: 'AI 引擎认证失败：令牌无效' });
    const wrong = await t.app.inject({
      method: 'POST',
      url: Api.aiAlarm.path,
      headers: { authorization: 'Bearer nope' },
      payload: body,
    });
    expect(wrong.json()).toMatchObject({ code: 401 });
    // a user session is not the engine
    const user = await api(t.app, 'aiAlarm', admin, body);
    expect(user.code).toBe(401);
  });
});

describe('ingest, bell list, read, acknowledge', () => {
  it('an SOS becomes one critical alarm with the spec fields, visible to its unit only', async () => {
    const row = await sos(inFutian, 'need backup');
    expect(row).toMatchObject({ type: '1', alerm_level: 'criticle', hostbody: inFutian.hostbody, unit_id: futian });
    const mine = await list(futianUser);
    expect(mine.code).toBe(200);
    expect(mine.data.count).toEqual({ total: 1, criticle: 1, middle: 0, normal: 0 });
    const a = mine.data.lines.criticle[0]!;
    expect(a).toMatchObject({
      id: Number(row.id),
      eid: row.eid,
      type: '1',
      alerm_level: 'criticle',
      hostbody: inFutian.hostbody,
      gbbm: inFutian.hostbody,
      unitname: '福田分局',
      dname: '福田分局',
      status: '0',
      hasRead: 0,
      index: '01',
      typeName_cur: 'SOS 一键报警',
      message: 'need backup',
      lat: 22.54,
      lng: 114.05,
      sure: 0,
    });
    expect(a.hostNameCode).toBe(`officer ${inFutian.hostbody}(P${inFutian.imei.slice(-5)})`);
    expect(
      (await api<AlarmListResponse>(t.app, 'alarmList', futianUser, {}, 'en-US')).data.lines.criticle[0]!.typeName_cur,
    ).toBe('SOS alarm');
    // GB mode list is the same data
    expect((await list(futianUser, 'alarmLight')).data.count.total).toBe(1);
    // another unit's dispatcher does not see it
    expect((await list(luohuUser)).data.count.total).toBe(0);
    expect((await api(t.app, 'alarmIsAlarm', futianUser)).data).toEqual({ is_alarm: 1 });
    expect((await api(t.app, 'alarmIsAlarm', luohuUser)).data).toEqual({ is_alarm: 0 });
  });

  it('ingest is idempotent on the source event id', async () => {
    const input = {
      eid: 'test:idem-1',
      type: '2',
      device_id: inFutian.id,
      unit_id: futian,
      hostname: 'h',
      hostcode: 'c',
      hostbody: inFutian.hostbody,
      alarm_time: new Date().toISOString(),
      lat: null,
      lng: null,
    };
    const pushed: number[] = [];
    const off = t.app.bus.on('alarm.created', (e) => pushed.push(Number(e.alarm.id)));
    const [a, b] = await Promise.all([t.app.alarms.ingest(input), t.app.alarms.ingest(input)]);
    const c = await t.app.alarms.ingest(input);
    off();
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(c.created).toBe(false);
    expect(Number(a.alarm.id)).toBe(Number(b.alarm.id));
    expect(pushed).toEqual([Number(a.alarm.id)]);
    const n = await t.db
      .selectFrom('alarms')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('eid', '=', 'test:idem-1')
      .executeTakeFirst();
    expect(Number(n!.n)).toBe(1);
    expect((await list(futianUser)).data.count).toMatchObject({ total: 2, criticle: 1, normal: 1 });
  });

  it('recovery raises the alarm of an SOS stored before a crash, once', async () => {
    // the device API had answered (event committed) when the process died before the alarm insert
    const ev = await t.db
      .insertInto('device_events')
      .values({
        device_id: inFutian.id,
        unit_id: futian,
        type: 'sos',
        time: new Date().toISOString(),
        lat: 22.6,
        lng: 114.2,
        payload: JSON.stringify({ message: 'before the crash' }),
        created: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await t.app.alarms.recover()).toBe(1);
    expect(await t.app.alarms.recover()).toBe(0);
    const row = await t.db.selectFrom('alarms').selectAll().where('eid', '=', `sos:${ev.id}`).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: '1', alerm_level: 'criticle', message: 'before the crash', unit_id: futian });
    await api(t.app, 'alarmRead', futianUser, { ids: [{ id: Number(row.id), eid: row.eid }] });
  });

  it('a fence crossing is a type 0 alarm labelled with the fence name and direction', async () => {
    const before = await t.db.selectFrom('alarms').select('id').execute();
    t.app.bus.emit('fence.crossed', {
      event_id: 990001,
      fence: { id: 1, name: '学校', unit_id: futian, rule: 'both' },
      device: {
        device_id: inFutian.id,
        unit_id: futian,
        hostbody: inFutian.hostbody,
        imei: inFutian.imei,
        hostname: 'h1',
        hostcode: 'c1',
      },
      direction: 'enter',
      position: {
        device_id: inFutian.id,
        unit_id: futian,
        hostbody: inFutian.hostbody,
        time: new Date().toISOString(),
        lat: 22.5,
        lng: 114.1,
        speed: null,
        course: null,
        accuracy: null,
        battery: null,
      },
      time: new Date().toISOString(),
    });
    const row = await waitFor(() =>
      t.db.selectFrom('alarms').selectAll().where('eid', '=', 'fence:990001').executeTakeFirst(),
    );
    expect(before.length + 1).toBe((await t.db.selectFrom('alarms').select('id').execute()).length);
    const middle = (await list(futianUser)).data.lines.middle;
    expect(middle[0]).toMatchObject({
      id: Number(row.id),
      type: '0',
      boutefence: '学校 (进入)',
      typeName_cur: '学校 (进入)',
    });
    const en = (await api<AlarmListResponse>(t.app, 'alarmList', futianUser, {}, 'en-US')).data.lines.middle[0]!;
    expect(en.typeName_cur).toBe('学校 (enter)');
  });

  it('mark one read: id and eid checked, other unit refused, counts drop by one', async () => {
    const before = (await list(futianUser)).data;
    const a = before.lines.criticle[0]!;
    const bad = await api(t.app, 'alarmRead', futianUser, { ids: [] });
    expect(bad).toMatchObject({ code: 400, msg: '字段 ids：不能为空' });
    const mismatch = await api(t.app, 'alarmRead', futianUser, { ids: [{ id: a.id, eid: 'sos:0' }] });
    expect(mismatch).toMatchObject({ code: 400, msg: `字段 ids：报警 ${a.id} 与 eid 不符` });
    const other = await api(t.app, 'alarmRead', luohuUser, { ids: [{ id: a.id, eid: a.eid }] });
    expect(other.code).toBe(403);
    const missing = await api(t.app, 'alarmRead', futianUser, { ids: [{ id: 999999, eid: 'x' }] });
    expect(missing.code).toBe(404);
    const ok = await api(t.app, 'alarmRead', futianUser, { ids: [{ id: a.id, eid: a.eid }] });
    expect(ok).toMatchObject({ code: 200, msg: '已标记为已读', data: { count: 1 } });
    const after = (await list(futianUser)).data;
    expect(after.count.total).toBe(before.count.total - 1);
    expect(after.count.criticle).toBe(before.count.criticle - 1);
    // per user: the administrator still has it unread
    expect((await list(admin)).data.lines.criticle.some((x) => x.id === a.id)).toBe(true);
    const hist = await api<Page<Alarm>>(t.app, 'alarmSearch', futianUser, { read: 1 });
    expect(hist.data.list.map((x) => x.id)).toContain(a.id);
    expect(hist.data.list.find((x) => x.id === a.id)).toMatchObject({ hasRead: 1, status: '1' });
  });

  it('mark all read empties the bell; a new alarm is counted again', async () => {
    await sos(inFutian);
    expect((await list(futianUser)).data.count.total).toBeGreaterThan(0);
    const res = await api(t.app, 'alarmReadAll', futianUser);
    expect(res.code).toBe(200);
    expect((await list(futianUser)).data).toEqual({
      count: { total: 0, criticle: 0, middle: 0, normal: 0 },
      lines: { criticle: [], middle: [], normal: [] },
    });
    const again = await api(t.app, 'alarmReadAll', futianUser);
    expect(again.data).toEqual({ count: 0 });
    const row = await sos(inFutian);
    const l = (await list(futianUser)).data;
    expect(l.count).toEqual({ total: 1, criticle: 1, middle: 0, normal: 0 });
    expect(l.lines.criticle[0]!.id).toBe(Number(row.id));
  });

  it('acknowledge with handler and note; bad input; other unit refused; sure_all', async () => {
    const row = await sos(inFutian);
    const empty = await api(t.app, 'alarmSure', futianUser, { ids: [] });
    expect(empty).toMatchObject({ code: 400, msg: '字段 ids：不能为空' });
    const long = await api(t.app, 'alarmSure', futianUser, { ids: [Number(row.id)], note: 'x'.repeat(201) });
    expect(long.code).toBe(400);
    expect(long.msg).toMatch(/^字段 note：/);
    expect((await api(t.app, 'alarmSure', luohuUser, { ids: [Number(row.id)] })).code).toBe(403);
    const ok = await api(t.app, 'alarmSure', futianUser, { ids: [Number(row.id)], note: '已出警' });
    expect(ok).toMatchObject({ code: 200, msg: '报警已确认', data: { count: 1 } });
    const stored = await t.db.selectFrom('alarms').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ sure: 1, sure_user: '王调度', sure_note: '已出警' });
    expect(stored.sure_time).not.toBe('');
    // the first handler stays
    const twice = await api(t.app, 'alarmGbSure', admin, { ids: [Number(row.id)], note: 'later' });
    expect(twice.data).toEqual({ count: 0 });
    // acknowledged alarms leave every bell
    expect((await list(admin)).data.lines.criticle.some((x) => x.id === Number(row.id))).toBe(false);
    // acknowledge all: only the caller's units
    await sos(inLuohu);
    const all = await api<{ count: number }>(t.app, 'alarmSureAll', futianUser, { note: 'shift end' });
    expect(all.code).toBe(200);
    expect(all.data.count).toBeGreaterThan(0);
    const open = await api<Page<Alarm>>(t.app, 'alarmSearch', admin, { sure: 0 });
    expect(open.data.list.length).toBeGreaterThan(0);
    expect(open.data.list.every((x) => x.unit_id === luohu)).toBe(true);
  });

  it('history search filters, bad input, scope; categories; positions; export', async () => {
    const bad = await api(t.app, 'alarmSearch', futianUser, { start: 'yesterday' });
    expect(bad.code).toBe(400);
    expect(bad.msg).toMatch(/^字段 start：/);
    const badTab = await api(t.app, 'alarmSearch', futianUser, { alarmNavActive: 7 });
    expect(badTab.code).toBe(400);
    const crit = await api<Page<Alarm>>(t.app, 'alarmSearch', futianUser, { alarmNavActive: 0, limit: 100 });
    expect(crit.data.total).toBeGreaterThan(0);
    expect(crit.data.list.every((x) => x.alerm_level === 'criticle' && x.unit_id === futian)).toBe(true);
    const fences = await api<Page<Alarm>>(t.app, 'alarmGbSearch', futianUser, { type: '0' });
    expect(fences.data.list.map((x) => x.type)).toEqual(['0']);
    const dev = await api<Page<Alarm>>(t.app, 'alarmSearch', admin, { device: inLuohu.hostbody });
    expect(dev.data.list.every((x) => x.hostbody === inLuohu.hostbody)).toBe(true);
    expect(dev.data.total).toBeGreaterThan(0);
    // a unit outside the caller's scope
    expect((await api(t.app, 'alarmSearch', futianUser, { unit_id: luohu })).code).toBe(403);
    // Luohu's alarms are invisible to Futian
    const mine = await api<Page<Alarm>>(t.app, 'alarmSearch', futianUser, { limit: 100 });
    expect(mine.data.list.some((x) => x.unit_id === luohu)).toBe(false);

    const cats = await api<{ key: string; label: string }[]>(t.app, 'alarmCategories', futianUser, {}, 'en-US');
    expect(cats.data[0]).toEqual({ key: '0', label: 'Electronic fence alarm' });

    await t.db.updateTable('devices').set({ lat: 22.55, lng: 114.06 }).where('id', '=', inFutian.id).execute();
    const pos = await api(t.app, 'alarmPosition', futianUser, { hostbody: [inFutian.hostbody, inLuohu.hostbody] });
    expect(pos.data).toEqual([{ hostbody: inFutian.hostbody, lat: 22.55, lng: 114.06 }]);
    const gb = await api(t.app, 'alarmGbPosition', futianUser, { gbbm: [inFutian.hostbody] });
    expect(gb.data).toEqual({ data: [{ gbbm: inFutian.hostbody, lat: 22.55, lng: 114.06 }] });
    // a GB28181 device (its GB id is a GB alarm's gbbm): its last MobilePosition, in the scope only
    const GB_IN = '34020000001320000071';
    const GB_OUT = '34020000001320000072';
    await t.db
      .insertInto('gb_devices')
      .values([
        { gbid: GB_IN, unit_id: futian, lng: 114.07, lat: 22.54, created: '2026-11-27 10:00:00' },
        { gbid: GB_OUT, unit_id: luohu, lng: 114.12, lat: 22.55, created: '2026-11-27 10:00:00' },
      ])
      .execute();
    const gbDevices = await api(t.app, 'alarmGbPosition', futianUser, { gbbm: [GB_IN, GB_OUT] });
    expect(gbDevices.data).toEqual({ data: [{ gbbm: GB_IN, lat: 22.54, lng: 114.07 }] });
    expect((await api(t.app, 'alarmPosition', futianUser, { hostbody: [] })).code).toBe(400);

    const res = await callApi(t.app, 'alarmExport', futianUser, { alarmNavActive: 0 });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.getRow(1).getCell(3).value).toBe('报警类型');
    expect(sheet.rowCount - 1).toBe(crit.data.total);
    expect(sheet.getRow(2).getCell(3).value).toBe('SOS 一键报警');
  });

  it('AI face result: pictures stored and served, idempotent retry, listed in alarm_pic', async () => {
    const token = t.app.aiEngineToken.token();
    const body = {
      event_id: 'face-42',
      kind: 'face',
      deviceid: inFutian.hostbody,
      shottime: '2026-03-01 08:00:00',
      lat: 22.5,
      lng: 114.0,
      imgfile: `data:image/png;base64,${PNG}`,
      compare_result: [{ name: '张三', comparison: 'P001', similarity: 93.5, face_image: PNG }],
    };
    const post = (b: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: Api.aiAlarm.path,
        headers: { authorization: `Bearer ${token}` },
        payload: b,
      });
    const bad = (await post({ ...body, imgfile: 'not a picture!' })).json();
    expect(bad).toMatchObject({ code: 400, msg: '字段 imgfile：图片须为 JPEG 或 PNG 的 base64 数据' });
    const unknown = (await post({ ...body, deviceid: 'nope' })).json();
    expect(unknown).toMatchObject({ code: 400, msg: '字段 deviceid：设备 nope 不存在' });
    const first = (await post(body)).json() as { code: number; data: { id: number; created: number } };
    expect(first).toMatchObject({ code: 200, data: { eid: 'ai:face-42', created: 1 } });
    const retry = (await post(body)).json() as { data: { id: number; created: number } };
    expect(retry.data).toEqual({ id: first.data.id, eid: 'ai:face-42', created: 0 });

    const pics = await api<{
      alarm_pic: { imgfile: string; compare_result: { face_image_uri: string; similarity: number }[] }[];
      web_root: string;
    }>(t.app, 'alarmPic', futianUser);
    expect(pics.data.web_root).toBe('/rest/mini/rtcapt/file/');
    const pic = pics.data.alarm_pic[0]!;
    expect(pic.compare_result[0]!.similarity).toBe(93.5);
    const img = await t.app.inject({
      method: 'GET',
      url: `${pics.data.web_root}${pic.imgfile}`,
      headers: futianUser.headers,
    });
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(Buffer.from(PNG, 'base64'))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `${pics.data.web_root}${pic.imgfile}` })).json()).toMatchObject({
      code: 401,
    });
    expect((await api(t.app, 'alarmPic', luohuUser)).data).toMatchObject({ alarm_pic: [] });
    const face = (await list(futianUser)).data.lines.criticle.find((x) => x.id === first.data.id)!;
    expect(face).toMatchObject({ type: '6', typeName_cur: '人脸比对报警' });
    expect(face.picture?.compare_result[0]?.name).toBe('张三');
  });
});

describe('session push channel', () => {
  let base: string;
  beforeAll(async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = address.replace('http', 'ws');
  });

  async function consoleOf(s: Session, username: string, query = '') {
    const info = await api<{ logincode: string; wsurl: string; scode: string; auth_cate: string }>(
      t.app,
      'userInfo',
      s,
    );
    expect(info.data.wsurl.endsWith(SESSION_WS_PATH)).toBe(true);
    const c = await TestConsole.open(`${base}${SESSION_WS_PATH}${query}`, s.headers);
    c.send({
      cmd: 'client_login',
      logincode: info.data.logincode,
      username,
      scode: info.data.scode,
      cate: info.data.auth_cate,
    });
    return c;
  }

  it('pushes a committed alarm only to consoles of its unit with the permission', async () => {
    const futianConsole = await consoleOf(futianUser, futianUserName);
    const luohuUsername = (await api<{ username: string }>(t.app, 'userInfo', luohuUser)).data.username;
    const luohuConsole = await consoleOf(luohuUser, luohuUsername);
    const nobodyName = (await api<{ username: string }>(t.app, 'userInfo', nobody)).data.username;
    const nobodyConsole = await consoleOf(nobody, nobodyName);
    const adminConsole = await consoleOf(admin, DEMO.admin.username);
    for (const c of [futianConsole, luohuConsole, nobodyConsole, adminConsole]) {
      expect(await c.next((m) => m.cmd === 'client_login')).toMatchObject({ code: 200 });
    }
    const row = await sos(inFutian, 'push me');
    const got = await futianConsole.next((m) => m.type === 'alarm_data');
    expect(got).not.toHaveProperty('code');
    expect(got.data).toMatchObject({
      id: Number(row.id),
      eid: row.eid,
      hasRead: 0,
      alerm_level: 'criticle',
      message: 'push me',
    });
    // committed before it was pushed
    expect(await t.db.selectFrom('alarms').select('id').where('id', '=', row.id).executeTakeFirst()).toBeDefined();
    await adminConsole.next((m) => m.type === 'alarm_data' && (m.data as Alarm).id === Number(row.id));
    // a Luohu alarm reaches Luohu: by then Futian's alarm would have arrived too if it were sent
    const row2 = await sos(inLuohu);
    await luohuConsole.next((m) => m.type === 'alarm_data' && (m.data as Alarm).id === Number(row2.id));
    await adminConsole.next((m) => m.type === 'alarm_data' && (m.data as Alarm).id === Number(row2.id));
    expect(luohuConsole.messages.filter((m) => m.type === 'alarm_data').map((m) => (m.data as Alarm).id)).toEqual([
      Number(row2.id),
    ]);
    expect(futianConsole.messages.filter((m) => m.type === 'alarm_data').map((m) => (m.data as Alarm).id)).toEqual([
      Number(row.id),
    ]);
    expect(nobodyConsole.messages.filter((m) => m.type === 'alarm_data')).toEqual([]);

    // face pictures to 10095 viewers of the unit
    const token = t.app.aiEngineToken.token();
    await t.app.inject({
      method: 'POST',
      url: Api.aiAlarm.path,
      headers: { authorization: `Bearer ${token}` },
      payload: {
        event_id: 'push-face',
        kind: 'face',
        deviceid: inFutian.hostbody,
        shottime: '2026-03-01T08:00:00Z',
        imgfile: PNG,
      },
    });
    const face = await futianConsole.next((m) => m.type === 'face_data');
    expect(face).toMatchObject({
      web_root: '/rest/mini/rtcapt/file/',
      data: { eid: 'ai:push-face', deviceid: inFutian.hostbody },
    });

    // heartbeat
    futianConsole.send({ cmd: 'ping' });
    expect(await futianConsole.next((m) => m.cmd === 'pong')).toHaveProperty('time');
    // every push is a TEXT frame (a browser gets binary frames as Blobs)
    for (const c of [futianConsole, luohuConsole, nobodyConsole, adminConsole]) {
      expect(c.binaryFrames).toBe(0);
      c.close();
    }
  });

  it("pushes each console an alarm in that console's language (?lang of the socket)", async () => {
    const english = await consoleOf(futianUser, futianUserName, '?lang=en-US');
    const chinese = await consoleOf(futianUser, futianUserName, '?lang=zh-CN');
    for (const c of [english, chinese])
      expect(await c.next((m) => m.cmd === 'client_login')).toMatchObject({ code: 200 });
    const row = await sos(inFutian, 'which language');
    const of = (c: TestConsole) => c.next((m) => m.type === 'alarm_data' && (m.data as Alarm).id === Number(row.id));
    const [en, zh] = [(await of(english)).data as Alarm, (await of(chinese)).data as Alarm];
    // the SOS type's label of the dictionary (alermcate): label_en for English, label for Chinese
    expect(en.typeName_cur).toMatch(/^[\x20-\x7e]+$/);
    expect(zh.typeName_cur).toMatch(/[\u4e00-\u9fff]/);
    english.close();
    chinese.close();
  });

  it('writes a burst of SOS in a group commit: each answered with its alarm stored, pushed one message per alarm in order', async () => {
    const c = await consoleOf(futianUser, futianUserName);
    expect(await c.next((m) => m.cmd === 'client_login')).toMatchObject({ code: 200 });
    const headers = await deviceLogin(t.app, inFutian);
    const commits = t.app.devices.stats.sosCommits;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.inject({ method: 'POST', url: Api.deviceSos.path, headers, payload: { message: `burst ${i}` } }),
      ),
    );
    const eventIds = answers.map((r) => (r.json() as { code: number; data: { event_id: number } }).data.event_id);
    // answered only once committed: every alarm is there without waiting
    const stored = await t.db
      .selectFrom('alarms')
      .select(['id', 'eid', 'message'])
      .where(
        'eid',
        'in',
        eventIds.map((id) => `sos:${id}`),
      )
      .orderBy('id')
      .execute();
    expect(stored.map((a) => a.message).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `burst ${i}`).sort());
    // grouped: fewer transactions than SOS
    expect(t.app.devices.stats.sosCommits - commits).toBeLessThan(20);
    // one alarm_data message per alarm, in commit order, as text frames
    const last = stored.at(-1)!.id;
    await c.next((m) => m.type === 'alarm_data' && (m.data as Alarm).id === Number(last));
    const pushed = c.messages
      .filter((m) => m.type === 'alarm_data' && String((m.data as Alarm).message).startsWith('burst '))
      .map((m) => (m.data as Alarm).id);
    expect(pushed).toEqual(stored.map((a) => Number(a.id)));
    expect(c.binaryFrames).toBe(0);
    c.close();
  });

  it('refuses a wrong logincode and drops the socket of a session forced offline', async () => {
    const stranger = await TestConsole.open(`${base}${SESSION_WS_PATH}`);
    stranger.send({ cmd: 'client_login', logincode: 'deadbeef', username: 'admin', scode: '', cate: '' });
    expect(await stranger.next((m) => m.cmd === 'client_login')).toMatchObject({ code: 401 });
    expect((await stranger.waitClose()).code).toBe(SESSION_WS_CLOSE_UNAUTHORISED);

    const u = await createUser(t.db, { unitBh: '440304000000' });
    const first = await login(t.app, u.username, u.password);
    const c = await consoleOf(first, u.username);
    expect(await c.next((m) => m.cmd === 'client_login')).toMatchObject({ code: 200 });
    await login(t.app, u.username, u.password); // forces the first session off
    await t.app.sessionHub.refresh();
    expect(await c.next((m) => m.cmd === 'logout')).toMatchObject({ code: 401, msg: expect.any(String) });
    expect((await c.waitClose()).code).toBe(SESSION_WS_CLOSE_UNAUTHORISED);
  });
});
