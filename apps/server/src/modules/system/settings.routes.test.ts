import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Api, DEFAULT_VIDEO_LIVE_NUM, MB, MenuId, SETTINGS_DEFAULTS, UPLOAD_LIMIT_MB } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  createRole,
  createTestApp,
  createUser,
  DEMO,
  envelope,
  login,
  type Session,
  type TestApp,
} from '../../../test/helpers';

let t: TestApp;
let admin: Session;
let dispatcher: Session;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
});
afterAll(async () => t.close());

const EN = { 'x-lang': 'en-US' };
const get = (type: string, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'GET', url: `${Api.settingsGet.path}?type=${encodeURIComponent(type)}`, headers });
const update = (payload: Record<string, unknown>, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'POST', url: Api.settingsUpdate.path, headers, payload });

/** A valid 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(20, 1)]);

function imageForm(content: Buffer, name: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  return form;
}
const upload = (form: FormData, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'POST', url: Api.uploadBackground.path, headers, payload: form });
const backgroundDir = () => join(t.config.dataDir, 'backgrounds');
const filesIn = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

/** One valid value per settings type, different from the defaults. */
const VALID = {
  titleset: { title: '某市公安局执法记录', support_text: '技术支持：测试组' },
  backset: { background_path: '' },
  filestorage: { storage_path: 'evidence/main', keep_days: 730, disk_warn_percent: 85 },
  statisticset: { stat_day_start: 6, stat_cycle_days: 14, count_offline_devices: 0 },
  normalset: {
    login_fail_limit: 3,
    login_lock_minutes: 30,
    default_password: 'Reset#2025',
    session_timeout_minutes: 60,
  },
  digitailmap: {
    mapinfo: 1,
    gpscenter_lon: 113.2644,
    gpscenter_lat: 23.1291,
    map_url: 'https://tiles.example/{z}/{x}/{y}.png',
    map_crs: 'GCJ02',
    getvideo_switch: 0,
    getvideo_time: 120,
    getvideo_num: 2,
    getvideo_path: 'alarm/video',
    getpic_path: 'alarm/picture',
  },
  cloudstorage: { record_path: 'records', record_minutes: 60, keep_days: 90, record_live: 1 },
} as const;

describe('GET/POST system_get, system_update: unauthenticated', () => {
  it('answers 401 without a session', async () => {
    expect(envelope(await get('titleset', {}))).toEqual({ code: 401, msg: '请先登录', data: null });
    expect(envelope(await update({ type: 'titleset', ...VALID.titleset }, {}))).toEqual({
      code: 401,
      msg: '请先登录',
      data: null,
    });
    expect(envelope(await update({ type: 'titleset', ...VALID.titleset }, EN))).toMatchObject({
      code: 401,
      msg: 'Please log in first',
    });
  });
});

