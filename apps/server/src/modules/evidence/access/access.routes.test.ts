import {
  Api,
  MenuId,
  ResultCode,
  SHARE_LOCK_MS,
  SHARE_PASSWORD_TRIES,
  type AccessDetail,
  type AccessRequest,
  type MediaDetail,
  type MediaItem,
  type Page,
  type ShareAddAnswer,
  type ShareLink,
  type ShareOpenAnswer,
} from '@bwc/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { unitIdOf } from '../../../../test/devices';
import { createRole, createTestApp, createUser, login, type Session, type TestApp } from '../../../../test/helpers';
import { insertItem, makeMp4, PNG } from '../library/library.fixture';
import { DAY_MS } from '../library/library.service';

let t: TestApp;
/** evidence desk (view/edit) in Futian: the requester */
let futianUser: Session;
/** evidence desk in Luohu: the approver */
let luohuDesk: Session;
/** only view on law media in Luohu: cannot approve */
let luohuViewer: Session;
let futian: number;
let luohu: number;
const items = {} as Record<'a' | 'b' | 'old' | 'own', { id: number; sha256: string }>;

const setClock = (offsetMs: number) => {
  t.app.evidenceLibrary.clock = () => Date.now() + offsetMs;
};
const inDays = (n: number) => new Date(Date.now() + n * DAY_MS).toISOString();
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress: '203.0.113.9' });
const custody = (id: number) =>
  t.db
    .selectFrom('evidence_custody')
    .select(['action', 'actor', 'ip', 'detail', 'unit_id'])
    .where('media_id', '=', id)
    .orderBy('seq')
    .execute();
const view = (s: Session, id: number) => api<MediaDetail>(t.app, 'mediaView', s, { id });

beforeAll(async () => {
  t = await createTestApp();
  futian = await unitIdOf(t.db, '440304000000');
  luohu = await unitIdOf(t.db, '440303000000');
  const desk = await createRole(t.db, 'evidence desk', [
    { ids: [MenuId.LAW_MEDIA, MenuId.OUTSIDE_MEDIA], actions: ['view', 'edit'] },
  ]);
  const viewer = await createRole(t.db, 'law viewer', [{ ids: [MenuId.LAW_MEDIA], actions: ['view'] }]);
  const u1 = await createUser(t.db, { roleId: desk, unitBh: '440304000000', hostname: '李警官' });
  futianUser = await login(t.app, u1.username, u1.password);
  const u2 = await createUser(t.db, { roleId: desk, unitBh: '440303000000', hostname: '王科长' });
  luohuDesk = await login(t.app, u2.username, u2.password);
  const u3 = await createUser(t.db, { roleId: viewer, unitBh: '440303000000' });
  luohuViewer = await login(t.app, u3.username, u3.password);

  const mp4 = await makeMp4(1);
  items.a = await insertItem(t.app, { unit_id: luohu, bytes: mp4, title: 'luohu a', recorded_at: inDays(-1) });
  items.b = await insertItem(t.app, { unit_id: luohu, bytes: PNG, title: 'luohu b', recorded_at: inDays(-1) });
  items.old = await insertItem(t.app, { unit_id: luohu, bytes: PNG, title: 'luohu old', recorded_at: inDays(-20) });
  items.own = await insertItem(t.app, { unit_id: futian, bytes: PNG, title: 'futian own' });
}, 60_000);

afterEach(() => setClock(0));

afterAll(async () => {
  await t?.close();
});

