import { Api, AnnounceStatus, MenuId, type Announcement, type Page } from '@bwc/protocol';
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
/** view only on announcements (demo dispatcher) */
let dispatcher: Session;
/** no permission on announcements at all */
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
const post = (api: { path: string }, payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'POST', url: api.path, headers, payload: payload as Record<string, unknown> });
const getJson = (url: string, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'GET', url, headers });

async function addAnnouncement(title: string, content = `${title} 的内容`): Promise<Announcement> {
  const res = envelope<Announcement>(await post(Api.announceAdd, { title, content }));
  expect(res.code).toBe(200);
  return res.data;
}

describe('announcements: unauthenticated', () => {
  it('answers 401 on every endpoint without a session', async () => {
    const calls = [
      post(Api.announceList, {}, {}),
      getJson(`${Api.announceGetById.path}?id=1`, {}),
      getJson(Api.announcePublished.path, {}),
      post(Api.announceAdd, { title: 'a', content: 'b' }, {}),
      post(Api.announceUpdateGet, { id: 1 }, {}),
      post(Api.announceUpdatePost, { id: 1, title: 'a', content: 'b' }, {}),
      post(Api.announceDelete, { ids: [1] }, {}),
      post(Api.announcePublish, { ids: [1] }, {}),
    ];
    for (const res of await Promise.all(calls))
      expect(envelope(res)).toEqual({ code: 401, msg: '请先登录', data: null });
  });
});

describe('announcements: permissions', () => {
  it('refuses add without add permission and edits without edit permission (view-only dispatcher)', async () => {
    expect(envelope(await post(Api.announceAdd, { title: '通知', content: '内容' }, dispatcher.headers))).toEqual({
      code: 403,
      msg: '没有权限：需要菜单 10004 的“新增”权限',
      data: null,
    });
    expect(
      envelope(await post(Api.announceAdd, { title: '通知', content: '内容' }, { ...dispatcher.headers, ...EN })),
    ).toEqual({
      code: 403,
      msg: 'Permission denied: this needs "add" on menu 10004',
      data: null,
    });
    const a = await addAnnouncement('权限测试');
    for (const [api, payload] of [
      [Api.announceUpdateGet, { id: a.id }],
      [Api.announceUpdatePost, { id: a.id, title: 'x', content: 'y' }],
      [Api.announceDelete, { ids: [a.id] }],
      [Api.announcePublish, { ids: [a.id] }],
    ] as const) {
      expect(envelope(await post(api, payload, dispatcher.headers))).toEqual({
        code: 403,
        msg: '没有权限：需要菜单 10004 的“编辑”权限',
        data: null,
      });
    }
    expect(envelope(await post(Api.announceList, {}, plain.headers))).toMatchObject({
      code: 403,
      msg: '没有权限：需要菜单 10004 的“查看”权限',
    });
    // nothing changed: still a draft with its title
    expect(envelope<Announcement>(await post(Api.announceUpdateGet, { id: a.id })).data).toMatchObject({
      title: '权限测试',
      status: 0,
    });
  });

  it('a user with add but not edit may add, not publish', async () => {
    const roleId = await createRole(t.db, 'announce_writer', [
      { ids: [MenuId.ANNOUNCEMENTS], actions: ['view', 'add'] },
    ]);
    const u = await createUser(t.db, { roleId, hostname: '张三' });
    const s = await login(t.app, u.username, u.password);
    const res = envelope<Announcement>(
      await post(Api.announceAdd, { title: '撰写者的公告', content: '正文' }, s.headers),
    );
    expect(res).toMatchObject({ code: 200, msg: '新增成功', data: { author: '张三', status: AnnounceStatus.DRAFT } });
    expect(envelope(await post(Api.announcePublish, { ids: [res.data.id] }, s.headers))).toMatchObject({ code: 403 });
  });

  it('get_by_id: drafts need view on 10004, published ones are readable by every logged-in user', async () => {
    const a = await addAnnouncement('草稿与发布');
    expect(envelope(await getJson(`${Api.announceGetById.path}?id=${a.id}`, plain.headers))).toEqual({
      code: 403,
      msg: '没有权限：需要菜单 10004 的“查看”权限',
      data: null,
    });
    expect(envelope(await getJson(`${Api.announceGetById.path}?id=${a.id}`, dispatcher.headers))).toMatchObject({
      code: 200,
      data: { id: a.id, status: 0 },
    });
    await post(Api.announcePublish, { ids: [a.id] });
    expect(envelope(await getJson(`${Api.announceGetById.path}?id=${a.id}`, plain.headers))).toMatchObject({
      code: 200,
      data: { id: a.id, title: '草稿与发布', status: 1 },
    });
  });
});