describe('system_get: defaults and permissions per type', () => {
  it('answers the protocol defaults for every type never saved', async () => {
    for (const type of Object.keys(SETTINGS_DEFAULTS) as (keyof typeof SETTINGS_DEFAULTS)[]) {
      expect(envelope(await get(type))).toEqual({ code: 200, msg: '操作成功', data: SETTINGS_DEFAULTS[type] });
    }
  });

  it('refuses the dispatcher (no system settings) with 403 naming menu and action', async () => {
    expect(envelope(await get('titleset', dispatcher.headers))).toEqual({
      code: 403,
      msg: '没有权限：需要菜单 10002 的“查看”权限',
      data: null,
    });
    expect(envelope(await get('digitailmap', dispatcher.headers))).toMatchObject({
      code: 403,
      msg: '没有权限：需要菜单 10003 的“查看”权限',
    });
    expect(envelope(await update({ type: 'titleset', ...VALID.titleset }, { ...dispatcher.headers, ...EN }))).toEqual({
      code: 403,
      msg: 'Permission denied: this needs "edit" on menu 10002',
      data: null,
    });
  });

  it('checks the right to the type before its fields: no field details for those who may not edit', async () => {
    expect(envelope(await update({ type: 'titleset', title: '' }, dispatcher.headers))).toMatchObject({
      code: 403,
      msg: '没有权限：需要菜单 10002 的“编辑”权限',
    });
    expect(envelope(await update({ type: 'titleset', title: '' }, {}))).toMatchObject({ code: 401 });
  });

  it('checks the menu of the type: dispatch config (10003) only reaches digitailmap and cloudstorage', async () => {
    const roleId = await createRole(t.db, 'player_only', [
      { ids: [MenuId.DISPATCH_CONFIG], actions: ['view', 'edit'] },
    ]);
    const u = await createUser(t.db, { roleId });
    const s = await login(t.app, u.username, u.password);
    expect(envelope(await get('digitailmap', s.headers))).toMatchObject({ code: 200 });
    expect(envelope(await update({ type: 'cloudstorage', ...VALID.cloudstorage }, s.headers))).toMatchObject({
      code: 200,
    });
    expect(envelope(await get('normalset', s.headers))).toMatchObject({
      code: 403,
      msg: '没有权限：需要菜单 10002 的“查看”权限',
    });
    expect(envelope(await update({ type: 'titleset', ...VALID.titleset }, s.headers))).toMatchObject({
      code: 403,
      msg: '没有权限：需要菜单 10002 的“编辑”权限',
    });
  });

  it('shows the reset password only to those who may edit system settings', async () => {
    const roleId = await createRole(t.db, 'settings_viewer', [{ ids: [MenuId.SYSTEM_SETTINGS], actions: ['view'] }]);
    const u = await createUser(t.db, { roleId });
    const s = await login(t.app, u.username, u.password);
    const seen = envelope<Record<string, unknown>>(await get('normalset', s.headers));
    expect(seen.code).toBe(200);
    expect(seen.data.default_password).toBe('');
    expect(seen.data.login_fail_limit).toBe(SETTINGS_DEFAULTS.normalset.login_fail_limit);
    expect(envelope<Record<string, unknown>>(await get('normalset')).data.default_password).toBe(
      SETTINGS_DEFAULTS.normalset.default_password,
    );
    expect(envelope(await update({ type: 'normalset', ...VALID.normalset }, s.headers))).toMatchObject({
      code: 403,
      msg: '没有权限：需要菜单 10002 的“编辑”权限',
    });
  });
});

