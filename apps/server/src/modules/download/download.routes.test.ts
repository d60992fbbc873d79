import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Api, type DownloadEntry, type Page } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
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
/** view only on downloads (demo dispatcher) */
let dispatcher: Session;
/** no permission on downloads */
let plain: Session;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  const u = await createUser(t.db);
  plain = await login(t.app, u.username, u.password);
});
afterAll(async () => t.close());

const EN = { 'x-lang': 'en-US' };

function form(fields: Record<string, string | number>, file?: { content: Buffer | string; name: string }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, String(v));
  if (file) f.append('file', new Blob([file.content]), file.name);
  return f;
}
const send = (
  api: { path: string },
  payload: FormData | Record<string, unknown>,
  headers: Record<string, string> = admin.headers,
) => t.app.inject({ method: 'POST', url: api.path, headers, payload });
const get = (url: string, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'GET', url, headers });

const storeDir = () => join(t.config.dataDir, 'downloads');
const storedFiles = () =>
  existsSync(storeDir())
    ? readdirSync(storeDir(), { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort()
    : [];
const tmpFiles = () => (existsSync(join(storeDir(), '.tmp')) ? readdirSync(join(storeDir(), '.tmp')) : []);
const rowCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('downloads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function addEntry(
  name: string,
  file = { content: `${name} content`, name: `${name}.zip` },
  extra: Record<string, string | number> = {},
) {
  const res = envelope<DownloadEntry>(await send(Api.downloadAdd, form({ name, ...extra }, file)));
  expect(res.code).toBe(200);
  return res.data;
}

describe('downloads: unauthenticated', () => {
  it('answers 401 on every endpoint without a session', async () => {
    const calls = [
      get(Api.downloadList.path, {}),
      get(Api.downloadCenter.path, {}),
      get(`${Api.downloadFile.path}?id=1`, {}),
      send(Api.downloadAdd, form({ name: 'a' }, { content: 'x', name: 'a.txt' }), {}),
      send(Api.downloadUpdate, form({ id: 1, name: 'a' }), {}),
      send(Api.downloadDelete, { ids: [1] }, {}),
      send(Api.downloadIsIndex, { id: 1, is_index: 1 }, {}),
    ];
    for (const res of await Promise.all(calls))
      expect(envelope(res)).toEqual({ code: 401, msg: '请先登录', data: null });
    expect(storedFiles()).toEqual([]);
  });
});

describe('downloads: permissions', () => {
  it('view-only users may list but not add or edit; users without view may not list; everyone reads the center', async () => {
    expect(
      envelope(await send(Api.downloadAdd, form({ name: 'x' }, { content: 'x', name: 'x.txt' }), dispatcher.headers)),
    ).toEqual({
      code: 403,
      msg: '没有权限：需要菜单 10005 的“新增”权限',
      data: null,
    });
    const entry = await addEntry('权限');
    for (const [api, payload] of [
      [Api.downloadUpdate, form({ id: entry.id, name: 'y' })],
      [Api.downloadDelete, { ids: [entry.id] }],
      [Api.downloadIsIndex, { id: entry.id, is_index: 1 }],
    ] as const) {
      expect(envelope(await send(api, payload, dispatcher.headers))).toEqual({
        code: 403,
        msg: '没有权限：需要菜单 10005 的“编辑”权限',
        data: null,
      });
    }
    expect(envelope(await get(Api.downloadList.path, dispatcher.headers))).toMatchObject({ code: 200 });
    expect(envelope(await get(Api.downloadList.path, { ...plain.headers, ...EN }))).toEqual({
      code: 403,
      msg: 'Permission denied: this needs "view" on menu 10005',
      data: null,
    });
    expect(
      envelope<DownloadEntry[]>(await get(Api.downloadCenter.path, plain.headers)).data.map((d) => d.id),
    ).toContain(entry.id);
    const file = await get(entry.url, plain.headers);
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('权限 content');
    expect(envelope<DownloadEntry>(await get(`${Api.downloadList.path}?keyword=权限`)).data).toMatchObject({
      total: 1,
    });
  });
});

describe('downloads: bad input names the field and leaves no row and no file', () => {
  it('add: missing or long fields, wrong type, wrong file type, missing file, not multipart', async () => {
    const rows = await rowCount();
    const files = storedFiles();
    const bad: [FormData | Record<string, unknown>, string][] = [
      [form({}, { content: 'x', name: 'a.txt' }), '字段 name：不能为空'],
      [form({ name: '   ' }, { content: 'x', name: 'a.txt' }), '字段 name：不能为空'],
      [form({ name: 'n'.repeat(101) }, { content: 'x', name: 'a.txt' }), '字段 name：长度超出限制'],
      [form({ name: 'n', version: 'v'.repeat(51) }, { content: 'x', name: 'a.txt' }), '字段 version：长度超出限制'],
      [form({ name: 'n', is_index: 'yes' }, { content: 'x', name: 'a.txt' }), '字段 is_index：必须是数字'],
      [form({ name: 'n' }, { content: '#!/bin/sh', name: 'tool.sh' }), '字段 file：文件类型不允许'],
      [form({ name: 'n' }, { content: 'x', name: 'noextension' }), '字段 file：文件类型不允许'],
      [form({ name: 'n' }, { content: '', name: 'empty.txt' }), '字段 file：请选择文件'],
      [form({ name: 'n' }), '字段 file：请选择文件'],
      [{ name: 'n' }, '请求内容格式不正确'],
    ];
    for (const [payload, msg] of bad)
      expect(envelope(await send(Api.downloadAdd, payload))).toEqual({ code: 400, msg, data: null });
    expect(
      envelope(
        await send(Api.downloadAdd, form({ name: 'n' }, { content: 'x', name: 'a.bat' }), { ...admin.headers, ...EN }),
      ),
    ).toEqual({
      code: 400,
      msg: 'Field file: This file type is not allowed.',
      data: null,
    });
    expect(await rowCount()).toBe(rows);
    expect(storedFiles()).toEqual(files);
    expect(tmpFiles()).toEqual([]);
    const failed = (await auditRows(t.db, Api.downloadAdd.path))[0];
    expect(failed).toMatchObject({
      username: 'admin',
      result_code: 400,
      msg: 'Field file: This file type is not allowed.',
    });
  });

  it('update_post, del, is_index_post, file: bad ids and values change nothing', async () => {
    const entry = await addEntry('不变', { content: 'original', name: 'orig.txt' });
    const files = storedFiles();
    expect(
      envelope(await send(Api.downloadUpdate, form({ id: 999999, name: 'x' }, { content: 'new', name: 'new.txt' }))),
    ).toEqual({
      code: 404,
      msg: '下载项不存在',
      data: null,
    });
    expect(
      envelope(await send(Api.downloadUpdate, form({ id: entry.id, name: '' }, { content: 'new', name: 'new.txt' }))),
    ).toEqual({
      code: 400,
      msg: '字段 name：不能为空',
      data: null,
    });
    expect(
      envelope(await send(Api.downloadUpdate, form({ id: entry.id, name: 'x' }, { content: 'new', name: 'new.js' }))),
    ).toEqual({
      code: 400,
      msg: '字段 file：文件类型不允许',
      data: null,
    });
    expect(envelope(await send(Api.downloadUpdate, form({ name: 'x' })))).toMatchObject({
      code: 400,
      msg: '字段 id：必须是数字',
    });
    expect(envelope(await send(Api.downloadDelete, { ids: [entry.id, 999999] }))).toEqual({
      code: 404,
      msg: '下载项不存在',
      data: null,
    });
    expect(envelope(await send(Api.downloadDelete, { ids: [] }))).toEqual({
      code: 400,
      msg: '字段 ids：不能为空',
      data: null,
    });
    expect(envelope(await send(Api.downloadIsIndex, { id: entry.id, is_index: 2 }))).toEqual({
      code: 400,
      msg: '字段 is_index：超出允许范围',
      data: null,
    });
    expect(envelope(await send(Api.downloadIsIndex, { id: entry.id }))).toMatchObject({
      code: 400,
      msg: '字段 is_index：必须是数字',
    });
    expect(envelope(await send(Api.downloadIsIndex, { id: 999999, is_index: 1 }))).toMatchObject({ code: 404 });
    expect(envelope(await get(`${Api.downloadFile.path}?id=999999`))).toEqual({
      code: 404,
      msg: '下载项不存在',
      data: null,
    });
    expect(envelope(await get(`${Api.downloadFile.path}?id=abc`))).toMatchObject({
      code: 400,
      msg: '字段 id：必须是数字',
    });
    expect(envelope(await get(`${Api.downloadList.path}?is_index=3`))).toMatchObject({
      code: 400,
      msg: '字段 is_index：超出允许范围',
    });

    expect(storedFiles()).toEqual(files);
    expect(tmpFiles()).toEqual([]);
    const row = await t.db.selectFrom('downloads').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: '不变', file_name: 'orig.txt', is_index: 0 });
    expect((await get(entry.url)).body).toBe('original');
  });
});