describe('access requests (accessfrom / accessto)', () => {
  it('request -> approve: the requester views and streams the items until the grant expires', async () => {
    // the units a request can go to: outside the caller's scope only
    const units = await api<{ id: number }[]>(t.app, 'accessUnits', futianUser, {});
    expect(units.data.map((u) => u.id)).toContain(luohu);
    expect(units.data.map((u) => u.id)).not.toContain(futian);
    expect((await view(futianUser, items.a.id)).code).toBe(ResultCode.NOT_FOUND);
    const add = await api<AccessRequest>(t.app, 'accessFromAdd', futianUser, {
      unit_id: luohu,
      media_ids: [items.a.id],
      reason: '案件协查 case 12',
      expires_at: inDays(3),
    });
    expect(add.code).toBe(200);
    expect(add.data).toMatchObject({
      state: 'pending',
      from_unit_id: futian,
      to_unit_id: luohu,
      requester_name: '李警官',
    });
    const mine = await api<Page<AccessRequest>>(t.app, 'accessFromList', futianUser, {});
    expect(mine.data.list.map((r) => r.id)).toContain(add.data.id);

    // incoming for Luohu only; the pending request previews the items it would grant
    const incoming = await api<Page<AccessRequest>>(t.app, 'accessToList', luohuDesk, { state: 'pending' });
    expect(incoming.data.list.map((r) => r.id)).toContain(add.data.id);
    expect((await api<Page<AccessRequest>>(t.app, 'accessToList', futianUser, {})).data.list).toEqual([]);
    const preview = await api<AccessDetail>(t.app, 'accessToView', luohuDesk, { id: add.data.id });
    expect(preview.data.items.map((i) => i.id)).toEqual([items.a.id]);

    // the requester's unit cannot approve it; a viewer of Luohu has no edit
    expect((await api(t.app, 'accessToSave', futianUser, { id: add.data.id, approve: true })).code).toBe(
      ResultCode.NOT_FOUND,
    );
    expect((await api(t.app, 'accessToSave', luohuViewer, { id: add.data.id, approve: true })).code).toBe(
      ResultCode.FORBIDDEN,
    );

    const ok = await api<AccessRequest>(t.app, 'accessToSave', luohuDesk, {
      id: add.data.id,
      approve: true,
      expires_at: inDays(2),
    });
    expect(ok.code).toBe(200);
    expect(ok.data).toMatchObject({ state: 'approved', active: 1, item_count: 1, decided_by_name: '王科长' });
    const shared = (await custody(items.a.id)).find((e) => e.action === 'shared')!;
    expect(JSON.parse(shared.detail)).toMatchObject({ access_request: add.data.id, grantee_unit_id: futian });
    expect((await api(t.app, 'accessToSave', luohuDesk, { id: add.data.id, approve: false })).code).toBe(
      ResultCode.CONFLICT,
    );

    // granted: view, play with ranges, download; not the other item; not in the list
    const detail = await view(futianUser, items.a.id);
    expect(detail.code).toBe(200);
    expect((await view(futianUser, items.b.id)).code).toBe(ResultCode.NOT_FOUND);
    const play = await get(detail.data.play_url, { range: 'bytes=0-9' });
    expect(play.statusCode).toBe(206);
    const dl = await api<{ url: string }>(t.app, 'mediaDownload', futianUser, { id: items.a.id });
    expect((await get(dl.data.url)).statusCode).toBe(200);
    const mine2 = await api<AccessDetail>(t.app, 'accessFromView', futianUser, { id: add.data.id });
    expect(mine2.data.items.map((i) => i.id)).toEqual([items.a.id]);
    const listed = await api<Page<MediaItem>>(t.app, 'mediaList', futianUser, {});
    expect(listed.data.list.map((i) => i.id)).not.toContain(items.a.id);
    // changes are never granted
    expect((await api(t.app, 'mediaFlag', futianUser, { id: items.a.id, flg: 1 })).code).toBe(ResultCode.NOT_FOUND);
    const actions = (await custody(items.a.id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['shared', 'viewed', 'streamed', 'downloaded']));

    // the grant ends at its expiry (fake clock): the item and its addresses are gone again
    setClock(3 * DAY_MS);
    expect((await view(futianUser, items.a.id)).code).toBe(ResultCode.NOT_FOUND);
    expect((await get(detail.data.play_url)).statusCode).toBeGreaterThanOrEqual(403);
    const expired = await api<AccessDetail>(t.app, 'accessFromView', futianUser, { id: add.data.id });
    expect(expired.data).toMatchObject({ request: { active: 0 }, items: [] });
  });

  it('by filter, refusal, withdrawal, and refusals of bad requests', async () => {
    const byTime = await api<AccessRequest>(t.app, 'accessFromAdd', futianUser, {
      unit_id: luohu,
      start: inDays(-2),
      end: inDays(0),
      reason: 'recent',
      expires_at: inDays(1),
    });
    expect(byTime.code).toBe(200);
    const preview = await api<AccessDetail>(t.app, 'accessToView', luohuDesk, { id: byTime.data.id });
    expect(preview.data.items.map((i) => i.id)).toEqual([items.a.id, items.b.id]);
    const refused = await api<AccessRequest>(t.app, 'accessToSave', luohuDesk, {
      id: byTime.data.id,
      approve: false,
      note: 'not needed',
    });
    expect(refused.data).toMatchObject({ state: 'refused', note: 'not needed', item_count: 0 });
    expect((await view(futianUser, items.b.id)).code).toBe(ResultCode.NOT_FOUND);
    expect((await api(t.app, 'accessFromDel', futianUser, { id: byTime.data.id })).code).toBe(ResultCode.CONFLICT);

    // an approved grant withdrawn by the requester ends at once
    const again = await api<AccessRequest>(t.app, 'accessFromAdd', futianUser, {
      unit_id: luohu,
      media_ids: [items.b.id],
      reason: 'again',
      expires_at: inDays(1),
    });
    await api(t.app, 'accessToSave', luohuDesk, { id: again.data.id, approve: true });
    expect((await view(futianUser, items.b.id)).code).toBe(200);
    expect((await api<AccessRequest>(t.app, 'accessFromDel', futianUser, { id: again.data.id })).data.state).toBe(
      'withdrawn',
    );
    expect((await view(futianUser, items.b.id)).code).toBe(ResultCode.NOT_FOUND);
    const ended = (await custody(items.b.id)).filter((e) => e.action === 'shared').map((e) => JSON.parse(e.detail));
    expect(ended.at(-1)).toEqual({ access_request: again.data.id, ended: 'withdrawn' });
    // the other side cannot see or withdraw the requester's request
    expect((await api(t.app, 'accessFromView', luohuDesk, { id: again.data.id })).code).toBe(ResultCode.NOT_FOUND);

    const bad = async (input: Record<string, unknown>) =>
      api(t.app, 'accessFromAdd', futianUser, { unit_id: luohu, reason: 'r', expires_at: inDays(1), ...input });
    const own = await bad({ unit_id: futian, media_ids: [items.own.id] });
    expect(own.code).toBe(ResultCode.INVALID);
    expect(own.msg).toContain('无需申请');
    expect((await bad({})).msg).toContain('设备');
    expect((await bad({ media_ids: [items.a.id], expires_at: inDays(100) })).msg).toContain('90');
    expect((await bad({ media_ids: [items.a.id], expires_at: inDays(-1) })).code).toBe(ResultCode.INVALID);
    expect((await bad({ media_ids: [items.a.id], reason: '' })).code).toBe(ResultCode.INVALID);

    // nothing to grant: the approval is refused and the request stays pending
    const empty = await api<AccessRequest>(t.app, 'accessFromAdd', futianUser, {
      unit_id: luohu,
      media_ids: [999_999],
      reason: 'unknown id',
      expires_at: inDays(1),
    });
    const none = await api(t.app, 'accessToSave', luohuDesk, { id: empty.data.id, approve: true });
    expect(none.code).toBe(ResultCode.INVALID);
    const still = await api<AccessDetail>(t.app, 'accessToView', luohuDesk, { id: empty.data.id });
    expect(still.data.request.state).toBe('pending');
  });
});

