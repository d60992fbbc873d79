import { Api, HOME_ANNOUNCE_COUNT, type Announcement, type DownloadEntry, type HomeData } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, DEMO, envelope, login, type Session, type TestApp } from '../../../test/helpers';

let t: TestApp;
let admin: Session;
let plain: Session;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const u = await createUser(t.db);
  plain = await login(t.app, u.username, u.password);
});
afterAll(async () => t.close());

const home = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: Api.home.path, headers });
const post = (path: string, payload: FormData | Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: path, headers: admin.headers, payload });

describe('GET /rest/index/index/home', () => {
  it('answers 401 without a session', async () => {
    expect(envelope(await home({}))).toEqual({ code: 401, msg: '请先登录', data: null });
    expect(envelope(await home({ 'x-lang': 'en-US' }))).toEqual({ code: 401, msg: 'Please log in first', data: null });
  });

  it('is empty on a fresh installation', async () => {
    expect(envelope(await home(plain.headers))).toEqual({
      code: 200,
      msg: '操作成功',
      data: { announcements: [], downloads: [] },
    });
  });

  it('lists the latest published announcements (no drafts) and the downloads flagged is_index, for any logged-in user', async () => {
    const ids: number[] = [];
    for (let i = 0; i < HOME_ANNOUNCE_COUNT + 2; i++) {
      ids.push(
        envelope<Announcement>(await post(Api.announceAdd.path, { title: `公告${i}`, content: '内容' })).data.id,
      );
    }
    const draft = envelope<Announcement>(await post(Api.announceAdd.path, { title: '草稿', content: '内容' })).data.id;
    for (const id of ids) await post(Api.announcePublish.path, { ids: [id] });

    const entry = async (name: string, isIndex: number) => {
      const f = new FormData();
      f.append('name', name);
      f.append('is_index', String(isIndex));
      f.append('file', new Blob(['data']), `${name}.zip`);
      return envelope<DownloadEntry>(await post(Api.downloadAdd.path, f)).data;
    };
    const shown = await entry('首页显示', 1);
    await entry('不显示', 0);

    const data = envelope<HomeData>(await home(plain.headers)).data;
    expect(data.announcements).toHaveLength(HOME_ANNOUNCE_COUNT);
    expect(data.announcements.map((a) => a.id)).not.toContain(draft);
    expect(data.announcements[0]!.id).toBe(ids[ids.length - 1]);
    expect(data.announcements.every((a) => a.status === 1)).toBe(true);
    expect(data.downloads).toEqual([shown]);
  });
});