describe('downloads: success paths', () => {
  it('add stores the file under a generated name with its sha256 and streams it back with content-disposition', async () => {
    const content = Buffer.from('执法记录仪客户端安装包'.repeat(100));
    const res = envelope<DownloadEntry>(
      await send(
        Api.downloadAdd,
        form(
          { name: '客户端', description: '最新版本', version: 'V2.1', is_index: 1 },
          { content, name: '../../执法 客户端 v2.zip' },
        ),
      ),
    );
    expect(res).toMatchObject({
      code: 200,
      msg: '新增成功',
      data: {
        name: '客户端',
        description: '最新版本',
        version: 'V2.1',
        is_index: 1,
        file_name: '执法 客户端 v2.zip',
        file_size: content.length,
      },
    });
    const entry = res.data;
    expect(entry.url).toBe(`${Api.downloadFile.path}?id=${entry.id}`);
    const row = await t.db.selectFrom('downloads').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow();
    expect(row.sha256).toBe(createHash('sha256').update(content).digest('hex'));
    expect(row.stored_name).toMatch(/^[0-9a-f-]{36}\.zip$/);
    expect(storedFiles()).toContain(row.stored_name);
    expect(Object.keys(entry)).not.toContain('stored_name');
    expect((await auditRows(t.db, Api.downloadAdd.path))[0]).toMatchObject({
      target: String(entry.id),
      result_code: 200,
    });

    const file = await get(entry.url, dispatcher.headers);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="__ ___ v2.zip"; filename*=UTF-8''${encodeURIComponent('执法 客户端 v2.zip')}`,
    );
    expect(file.headers['content-length']).toBe(String(content.length));
    expect(file.headers['accept-ranges']).toBe('bytes');
    expect(file.rawPayload.equals(content)).toBe(true);

    const part = await t.app.inject({
      method: 'GET',
      url: entry.url,
      headers: { ...admin.headers, range: 'bytes=3-8' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 3-8/${content.length}`);
    expect(part.rawPayload.equals(content.subarray(3, 9))).toBe(true);
    const tail = await t.app.inject({
      method: 'GET',
      url: entry.url,
      headers: { ...admin.headers, range: 'bytes=-4' },
    });
    expect(tail.rawPayload.equals(content.subarray(content.length - 4))).toBe(true);
    const beyond = await t.app.inject({
      method: 'GET',
      url: entry.url,
      headers: { ...admin.headers, range: `bytes=${content.length}-` },
    });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${content.length}`);
  });

  it('update_post without a file keeps it; with a file swaps it and removes the old one only afterwards', async () => {
    const entry = await addEntry('更新', { content: 'v1', name: 'v1.txt' });
    const oldStored = (
      await t.db.selectFrom('downloads').select('stored_name').where('id', '=', entry.id).executeTakeFirstOrThrow()
    ).stored_name;

    const fieldsOnly = envelope<DownloadEntry>(
      await send(Api.downloadUpdate, form({ id: entry.id, name: '更新后', version: '1.1' })),
    );
    expect(fieldsOnly).toMatchObject({
      code: 200,
      msg: '修改成功',
      data: { name: '更新后', version: '1.1', file_name: 'v1.txt' },
    });
    expect((await get(entry.url)).body).toBe('v1');

    const swapped = envelope<DownloadEntry>(
      await send(
        Api.downloadUpdate,
        form({ id: entry.id, name: '更新后' }, { content: 'version two', name: 'v2.pdf' }),
      ),
    );
    expect(swapped).toMatchObject({ code: 200, data: { file_name: 'v2.pdf', file_size: 11 } });
    expect((await get(entry.url)).body).toBe('version two');
    expect(storedFiles()).not.toContain(oldStored);
    expect((await auditRows(t.db, Api.downloadUpdate.path))[0]).toMatchObject({
      target: String(entry.id),
      result_code: 200,
    });
  });

  it('list filters by keyword and is_index with paging; is_index_post toggles; center lists all; del removes rows then files', async () => {
    const a = await addEntry('列表Alpha');
    const b = await addEntry('列表Beta');
    const c = await addEntry('列表Gamma');
    expect(envelope<DownloadEntry>(await send(Api.downloadIsIndex, { id: b.id, is_index: 1 }))).toMatchObject({
      code: 200,
      msg: '保存成功',
      data: { id: b.id, is_index: 1 },
    });

    const page = envelope<Page<DownloadEntry>>(await get(`${Api.downloadList.path}?keyword=列表&page=1&limit=2`));
    expect(page.data).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(page.data.list.map((d) => d.id)).toEqual([c.id, b.id]);
    const flagged = envelope<Page<DownloadEntry>>(await get(`${Api.downloadList.path}?keyword=列表&is_index=1`));
    expect(flagged.data.list.map((d) => d.id)).toEqual([b.id]);
    expect(
      envelope<Page<DownloadEntry>>(await get(`${Api.downloadList.path}?keyword=alpha`)).data.list.map((d) => d.id),
    ).toEqual([a.id]);

    const center = envelope<DownloadEntry[]>(await get(Api.downloadCenter.path, dispatcher.headers)).data.map(
      (d) => d.id,
    );
    expect(center).toEqual(expect.arrayContaining([a.id, b.id, c.id]));

    const stored = (
      await t.db.selectFrom('downloads').select('stored_name').where('id', 'in', [a.id, c.id]).execute()
    ).map((r) => r.stored_name);
    expect(envelope(await send(Api.downloadDelete, { ids: [a.id, c.id] }))).toEqual({
      code: 200,
      msg: '删除成功',
      data: null,
    });
    for (const s of stored) expect(storedFiles()).not.toContain(s);
    expect(envelope(await get(a.url))).toMatchObject({ code: 404 });
    expect(envelope<Page<DownloadEntry>>(await get(`${Api.downloadList.path}?keyword=列表`)).data.total).toBe(1);
    expect((await auditRows(t.db, Api.downloadDelete.path))[0]).toMatchObject({
      target: `${a.id},${c.id}`,
      result_code: 200,
    });
  });
});