describe('system_get, system_update: bad input names the field and changes nothing', () => {
  it('rejects an unknown settings type', async () => {
    expect(envelope(await get('nope'))).toEqual({ code: 400, msg: '字段 type：未知的设置类型', data: null });
    expect(envelope(await update({ type: 'nope', title: 'x' }))).toEqual({
      code: 400,
      msg: '字段 type：未知的设置类型',
      data: null,
    });
    expect(envelope(await update({ type: 'nope' }, { ...admin.headers, ...EN }))).toMatchObject({
      msg: 'Field type: Unknown settings type.',
    });
  });

  it('validates the title: 18 characters, forbidden characters, missing, too long, wrong type', async () => {
    expect(
      envelope(await update({ type: 'titleset', title: '一二三四五六七八九十一二三四五六七八', support_text: '' })),
    ).toEqual({
      code: 400,
      msg: '字段 title：标题长度为 1 到 17 个字符',
      data: null,
    });
    expect(
      envelope(await update({ type: 'titleset', title: '一二三四五六七八九十一二三四五六七', support_text: '' })),
    ).toMatchObject({
      code: 200,
    });
    expect(envelope(await update({ type: 'titleset', title: '执法/记录', support_text: '' }))).toEqual({
      code: 400,
      msg: '字段 title：标题不能包含以下字符：\\ / : * ? < | ’ % >',
      data: null,
    });
    expect(
      envelope(await update({ type: 'titleset', title: 'a%b', support_text: '' }, { ...admin.headers, ...EN })),
    ).toEqual({
      code: 400,
      msg: 'Field title: None of the characters \\ / : * ? < | ’ % > may appear in the title.',
      data: null,
    });
    expect(envelope(await update({ type: 'titleset', title: '标题' }))).toMatchObject({
      code: 400,
      msg: '字段 support_text：不能为空',
    });
    expect(envelope(await update({ type: 'titleset', title: '标题', support_text: 'x'.repeat(101) }))).toMatchObject({
      code: 400,
      msg: '字段 support_text：长度超出限制',
    });
    expect(envelope(await update({ type: 'titleset', title: 12, support_text: '' }))).toMatchObject({
      code: 400,
      msg: '字段 title：类型不正确',
    });
  });

  it('validates numbers, ranges, choices and passwords of the other types', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ type: 'normalset', ...VALID.normalset, login_fail_limit: 'abc' }, '字段 login_fail_limit：必须是数字'],
      [{ type: 'normalset', ...VALID.normalset, login_fail_limit: 0 }, '字段 login_fail_limit：取值范围为 1 到 20'],
      [
        { type: 'normalset', ...VALID.normalset, default_password: 'abcdefgh' },
        '字段 default_password：密码须包含大写字母、小写字母、数字、特殊字符中的至少三种',
      ],
      [{ type: 'filestorage', ...VALID.filestorage, storage_path: '../etc' }, '字段 storage_path：路径不能包含 ..'],
      [
        { type: 'digitailmap', ...VALID.digitailmap, gpscenter_lon: 200 },
        '字段 gpscenter_lon：经度必须在 -180 到 180 之间',
      ],
      [{ type: 'digitailmap', ...VALID.digitailmap, map_crs: 'EPSG3857' }, '字段 map_crs：不是允许的选项'],
      [{ type: 'digitailmap', ...VALID.digitailmap, getvideo_path: '../etc' }, '字段 getvideo_path：路径不能包含 ..'],
      [{ type: 'digitailmap', ...VALID.digitailmap, getvideo_num: 10 }, '字段 getvideo_num：取值范围为 1 到 9'],
      [{ type: 'cloudstorage', ...VALID.cloudstorage, record_minutes: 45 }, '字段 record_minutes：不是允许的选项'],
      [{ type: 'cloudstorage', ...VALID.cloudstorage, record_live: 2 }, '字段 record_live：不是允许的选项'],
      [{ type: 'statisticset', ...VALID.statisticset, stat_day_start: 24 }, '字段 stat_day_start：取值范围为 0 到 23'],
    ];
    for (const [payload, msg] of bad) expect(envelope(await update(payload))).toEqual({ code: 400, msg, data: null });
  });

  it('a refused update leaves the stored value as it was and is audited as a failure', async () => {
    expect(envelope(await update({ type: 'normalset', ...VALID.normalset }))).toMatchObject({
      code: 200,
      msg: '保存成功',
    });
    expect(envelope(await update({ type: 'normalset', ...VALID.normalset, login_lock_minutes: 99999 }))).toMatchObject({
      code: 400,
      msg: '字段 login_lock_minutes：取值范围为 1 到 1440',
    });
    expect(
      envelope(
        await update(
          { type: 'normalset', ...VALID.normalset, login_fail_limit: 21 },
          { ...admin.headers, 'x-lang': 'en-US' },
        ),
      ).msg,
    ).toBe('Login fail limit must be from 1 to 20.');
    expect(
      envelope(await update({ type: 'normalset', ...VALID.normalset, login_lock_minutes: 5 }, dispatcher.headers)),
    ).toMatchObject({
      code: 403,
    });
    expect(envelope(await get('normalset')).data).toEqual(VALID.normalset);
    const [refused, invalid] = await auditRows(t.db, Api.settingsUpdate.path);
    expect(refused).toMatchObject({ username: 'dispatcher', target: 'normalset', result_code: 403 });
    expect(invalid).toMatchObject({ username: 'admin', target: 'normalset', result_code: 400 });
  });
});

describe('system_update then system_get: round trip of every type', () => {
  it('stores each type and answers it back; audited with the type as target', async () => {
    for (const [type, value] of Object.entries(VALID)) {
      expect(envelope(await update({ type, ...value }))).toEqual({ code: 200, msg: '保存成功', data: value });
      expect(envelope(await get(type))).toEqual({ code: 200, msg: '操作成功', data: value });
    }
    const rows = await auditRows(t.db, Api.settingsUpdate.path);
    expect(rows.find((r) => r.target === 'digitailmap' && r.result_code === 200)).toMatchObject({
      username: 'admin',
      msg: '保存成功',
    });
  });

  it('drops fields a type does not have', async () => {
    await update({ type: 'statisticset', ...VALID.statisticset, extra: 'x' });
    expect(envelope(await get('statisticset')).data).toEqual(VALID.statisticset);
  });

  it('feeds the auth lockout: login_fail_limit and login_lock_minutes apply to the next login', async () => {
    await update({ type: 'normalset', ...VALID.normalset, login_fail_limit: 2, login_lock_minutes: 7 });
    const u = await createUser(t.db);
    for (let i = 0; i < 2; i++) await login(t.app, u.username, 'Wrong@123').catch(() => undefined);
    await expect(login(t.app, u.username, u.password)).rejects.toThrow(
      '423 该账号登录失败次数过多，已被锁定，请 7 分钟后再试',
    );
    await update({ type: 'normalset', ...VALID.normalset });
  });
});

