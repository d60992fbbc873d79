import { execFile } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ALARM_TYPE,
  Api,
  EVIDENCE_RECOVERY_DAYS,
  EVIDENCE_URL_TTL_MS,
  MenuId,
  ResultCode,
  type ApiName,
  type CustodyAnswer,
  type MediaDetail,
  type MediaItem,
  type MediaRevision,
  type Page,
} from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { unitIdOf } from '../../../../test/devices';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../../test/helpers';
import { type LocalContentStore } from '../store';
import { insertItem, makeMp4, PNG, sha256Of } from './library.fixture';
import { DAY_MS } from './library.service';
import { signedUrl } from './signed';
import { verifyAll, type Problem } from './verify';

let t: TestApp;
let admin: Session;
/** evidence desk: law, outside, sensitive, deleted (view/edit/add), edit record; unit Futian */
let futianUser: Session;
let futianUserId: number;
/** same role, unit Luohu */
let luohuUser: Session;
let luohuUserId: number;
/** only view on law media; unit Futian */
let lawViewer: Session;
/** no rights */
let nobody: Session;
let futian: number;
let luohu: number;
let mp4: Buffer;

/** Futian: video, outside png, sensitive png; Luohu: video */
const items = {} as Record<'video' | 'outside' | 'sensitive' | 'foreign', { id: number; sha256: string }>;