describe('announcements: bad input names the field and changes nothing', () => {
  it('add: missing, empty, too long, wrong type, unknown id', async () => {
    const before = envelope<Page<Announcement>>(await post(Api.announceList, {})).data.total;
    const bad: [unknown, string][] = [
      [{ content: '内容' }, '字段 title：不能为空'],
      [{ title: '   ', content: '内容' }, '字段 title：不能为空'],
      [{ title: '标'.repeat(101), content: '内容' }, '字段 title：长度超出限制'],
      [{ title: 42, content: '内容' }, '字段 title：类型不正确'],
      [{ title: '标题' }, '字段 content：不能为空'],
      [{ title: '标题', content: 'x'.repeat(5001) }, '字段 content：长度超出限制'],
    ];
    for (const [payload, msg] of bad)
      expect(envelope(await post(Api.announceAdd, payload))).toEqual({ code: 400, msg, data: null });
    expect(envelope(await post(Api.announceAdd, { content: 'x' }, { ...admin.headers, ...EN }))).toEqual({
      code: 400,
      msg: 'Title is required.',
      data: null,
    });
    expect(envelope<Page<Announcement>>(await post(Api.announceList, {})).data.total).toBe(before);
  });

  it('update_post, update_get, get_by_id, delete, publish: bad ids', async () => {
    const a = await addAnnouncement('原标题');
    expect(envelope(await post(Api.announceUpdatePost, { id: a.id, title: '', content: '新内容' }))).toEqual({
      code: 400,
      msg: '字段 title：不能为空',
      data: null,
    });
    expect(envelope(await post(Api.announceUpdatePost, { id: 'abc', title: 't', content: 'c' }))).toMatchObject({
      code: 400,
      msg: '字段 id：必须是数字',
    });
    expect(envelope(await post(Api.announceUpdatePost, { id: 999999, title: 't', content: 'c' }))).toEqual({
      code: 404,
      msg: '公告不存在',
      data: null,
    });
    expect(envelope(await post(Api.announceUpdateGet, { id: 999999 }, { ...admin.headers, ...EN }))).toMatchObject({
      code: 404,
    });
    expect(envelope(await getJson(`${Api.announceGetById.path}?id=x`))).toMatchObject({
      code: 400,
      msg: '字段 id：必须是数字',
    });
    expect(envelope(await post(Api.announceDelete, { ids: [] }))).toEqual({
      code: 400,
      msg: '字段 ids：不能为空',
      data: null,
    });
    expect(envelope(await post(Api.announceDelete, {}))).toEqual({ code: 400, msg: '字段 ids：不能为空', data: null });
    expect(envelope(await post(Api.announcePublish, { ids: 'all' }))).toMatchObject({
      code: 400,
      msg: '字段 ids：类型不正确',
    });
    // one unknown id: nothing is deleted or published
    expect(envelope(await post(Api.announceDelete, { ids: [a.id, 999999] }))).toEqual({
      code: 404,
      msg: '公告不存在',
      data: null,
    });
    expect(envelope(await post(Api.announcePublish, { ids: [a.id, 999999] }))).toMatchObject({ code: 404 });
    expect(envelope<Announcement>(await post(Api.announceUpdateGet, { id: a.id })).data).toMatchObject({
      title: '原标题',
      status: 0,
    });
  });
});