describe('play_get, play_update, map_get', () => {
  it('needs a session; play_update needs edit on dispatch config', async () => {
    for (const api of [Api.playGet, Api.mapConfig]) {
      expect(envelope(await t.app.inject({ method: 'GET', url: api.path }))).toMatchObject({ code: 401 });
    }
    expect(
      envelope(await t.app.inject({ method: 'POST', url: Api.playUpdate.path, payload: { video_live_num: 4 } })),
    ).toMatchObject({
      code: 401,
    });
    expect(
      envelope(
        await t.app.inject({
          method: 'POST',
          url: Api.playUpdate.path,
          headers: dispatcher.headers,
          payload: { video_live_num: 4 },
        }),
      ),
    ).toEqual({ code: 403, msg: '没有权限：需要菜单 10003 的“编辑”权限', data: null });
  });

  it('defaults to DEFAULT_VIDEO_LIVE_NUM, validates and stores video_live_num, and map_get carries it', async () => {
    const play = () => t.app.inject({ method: 'GET', url: Api.playGet.path, headers: dispatcher.headers });
    expect(envelope(await play())).toEqual({
      code: 200,
      msg: '操作成功',
      data: { video_live_num: DEFAULT_VIDEO_LIVE_NUM },
    });
    const post = (payload: unknown, headers = admin.headers) =>
      t.app.inject({ method: 'POST', url: Api.playUpdate.path, headers, payload: payload as Record<string, unknown> });
    expect(envelope(await post({ video_live_num: 17 }))).toEqual({
      code: 400,
      msg: '字段 video_live_num：取值范围为 1 到 16',
      data: null,
    });
    expect(envelope(await post({ video_live_num: 'many' }, { ...admin.headers, ...EN }))).toEqual({
      code: 400,
      msg: 'Video live num must be a number.',
      data: null,
    });
    expect(envelope(await play()).data).toEqual({ video_live_num: DEFAULT_VIDEO_LIVE_NUM });
    expect(envelope(await post({ video_live_num: 16 }))).toEqual({
      code: 200,
      msg: '保存成功',
      data: { video_live_num: 16 },
    });
    expect(envelope(await play()).data).toEqual({ video_live_num: 16 });

    await update({ type: 'digitailmap', ...VALID.digitailmap });
    const map = envelope(await t.app.inject({ method: 'GET', url: Api.mapConfig.path, headers: dispatcher.headers }));
    expect(map).toEqual({
      code: 200,
      msg: '操作成功',
      data: {
        mapinfo: 1,
        gpscenter_lon: 113.2644,
        gpscenter_lat: 23.1291,
        map_url: 'https://tiles.example/{z}/{x}/{y}.png',
        map_crs: 'GCJ02',
        video: { getvideo_switch: 0, getvideo_time: 120, getvideo_num: 2, getvideo_path: 'alarm/video', getpic_path: 'alarm/picture' },
        live_num: 16,
        sos_alarm_audio: '',
        alerm_face: 0,
        // the console-service account handed to this console user (spec part 2 section 3 GIS info)
        group_api: {
          switch: 1,
          ip: expect.any(String),
          port: expect.any(Number),
          path: '/ws/console',
          orgid: expect.stringMatching(/^\d+$/),
          username: 'dispatcher',
          djpwd: expect.stringMatching(/^[\w-]{20,}$/),
          islogin: 0,
        },
      },
    });
    expect((await auditRows(t.db, Api.playUpdate.path))[0]).toMatchObject({ target: 'play', result_code: 200 });
  });

  it('map_get carries the alarm bell sound of the alarmset settings', async () => {
    const audio = '/sounds/sos-bell.mp3';
    expect(
      envelope(await update({ type: 'alarmset', sos_alarm_time: 45, sos_alarm_audio: audio, type_levels: {} })),
    ).toMatchObject({ code: 200 });
    const map = envelope(await t.app.inject({ method: 'GET', url: Api.mapConfig.path, headers: dispatcher.headers }));
    expect(map).toMatchObject({ code: 200, data: { sos_alarm_audio: audio } });
  });
});