const list = (s: Session, input: Record<string, unknown> = {}) => api<Page<MediaItem>>(t.app, 'mediaList', s, input);
const ids = (p: { data: Page<MediaItem> }) => p.data.list.map((i) => i.id).sort((a, b) => a - b);
const custody = async (id: number) =>
  (await t.db.selectFrom('evidence_custody').select('action').where('media_id', '=', id).orderBy('seq').execute()).map(
    (r) => r.action,
  );
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const days = (n: number) => n * DAY_MS;
const setClock = (offsetMs: number) => {
  t.app.evidenceLibrary.clock = () => Date.now() + offsetMs;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
  luohu = await unitIdOf(t.db, '440303000000');
  const desk = await createRole(t.db, 'evidence desk', [
    {
      ids: [MenuId.LAW_MEDIA, MenuId.OUTSIDE_MEDIA, MenuId.SENSITIVE_MEDIA, MenuId.DELETED_MEDIA],
      actions: ['view', 'edit', 'add'],
    },
    { ids: [MenuId.EDIT_RECORD], actions: ['view'] },
  ]);
  const u1 = await createUser(t.db, { roleId: desk, unitBh: '440304000000', hostname: '李警官' });
  futianUserId = u1.id;
  futianUser = await login(t.app, u1.username, u1.password);
  const u2 = await createUser(t.db, { roleId: desk, unitBh: '440303000000' });
  luohuUserId = u2.id;
  luohuUser = await login(t.app, u2.username, u2.password);
  const viewer = await createRole(t.db, 'law viewer', [{ ids: [MenuId.LAW_MEDIA], actions: ['view'] }]);
  const u3 = await createUser(t.db, { roleId: viewer, unitBh: '440304000000' });
  lawViewer = await login(t.app, u3.username, u3.password);
  const u4 = await createUser(t.db, { unitBh: '440304000000' });
  nobody = await login(t.app, u4.username, u4.password);

  mp4 = await makeMp4(1);
  items.video = await insertItem(t.app, { unit_id: futian, bytes: mp4, title: '巡逻 patrol', category: 'traffic' });
  items.outside = await insertItem(t.app, { unit_id: futian, bytes: PNG, outside: 1, title: 'imported' });
  items.sensitive = await insertItem(t.app, { unit_id: futian, bytes: PNG, sensitive: 1, title: 'night scene' });
  items.foreign = await insertItem(t.app, { unit_id: luohu, bytes: await makeMp4(2), title: 'luohu clip' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('library lists', () => {
  it('shows each view of the caller units only, with filters', async () => {
    const law = await list(futianUser);
    expect(law.code).toBe(200);
    expect(ids(law)).toEqual([items.video.id, items.sensitive.id]);
    expect(law.data.total).toBe(2);
    expect(ids(await list(futianUser, { view: 'outside' }))).toEqual([items.outside.id]);
    expect(ids(await list(futianUser, { view: 'sensitivity' }))).toEqual([items.sensitive.id]);
    expect(ids(await list(futianUser, { view: 'deleted' }))).toEqual([]);
    expect(ids(await list(luohuUser))).toEqual([items.foreign.id]);
    expect(ids(await list(admin))).toEqual([items.video.id, items.sensitive.id, items.foreign.id]);

    expect(ids(await list(futianUser, { media_type: 1 }))).toEqual([items.video.id]);
    expect(ids(await list(futianUser, { keyword: 'night' }))).toEqual([items.sensitive.id]);
    expect(ids(await list(futianUser, { category: 'traffic' }))).toEqual([items.video.id]);
    expect(ids(await list(futianUser, { scored: 1 }))).toEqual([]);
    expect(ids(await list(admin, { unit_id: luohu }))).toEqual([items.foreign.id]);
    const paged = await list(futianUser, { limit: 1, page: 2, sort: 'size', order: 'asc' });
    expect(paged.data).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(paged.data.list.map((i) => i.id)).toEqual([items.video.id]);

    const video = law.data.list.find((i) => i.id === items.video.id)!;
    expect(video).toMatchObject({ sha256: items.video.sha256, size: mp4.length, unit_name: expect.any(String) });
  });

  it('refuses a view without its menu and a caller without any', async () => {
    expect((await list(lawViewer)).code).toBe(200);
    for (const view of ['deleted', 'outside', 'sensitivity'])
      expect((await list(lawViewer, { view })).code).toBe(ResultCode.FORBIDDEN);
    expect((await list(nobody)).code).toBe(ResultCode.FORBIDDEN);
    expect((await api(t.app, 'mediaFlag', lawViewer, { id: items.video.id, flg: 1 })).code).toBe(ResultCode.FORBIDDEN);
    expect((await list(futianUser, { unit_id: luohu })).code).toBe(ResultCode.FORBIDDEN);
  });
});

describe('unit scope by id', () => {
  const single: ApiName[] = ['mediaView', 'mediaRevisions', 'mediaGps', 'mediaDownload', 'mediaCustody'];

  it('answers a foreign id exactly as a missing one on every endpoint', async () => {
    for (const name of single) {
      const foreign = await api(t.app, name, futianUser, { id: items.foreign.id });
      const missing = await api(t.app, name, futianUser, { id: 999_999 });
      expect(foreign.code, name).toBe(ResultCode.NOT_FOUND);
      expect({ ...foreign, requestId: undefined }).toEqual({ ...missing, requestId: undefined });
    }
    for (const [name, extra] of [
      ['mediaFlag', { flg: 1 }],
      ['mediaRevise', { title: 'x', reason: 'r' }],
    ] as const) {
      const foreign = await api(t.app, name, futianUser, { id: items.foreign.id, ...extra });
      const missing = await api(t.app, name, futianUser, { id: 999_999, ...extra });
      expect(foreign.code, name).toBe(ResultCode.NOT_FOUND);
      expect(foreign.msg).toBe(missing.msg);
    }
    for (const [name, extra] of [
      ['mediaFlagAll', { flg: 1 }],
      ['mediaEditAll', { category: 'x', reason: 'r' }],
      ['mediaDelete', { reason: 'r' }],
      ['mediaRevert', {}],
      ['mediaHardDelete', {}],
    ] as const) {
      const answer = await api(t.app, name, futianUser, { ids: [items.foreign.id, 999_999], ...extra });
      expect(answer.data, name).toEqual({
        changed: 0,
        refused: [
          { id: items.foreign.id, reason: 'errors.library.notFound' },
          { id: 999_999, reason: 'errors.library.notFound' },
        ],
      });
    }
    // nothing was written to the foreign item
    expect(await custody(items.foreign.id)).toEqual(['uploaded']);
    const record = await api<Page<{ media_id: number }>>(t.app, 'mediaEditRecord', luohuUser, {});
    expect(record.data.total).toBe(0);
  });

  it('serves a file only to a token whose user sees the item', async () => {
    const view = await api<MediaDetail>(t.app, 'mediaView', futianUser, { id: items.video.id });
    expect(view.code).toBe(200);
    expect((await get(view.data.play_url)).statusCode).toBe(200);
    // the same token on another item: refused as forged
    const other = view.data.play_url.replace(`/play/${items.video.id}?`, `/play/${items.foreign.id}?`);
    expect((await get(other)).statusCode).toBe(403);
    // a well-signed token for a user of another unit: not found, like a missing item
    const key = await t.app.evidenceLibrary.key();
    for (const kind of ['original', 'play', 'download'] as const) {
      const foreign = await get(signedUrl(key, kind, items.video.id, luohuUserId, Date.now()).url);
      const missing = await get(signedUrl(key, kind, 999_999, luohuUserId, Date.now()).url);
      expect(foreign.statusCode, kind).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
    }
  });
});

describe('revisions and marks', () => {
  it('revises metadata with history and leaves the original untouched', async () => {
    const before = await api<MediaItem>(t.app, 'mediaRevise', futianUser, {
      id: items.video.id,
      title: '巡逻 patrol 2',
      category: 'traffic',
      incident_no: 'JQ-1',
      reason: 'typo',
    });
    expect(before.code).toBe(200);
    expect(before.data).toMatchObject({ title: '巡逻 patrol 2', incident_no: 'JQ-1', sha256: items.video.sha256 });
    const revs = await api<MediaRevision[]>(t.app, 'mediaRevisions', futianUser, { id: items.video.id });
    expect(revs.data).toHaveLength(1);
    expect(revs.data[0]).toMatchObject({
      reason: 'typo',
      user_name: '李警官',
      changes: [
        { field: 'title', before: '巡逻 patrol', after: '巡逻 patrol 2' },
        { field: 'incident_no', before: '', after: 'JQ-1' },
      ],
    });
    const same = await api(t.app, 'mediaRevise', futianUser, {
      id: items.video.id,
      title: '巡逻 patrol 2',
      reason: 'x',
    });
    expect(same).toMatchObject({ code: ResultCode.INVALID });
    expect(await t.app.evidenceLibrary.store.rehash(items.video.sha256)).toBe(items.video.sha256);
    expect(await custody(items.video.id)).toContain('revised');

    const bulk = await api(t.app, 'mediaEditAll', futianUser, {
      ids: [items.video.id, items.sensitive.id],
      category: 'patrol',
      reason: 'bulk',
    });
    expect(bulk.data).toEqual({ changed: 2, refused: [] });
    const record = await api<Page<{ media_id: number; kind: string; detail: string }>>(
      t.app,
      'mediaEditRecord',
      futianUser,
      { kind: 'revise' },
    );
    expect(record.data.total).toBe(3);
    expect(record.data.list[2]).toMatchObject({
      media_id: items.video.id,
      detail: expect.stringContaining('title: 巡逻 patrol -> 巡逻 patrol 2'),
    });
  });

  it('marks one and many', async () => {
    const one = await api<MediaItem>(t.app, 'mediaFlag', futianUser, { id: items.video.id, flg: 1, flg_note: 'look' });
    expect(one.data).toMatchObject({ flg: 1, flg_note: 'look' });
    expect(ids(await list(futianUser, { flg: 1 }))).toEqual([items.video.id]);
    const many = await api(t.app, 'mediaFlagAll', futianUser, { ids: [items.video.id, items.sensitive.id], flg: 0 });
    expect(many.data).toEqual({ changed: 2, refused: [] });
    expect(ids(await list(futianUser, { flg: 1 }))).toEqual([]);
    expect((await custody(items.sensitive.id)).filter((a) => a === 'marked')).toHaveLength(1);
  });
});

describe('deletion and recovery', () => {
  it('deletes to the deleted view and reverts within the window, not after it', async () => {
    const del = await api(t.app, 'mediaDelete', futianUser, { ids: [items.sensitive.id], reason: 'duplicate' });
    expect(del.data).toEqual({ changed: 1, refused: [] });
    expect(ids(await list(futianUser))).toEqual([items.video.id]);
    const deleted = await list(futianUser, { view: 'deleted' });
    expect(ids(deleted)).toEqual([items.sensitive.id]);
    expect(deleted.data.list[0]).toMatchObject({ delete_reason: 'duplicate', deleted_by_name: '李警官' });
    expect(await api(t.app, 'mediaFlag', futianUser, { id: items.sensitive.id, flg: 1 })).toMatchObject({
      code: ResultCode.INVALID,
    });
    const again = await api(t.app, 'mediaDelete', futianUser, { ids: [items.sensitive.id], reason: 'x' });
    expect(again.data).toEqual({ changed: 0, refused: [{ id: items.sensitive.id, reason: 'errors.library.deleted' }] });

    const reverted = await api(t.app, 'mediaRevert', futianUser, { ids: [items.sensitive.id] });
    expect(reverted.data).toEqual({ changed: 1, refused: [] });
    expect(ids(await list(futianUser))).toEqual([items.video.id, items.sensitive.id]);
    expect(await custody(items.sensitive.id)).toEqual(['uploaded', 'revised', 'marked', 'deleted', 'restored']);

    await api(t.app, 'mediaDelete', futianUser, { ids: [items.sensitive.id], reason: 'again' });
    try {
      setClock(days(EVIDENCE_RECOVERY_DAYS) + 60_000);
      const late = await api(t.app, 'mediaRevert', futianUser, { ids: [items.sensitive.id] });
      expect(late.data).toEqual({
        changed: 0,
        refused: [{ id: items.sensitive.id, reason: 'errors.library.recoveryOver' }],
      });
    } finally {
      setClock(0);
    }
    const kinds = await api<Page<{ kind: string }>>(t.app, 'mediaEditRecord', futianUser, { kind: 'delete' });
    expect(kinds.data.total).toBe(2);
  });

  it('hard-deletes only after the window, to a tombstone whose chain survives', async () => {
    const outside = items.outside.id; // same PNG bytes as items.sensitive
    await api(t.app, 'mediaDelete', futianUser, { ids: [outside], reason: 'wrong' });
    const early = await api(t.app, 'mediaHardDelete', futianUser, { ids: [outside, items.video.id] });
    expect(early.data).toEqual({
      changed: 0,
      refused: [
        { id: outside, reason: 'errors.library.recoveryOpen' },
        { id: items.video.id, reason: 'errors.library.notDeleted' },
      ],
    });
    const store = t.app.evidenceLibrary.store;
    try {
      setClock(days(EVIDENCE_RECOVERY_DAYS) + 60_000);
      expect((await api(t.app, 'mediaHardDelete', futianUser, { ids: [outside] })).data).toEqual({
        changed: 1,
        refused: [],
      });
      // the other item with the same bytes keeps them
      expect(await store.has(items.outside.sha256)).toBe(true);
      expect((await api(t.app, 'mediaHardDelete', futianUser, { ids: [items.sensitive.id] })).data).toEqual({
        changed: 1,
        refused: [],
      });
      expect(await store.has(items.outside.sha256)).toBe(false);
    } finally {
      setClock(0);
    }
    const row = await t.db.selectFrom('evidence_items').selectAll().where('id', '=', outside).executeTakeFirstOrThrow();
    expect(row.purged_at).not.toBeNull();
    expect(ids(await list(futianUser, { view: 'deleted' }))).toEqual([]);
    expect((await api(t.app, 'mediaView', futianUser, { id: outside })).code).toBe(ResultCode.NOT_FOUND);
    const chain = await api<CustodyAnswer>(t.app, 'mediaCustody', futianUser, { id: outside });
    expect(chain.data.chain_ok).toBe(true);
    expect(chain.data.entries.map((e) => e.action)).toEqual(['uploaded', 'deleted', 'purged']);
  });
});

describe('files', () => {
  it('serves byte ranges and records one streamed entry per token', async () => {
    const view = await api<MediaDetail>(t.app, 'mediaView', futianUser, { id: items.video.id });
    expect(view.data.play_mime).toBe('video/mp4');
    const before = (await custody(items.video.id)).length;
    const part = await get(view.data.play_url, { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${mp4.length}`);
    expect(part.headers['accept-ranges']).toBe('bytes');
    expect(part.headers['content-type']).toBe('video/mp4');
    expect(part.rawPayload).toEqual(mp4.subarray(0, 100));
    const tail = await get(view.data.play_url, { range: `bytes=${mp4.length - 10}-` });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload).toEqual(mp4.subarray(mp4.length - 10));
    expect((await get(view.data.play_url, { range: `bytes=${mp4.length + 5}-` })).statusCode).toBe(416);
    const actions = await custody(items.video.id);
    expect(actions.slice(before)).toEqual(['streamed']);
    expect(actions.at(before - 1)).toBe('viewed');
  });

  it('refuses expired and forged tokens', async () => {
    const view = await api<MediaDetail>(t.app, 'mediaView', futianUser, { id: items.video.id });
    const forged = view.data.play_url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const res = await get(forged, { 'x-lang': 'en-US' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ msg: 'The file address is not valid: open the item again' });
    expect((await get(view.data.play_url.replace('/play/', '/original/'))).statusCode).toBe(403);
    expect((await get(view.data.play_url.replace(/token=\d+/, `token=${luohuUserId}`))).statusCode).toBe(403);
    try {
      setClock(EVIDENCE_URL_TTL_MS + 1000);
      const expired = await get(view.data.play_url, { 'x-lang': 'en-US' });
      expect(expired.statusCode).toBe(403);
      expect(expired.json()).toMatchObject({ msg: 'The file address has expired: open the item again' });
    } finally {
      setClock(0);
    }
  });

  it('downloads with the hash verified, and refuses a tampered original with custody and an alarm', async () => {
    const down = await api<{ url: string; sha256: string; file_name: string }>(t.app, 'mediaDownload', futianUser, {
      id: items.video.id,
    });
    expect(down.data.sha256).toBe(items.video.sha256);
    const ok = await get(down.data.url);
    expect(ok.statusCode).toBe(200);
    expect(sha256Of(ok.rawPayload)).toBe(items.video.sha256);
    expect(ok.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('执法记录 clip.mp4')}`);
    expect((await custody(items.video.id)).at(-1)).toBe('downloaded');
    expect(
      await t.db
        .selectFrom('operation_log')
        .select(['target', 'result_code'])
        .where('action', '=', Api.mediaDownload.path)
        .where('user_id', '=', futianUserId)
        .orderBy('id', 'desc')
        .executeTakeFirst(),
    ).toEqual({ target: String(items.video.id), result_code: 200 });

    // tamper with the stored original (the store keeps it read-only)
    const path = (t.app.evidenceLibrary.store as LocalContentStore).localPath(items.foreign.sha256);
    await chmod(path, 0o644);
    await writeFile(path, Buffer.concat([await makeMp4(2), Buffer.from('x')]));
    const link = await api<{ url: string }>(t.app, 'mediaDownload', luohuUser, { id: items.foreign.id });
    const refused = await get(link.data.url, { 'x-lang': 'en-US' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toContain('no longer matches its SHA-256');
    expect((await custody(items.foreign.id)).at(-1)).toBe('tamper');
    const alarm = await t.db
      .selectFrom('alarms')
      .selectAll()
      .where('type', '=', ALARM_TYPE.EVIDENCE_TAMPER)
      .executeTakeFirst();
    expect(alarm).toMatchObject({ unit_id: luohu });
    expect(alarm?.message).toContain(items.foreign.sha256);
  });
});

describe('custody verification', () => {
  it('detects a changed entry and a removed last entry, in the API and the verify command', async () => {
    const problems: Problem[] = [];
    const checked = await verifyAll(t.db, t.app.evidenceLibrary.store, (p) => problems.push(p));
    expect(checked).toBe(4);
    // the tampered original of the previous test (the purged items' bytes are not checked)
    expect(problems).toEqual([
      { id: items.foreign.id, what: 'original', sha256: items.foreign.sha256, actual: expect.any(String) },
    ]);

    const ok = await api<CustodyAnswer>(t.app, 'mediaCustody', futianUser, { id: items.video.id });
    expect(ok.data).toMatchObject({ chain_ok: true, broken_at: null, sha256: items.video.sha256 });
    expect(ok.data.entries[0]).toMatchObject({ seq: 1, action: 'uploaded', prev_hash: '0'.repeat(64) });

    await t.db
      .updateTable('evidence_custody')
      .set({ detail: '{"sha256":"forged"}' })
      .where('media_id', '=', items.video.id)
      .where('seq', '=', 2)
      .execute();
    const changed = await api<CustodyAnswer>(t.app, 'mediaCustody', futianUser, { id: items.video.id });
    expect(changed.data).toMatchObject({ chain_ok: false, broken_at: 2 });

    const last = await t.db
      .selectFrom('evidence_custody')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('media_id', '=', items.sensitive.id)
      .executeTakeFirstOrThrow();
    await t.db
      .deleteFrom('evidence_custody')
      .where('media_id', '=', items.sensitive.id)
      .where('seq', '=', Number(last.seq))
      .execute();
    const removed = await api<CustodyAnswer>(t.app, 'mediaCustody', futianUser, { id: items.sensitive.id });
    expect(removed.data.chain_ok).toBe(false);

    // the command, as `npm run evidence:verify` runs it, against this test's database and store
    const db = t.config.database;
    const url = db.kind === 'sqlite' ? `sqlite:${db.path}` : db.url;
    const run = await promisify(execFile)(
      'npx',
      ['tsx', join('src', 'tools', 'verify-evidence.ts'), '--data-dir', t.config.dataDir, '--database-url', url],
      { cwd: join(import.meta.dirname, '..', '..', '..', '..') },
    ).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`item ${items.video.id}: custody chain broken at entry 2`);
    expect(run.stdout).toContain(`item ${items.sensitive.id}: custody chain broken`);
    expect(run.stdout).toContain(`item ${items.foreign.id}: original ${items.foreign.sha256} does not match`);
    expect(run.stdout).toContain('4 items checked, 3 mismatches');
  }, 60_000);
});