describe('announcements: success paths', () => {
  it('add -> update_get -> update_post -> publish -> published -> delete, each audited', async () => {
    const a = await addAnnouncement('系统升级通知', '今晚 22:00 系统升级');
    expect(a).toMatchObject({
      title: '系统升级通知',
      content: '今晚 22:00 系统升级',
      status: 0,
      author: '系统管理员',
      publish_time: null,
    });
    expect(a.create_time).toBe(a.update_time);

    expect(envelope(await post(Api.announceUpdateGet, { id: a.id }))).toEqual({ code: 200, msg: '操作成功', data: a });
    const updated = envelope<Announcement>(
      await post(Api.announceUpdatePost, { id: a.id, title: '系统升级通知（更新）', content: '改到 23:00' }),
    );
    expect(updated).toMatchObject({
      code: 200,
      msg: '修改成功',
      data: { id: a.id, title: '系统升级通知（更新）', content: '改到 23:00', status: 0 },
    });
    expect(envelope<Announcement>(await post(Api.announceUpdateGet, { id: a.id })).data.title).toBe(
      '系统升级通知（更新）',
    );

    expect(envelope(await post(Api.announcePublish, { ids: [a.id] }))).toEqual({
      code: 200,
      msg: '发布成功',
      data: null,
    });
    const published = envelope<Announcement>(await post(Api.announceUpdateGet, { id: a.id })).data;
    expect(published.status).toBe(1);
    expect(published.publish_time).not.toBeNull();
    // publishing again keeps the first publication time
    await post(Api.announcePublish, { ids: [a.id, a.id] });
    expect(envelope<Announcement>(await post(Api.announceUpdateGet, { id: a.id })).data.publish_time).toBe(
      published.publish_time,
    );

    const feed = envelope<Page<Announcement>>(await getJson(Api.announcePublished.path, plain.headers));
    expect(feed.code).toBe(200);
    expect(feed.data.list.map((x) => x.id)).toContain(a.id);
    expect(feed.data.list.every((x) => x.status === 1)).toBe(true);

    expect(envelope(await post(Api.announceDelete, { ids: [a.id] }, { ...admin.headers, ...EN }))).toEqual({
      code: 200,
      msg: 'Deleted successfully',
      data: null,
    });
    expect(envelope(await post(Api.announceUpdateGet, { id: a.id }))).toMatchObject({ code: 404, msg: '公告不存在' });

    expect((await auditRows(t.db, Api.announceAdd.path)).find((r) => r.target === String(a.id))).toMatchObject({
      username: 'admin',
      result_code: 200,
      msg: '新增成功',
    });
    expect((await auditRows(t.db, Api.announceUpdatePost.path))[0]).toMatchObject({
      target: String(a.id),
      result_code: 200,
    });
    expect((await auditRows(t.db, Api.announcePublish.path))[0]).toMatchObject({ target: `${a.id},${a.id}` });
    expect((await auditRows(t.db, Api.announceDelete.path))[0]).toMatchObject({
      target: String(a.id),
      msg: 'Deleted successfully',
    });
    expect(await auditRows(t.db, Api.announceUpdateGet.path)).toEqual([]);
  });

  it('get: keyword and status filters with paging', async () => {
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await addAnnouncement(`分页Keyword_${i}`)).id);
    await addAnnouncement('100%_literal');
    await post(Api.announcePublish, { ids: ids.slice(0, 2) });

    const page1 = envelope<Page<Announcement>>(
      await post(Api.announceList, { keyword: 'keyword_', page: 1, limit: 2 }),
    );
    expect(page1).toMatchObject({ code: 200, data: { total: 5, page: 1, limit: 2 } });
    expect(page1.data.list.map((a) => a.id)).toEqual([ids[4], ids[3]]);
    const page3 = envelope<Page<Announcement>>(
      await post(Api.announceList, { keyword: 'keyword_', page: 3, limit: 2 }),
    );
    expect(page3.data.list.map((a) => a.id)).toEqual([ids[0]]);

    const published = envelope<Page<Announcement>>(await post(Api.announceList, { keyword: '分页', status: 1 }));
    expect(published.data.list.map((a) => a.id).sort()).toEqual(ids.slice(0, 2).sort());
    const drafts = envelope<Page<Announcement>>(await post(Api.announceList, { keyword: '分页', status: 0 }));
    expect(drafts.data.total).toBe(3);
    // % and _ are literal characters in a keyword
    expect(
      envelope<Page<Announcement>>(await post(Api.announceList, { keyword: '0%_' })).data.list.map((a) => a.title),
    ).toEqual(['100%_literal']);
    expect(envelope(await post(Api.announceList, { status: 2 }))).toMatchObject({
      code: 400,
      msg: '字段 status：超出允许范围',
    });
    expect(envelope(await post(Api.announceList, { limit: 101 }))).toMatchObject({
      code: 400,
      msg: '字段 limit：超出允许范围',
    });
    expect(envelope(await post(Api.announceList, { keyword: 'k'.repeat(101) }))).toMatchObject({
      code: 400,
      msg: '字段 keyword：长度超出限制',
    });

    const paged = envelope<Page<Announcement>>(
      await getJson(`${Api.announcePublished.path}?page=1&limit=1`, plain.headers),
    );
    expect(paged.data).toMatchObject({ page: 1, limit: 1 });
    expect(paged.data.list).toHaveLength(1);
    expect(paged.data.list[0]!.id).toBe(ids[1]);
  });
});