describe('upload_background and GET /rest/index/index/background', () => {
  it('needs a session and edit on system settings', async () => {
    expect(envelope(await upload(imageForm(PNG, 'bg.png'), {}))).toMatchObject({ code: 401 });
    expect(envelope(await upload(imageForm(PNG, 'bg.png'), dispatcher.headers))).toEqual({
      code: 403,
      msg: '没有权限：需要菜单 10002 的“编辑”权限',
      data: null,
    });
  });

  it('answers 404 while no background is configured', async () => {
    expect(envelope(await t.app.inject({ method: 'GET', url: Api.background.path }))).toEqual({
      code: 404,
      msg: '文件不存在',
      data: null,
    });
  });

  it('rejects wrong types, disguised content, a missing file and too large uploads, leaving nothing behind', async () => {
    expect(envelope(await upload(imageForm(Buffer.from('hello'), 'notes.txt')))).toEqual({
      code: 400,
      msg: '字段 file：文件类型不允许',
      data: null,
    });
    expect(
      envelope(await upload(imageForm(Buffer.from('<svg/> not an image'), 'fake.png'), { ...admin.headers, ...EN })),
    ).toEqual({
      code: 400,
      msg: 'Field file: This file type is not allowed.',
      data: null,
    });
    expect(envelope(await upload(imageForm(GIF, 'animated.png')))).toMatchObject({ msg: '字段 file：文件类型不允许' });
    expect(envelope(await upload(new FormData()))).toEqual({ code: 400, msg: '字段 file：请选择文件', data: null });
    const big = Buffer.concat([PNG, Buffer.alloc(UPLOAD_LIMIT_MB.background * MB + 1)]);
    expect(envelope(await upload(imageForm(big, 'big.png')))).toEqual({
      code: 400,
      msg: `字段 file：文件大小不能超过 ${UPLOAD_LIMIT_MB.background} MB`,
      data: null,
    });
    expect(envelope(await get('backset')).data).toEqual({ background_path: '' });
    expect(filesIn(backgroundDir())).toEqual([]);
    expect(filesIn(join(backgroundDir(), '.tmp'))).toEqual([]);
  });

  it('stores the image under DATA_DIR with a generated name, saves the path into backset, serves it publicly', async () => {
    const res = envelope<{ background_path: string }>(await upload(imageForm(PNG, '../../evil name.png')));
    expect(res).toMatchObject({ code: 200, msg: '上传成功' });
    expect(res.data.background_path).toMatch(/^backgrounds\/[0-9a-f-]{36}\.png$/);
    expect(envelope(await get('backset')).data).toEqual(res.data);
    expect(envelope(await t.app.inject({ method: 'GET', url: Api.pageInfo.path }))).toMatchObject({
      data: { background_path: res.data.background_path },
    });
    const image = await t.app.inject({ method: 'GET', url: `${Api.background.path}?v=${res.data.background_path}` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    expect((await auditRows(t.db, Api.uploadBackground.path))[0]).toMatchObject({
      target: 'backset',
      result_code: 200,
    });

    // a second upload replaces the first; the old file is gone once the new path is saved
    const next = envelope<{ background_path: string }>(await upload(imageForm(GIF, 'b.gif')));
    expect(next.code).toBe(200);
    expect(filesIn(backgroundDir())).toEqual([next.data.background_path.split('/')[1]]);
    expect((await t.app.inject({ method: 'GET', url: Api.background.path })).headers['content-type']).toBe('image/gif');

    // system_update may keep or clear the path, never point it elsewhere
    expect(envelope(await update({ type: 'backset', background_path: 'backgrounds/../../bwc.db' }))).toEqual({
      code: 400,
      msg: '字段 background_path：请先上传背景图片',
      data: null,
    });
    expect(envelope(await update({ type: 'backset', ...next.data }))).toMatchObject({ code: 200 });
    expect(envelope(await update({ type: 'backset', background_path: '' }))).toMatchObject({ code: 200 });
    expect(filesIn(backgroundDir())).toEqual([]);
    expect(envelope(await t.app.inject({ method: 'GET', url: Api.background.path }))).toMatchObject({ code: 404 });
  });
});