describe('external share links', () => {
  const open = (token: string, password = '') =>
    t.app.inject({
      method: 'POST',
      url: Api.shareOpen.path,
      payload: { token, password },
      remoteAddress: '203.0.113.9',
    });
  const opened = async (token: string, password = '') => {
    const res = await open(token, password);
    return (res.json() as { data: ShareOpenAnswer }).data;
  };

  it('with a password: refused without it or with a wrong one; works with it; custody by share actor and ip', async () => {
    const add = await api<ShareAddAnswer>(t.app, 'shareAdd', luohuDesk, {
      media_ids: [items.a.id, items.b.id],
      recipient: '检察院 张检',
      days: 7,
      password: 's3cret',
    });
    expect(add.code).toBe(200);
    expect(add.data.token.length).toBeGreaterThanOrEqual(43);
    expect(add.data.path).toBe(`/share/${add.data.token}`);
    const stored = await t.db
      .selectFrom('evidence_share_links')
      .selectAll()
      .where('id', '=', add.data.link.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(add.data.token);
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);

    expect((await opened(add.data.token)).status).toBe('password');
    expect((await opened(add.data.token, 'wrong')).status).toBe('wrongPassword');
    expect((await opened('x'.repeat(43))).status).toBe('unknown');
    const page = await opened(add.data.token, 's3cret');
    expect(page).toMatchObject({ status: 'ok', recipient: '检察院 张检' });
    expect(page.items.map((i) => i.id)).toEqual([items.a.id, items.b.id]);

    const video = page.items[0]!;
    const play = await get(video.play_url, { range: 'bytes=0-3' });
    expect(play.statusCode).toBe(206);
    const dl = await get(video.download_url);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toContain('attachment');
    // a share address of one item does not open another
    expect((await get(video.play_url.replace(`/${items.a.id}?`, `/${items.b.id}?`))).statusCode).toBe(403);

    const entries = (await custody(items.a.id)).filter((e) => e.actor === 'share:检察院 张检');
    expect(entries.map((e) => e.action)).toEqual(['viewed', 'streamed', 'downloaded']);
    expect(entries.every((e) => e.ip === '203.0.113.9')).toBe(true);
    expect((await custody(items.a.id)).some((e) => e.action === 'shared' && e.detail.includes('检察院'))).toBe(true);

    const links = await api<Page<ShareLink>>(t.app, 'shareList', luohuDesk, {});
    expect(links.data.list.find((l) => l.id === add.data.link.id)).toMatchObject({
      visits: 1,
      has_password: 1,
      state: 'active',
      media_ids: [items.a.id, items.b.id],
    });
    expect((await api<Page<ShareLink>>(t.app, 'shareList', futianUser, {})).data.list).toEqual([]);

    // revoked: the page and the addresses answer so
    expect((await api(t.app, 'shareRevoke', futianUser, { id: add.data.link.id })).code).toBe(ResultCode.NOT_FOUND);
    const revoked = await api<ShareLink>(t.app, 'shareRevoke', luohuDesk, { id: add.data.link.id });
    expect(revoked.data.state).toBe('revoked');
    const last = (await custody(items.a.id)).at(-1)!;
    expect([last.action, JSON.parse(last.detail)]).toEqual([
      'shared',
      { share_link: add.data.link.id, recipient: '检察院 张检', ended: 'revoked' },
    ]);
    expect((await opened(add.data.token, 's3cret')).status).toBe('revoked');
    const gone = await get(video.play_url);
    expect(gone.statusCode).toBe(403);
    expect(gone.json().msg).toContain('撤销');
  });

  it('expires, refuses foreign items and long lives, opens without a password when it has none', async () => {
    const add = await api<ShareAddAnswer>(t.app, 'shareAdd', luohuDesk, {
      media_ids: [items.b.id],
      recipient: 'prosecutor',
      days: 1,
    });
    expect((await opened(add.data.token)).status).toBe('ok');
    setClock(2 * DAY_MS);
    expect((await opened(add.data.token)).status).toBe('expired');
    const links = await api<Page<ShareLink>>(t.app, 'shareList', luohuDesk, { state: 'expired' });
    expect(links.data.list.map((l) => l.id)).toContain(add.data.link.id);
    setClock(0);

    // wrong passwords lock the link for a while, then the right one works again
    const locked = await api<ShareAddAnswer>(t.app, 'shareAdd', luohuDesk, {
      media_ids: [items.b.id],
      recipient: 'guessed',
      days: 1,
      password: 'right one',
    });
    for (let i = 0; i < SHARE_PASSWORD_TRIES; i++)
      expect((await opened(locked.data.token, `x${i}`)).status).toBe('wrongPassword');
    expect((await opened(locked.data.token, 'right one')).status).toBe('locked');
    setClock(SHARE_LOCK_MS + 1000);
    expect((await opened(locked.data.token, 'right one')).status).toBe('ok');
    setClock(0);

    const foreign = await api(t.app, 'shareAdd', futianUser, { media_ids: [items.a.id], recipient: 'x', days: 1 });
    expect(foreign.code).toBe(ResultCode.NOT_FOUND);
    expect(foreign.msg).toContain(String(items.a.id));
    const long = await api(t.app, 'shareAdd', luohuDesk, { media_ids: [items.b.id], recipient: 'x', days: 31 });
    expect(long.code).toBe(ResultCode.INVALID);
    expect((await api(t.app, 'shareAdd', luohuViewer, { media_ids: [items.b.id], recipient: 'x', days: 1 })).code).toBe(
      ResultCode.FORBIDDEN,
    );
    // English page text for a bad call
    const res = await t.app.inject({
      method: 'POST',
      url: Api.shareOpen.path,
      payload: {},
      headers: { 'x-lang': 'en-US' },
    });
    expect(res.json().code).toBe(ResultCode.INVALID);
  });
});
