import {
  Api,
  MenuId,
  ResultCode,
  type CheckBatch,
  type CheckBatchDetail,
  type CheckItem,
  type CustodyAnswer,
  type MediaScoreAnswer,
  type Page,
  type VideoScoreRow,
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
import { insertItem, makeMp4, PNG } from '../library/library.fixture';
import { candidateIds } from './checks';
import { drawSample } from './sample';

let t: TestApp;
let admin: Session;
/** supervisors of Futian: library view/edit, checks */
let sup1: Session;
let sup1Id: number;
let sup2: Session;
/** supervisor of Luohu */
let luohuSup: Session;
/** view on law media only, Futian */
let viewer: Session;
let futian: number;
let luohu: number;
const items = {} as Record<'a' | 'b' | 'c' | 'deleted' | 'foreign', number>;

const FULL = ['identity', 'reason', 'language', 'recording', 'procedure'];
const scoresOf = (...points: number[]) => FULL.map((key, i) => ({ key, score: points[i] ?? 20 }));
const score = (s: Session, id: number, points: number[], comment = '', lang: 'zh-CN' | 'en-US' = 'zh-CN') =>
  api<MediaScoreAnswer>(t.app, 'mediaScoreUpdate', s, { id, items: scoresOf(...points), comment }, lang);
const actions = async (id: number) =>
  (await t.db.selectFrom('evidence_custody').select('action').where('media_id', '=', id).orderBy('seq').execute()).map(
    (r) => r.action,
  );
const itemScore = async (id: number) =>
  (await t.db.selectFrom('evidence_items').select('score').where('id', '=', id).executeTakeFirstOrThrow()).score;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
  luohu = await unitIdOf(t.db, '440303000000');
  const supervisor = await createRole(t.db, 'supervisor', [
    { ids: [MenuId.LAW_MEDIA, MenuId.CHECK_RANDOM], actions: ['view', 'edit', 'add'] },
    { ids: [MenuId.CHECK_RECORD], actions: ['view'] },
  ]);
  const u1 = await createUser(t.db, { roleId: supervisor, unitBh: '440304000000', hostname: '王督察' });
  sup1Id = u1.id;
  sup1 = await login(t.app, u1.username, u1.password);
  const u2 = await createUser(t.db, { roleId: supervisor, unitBh: '440304000000' });
  sup2 = await login(t.app, u2.username, u2.password);
  const u3 = await createUser(t.db, { roleId: supervisor, unitBh: '440303000000' });
  luohuSup = await login(t.app, u3.username, u3.password);
  const viewRole = await createRole(t.db, 'law viewer', [{ ids: [MenuId.LAW_MEDIA], actions: ['view'] }]);
  const u4 = await createUser(t.db, { roleId: viewRole, unitBh: '440304000000' });
  viewer = await login(t.app, u4.username, u4.password);

  const mp4 = await makeMp4(1);
  items.a = (await insertItem(t.app, { unit_id: futian, bytes: mp4, title: 'patrol' })).id;
  items.b = (await insertItem(t.app, { unit_id: futian, bytes: PNG, title: 'photo' })).id;
  items.c = (await insertItem(t.app, { unit_id: futian, bytes: mp4, title: 'stop' })).id;
  items.deleted = (
    await insertItem(t.app, { unit_id: futian, bytes: PNG, title: 'gone', deleted_at: new Date().toISOString() })
  ).id;
  items.foreign = (await insertItem(t.app, { unit_id: luohu, bytes: await makeMp4(2), title: 'luohu' })).id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('scores', () => {
  it('answers the built-in rubric and no scores yet', async () => {
    const r = await api<MediaScoreAnswer>(t.app, 'mediaScoreGet', viewer, { id: items.a });
    expect(r.code).toBe(200);
    expect(r.data.rubric.name_zh).toBe('执法规范');
    expect(r.data.rubric.criteria.map((c) => [c.key, c.label_zh, c.max])).toEqual([
      ['identity', '表明身份', 20],
      ['reason', '告知事由', 20],
      ['language', '文明用语', 20],
      ['recording', '全程录像', 20],
      ['procedure', '程序规范', 20],
    ]);
    expect(r.data.rubric.max_total).toBe(100);
    expect(r.data).toMatchObject({ scores: [], mine: null, average: null });
  });

  it('saves, averages over scorers, replaces with history, appends scored', async () => {
    const before = await actions(items.a);
    const r1 = await score(sup1, items.a, [20, 20, 10, 20, 20], '未告知全部事由');
    expect(r1.code).toBe(200);
    expect(r1.data.mine).toMatchObject({ total: 90, max_total: 100, comment: '未告知全部事由', user_name: '王督察' });
    expect(r1.data.average).toBe(90);
    expect(await itemScore(items.a)).toBe(90);
    expect(await actions(items.a)).toEqual([...before, 'scored']);

    const r2 = await score(sup2, items.a, [10, 10, 10, 20, 20]);
    expect(r2.data.average).toBe(80);
    expect(r2.data.scores).toHaveLength(2);

    // sup1 scores again: replaces his, the old one stays as history
    const r3 = await score(sup1, items.a, [10, 10, 10, 10, 10.5]);
    expect(r3.data.mine?.total).toBe(50.5);
    expect(r3.data.scores).toHaveLength(2);
    expect(r3.data.average).toBe(60.3); // (50.5 + 70) / 2 = 60.25 -> 60.3
    expect(await itemScore(items.a)).toBe(60.3);
    const rows = await t.db
      .selectFrom('evidence_scores')
      .select(['total', 'current'])
      .where('media_id', '=', items.a)
      .where('user_id', '=', sup1Id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [Number(r.total), r.current])).toEqual([
      [90, 0],
      [50.5, 1],
    ]);
    expect(await actions(items.a)).toEqual([...before, 'scored', 'scored', 'scored']);
    const custody = await api<CustodyAnswer>(t.app, 'mediaCustody', sup1, { id: items.a });
    expect(custody.data.chain_ok).toBe(true);
    expect(JSON.parse(custody.data.entries.at(-1)!.detail)).toMatchObject({ total: 50.5, average: 60.3 });

    // the library's score filter sees it
    const lib = await api<Page<{ id: number; score: number | null }>>(t.app, 'mediaList', sup1, { scored: 1 });
    expect(lib.data.list.map((i) => [i.id, i.score])).toEqual([[items.a, 60.3]]);
  });

  it('refuses scores above a maximum, missing criteria, and writes nothing', async () => {
    const count = async () => (await t.db.selectFrom('evidence_scores').select('id').execute()).length;
    const n = await count();
    const seq = await actions(items.b);
    const high = await score(sup1, items.b, [21]);
    expect(high.code).toBe(ResultCode.INVALID);
    expect(high.msg).toContain('表明身份');
    expect(high.msg).toContain('20');
    const highEn = await score(sup1, items.b, [20, 25], '', 'en-US');
    expect(highEn.msg).toContain('States the reason');
    const missing = await api(t.app, 'mediaScoreUpdate', sup1, { id: items.b, items: scoresOf().slice(1) });
    expect(missing.code).toBe(ResultCode.INVALID);
    expect(missing.msg).toContain('identity');
    const twice = await api(t.app, 'mediaScoreUpdate', sup1, {
      id: items.b,
      items: [...scoresOf().slice(1), { key: 'reason', score: 1 }],
    });
    expect(twice.code).toBe(ResultCode.INVALID);
    const negative = await score(sup1, items.b, [-1]);
    expect(negative.code).toBe(ResultCode.INVALID);
    expect(await count()).toBe(n);
    expect(await actions(items.b)).toEqual(seq);
    expect(await itemScore(items.b)).toBeNull();
  });

  it('refuses a caller without edit, another unit, and a deleted item', async () => {
    const noEdit = await score(viewer, items.b, []);
    expect(noEdit.code).toBe(ResultCode.FORBIDDEN);
    const foreign = await score(luohuSup, items.a, []);
    expect(foreign.code).toBe(ResultCode.NOT_FOUND);
    expect((await api(t.app, 'mediaScoreGet', luohuSup, { id: items.a })).code).toBe(ResultCode.NOT_FOUND);
    const gone = await score(sup1, items.deleted, []);
    expect(gone.code).toBe(ResultCode.INVALID);
    expect(await itemScore(items.deleted)).toBeNull();
    expect((await score(sup1, 999_999, [])).code).toBe(ResultCode.NOT_FOUND);
  });

  it('keeps one current score per scorer when saves race', async () => {
    const answers = await Promise.all([12, 14, 16, 18, 20].map((p) => score(sup2, items.b, [p])));
    expect(answers.map((a) => a.code)).toEqual([200, 200, 200, 200, 200]);
    const rows = await t.db
      .selectFrom('evidence_scores')
      .select(['current', 'total'])
      .where('media_id', '=', items.b)
      .execute();
    expect(rows).toHaveLength(5);
    const current = rows.filter((r) => r.current === 1);
    expect(current).toHaveLength(1);
    expect(await itemScore(items.b)).toBe(Number(current[0]!.total));
    const custody = await api<CustodyAnswer>(t.app, 'mediaCustody', sup1, { id: items.b });
    expect(custody.data.chain_ok).toBe(true);
    expect(custody.data.entries.filter((e) => e.action === 'scored')).toHaveLength(5);
  });

  it('lists items to score and scored (videoscore) within the scope', async () => {
    const list = async (s: Session, f: Record<string, unknown>) =>
      (await api<Page<VideoScoreRow>>(t.app, 'videoScore', s, f)).data.list.map((i) => i.id).sort((a, b) => a - b);
    expect(await list(sup1, { mine: 1 })).toEqual([items.a]);
    expect(await list(sup1, { mine: 0 })).toEqual([items.b, items.c]);
    expect(await list(sup1, { scored: 0, media_type: 1 })).toEqual([items.c]);
    expect(await list(luohuSup, {})).toEqual([items.foreign]);
    const row = (await api<Page<VideoScoreRow>>(t.app, 'videoScore', sup1, { mine: 1 })).data.list[0]!;
    expect(row).toMatchObject({ scorers: 2, my_score: 50.5, score: 60.3 });
    expect((await api(t.app, 'videoScore', viewer, {})).code).toBe(ResultCode.FORBIDDEN);
    expect((await api(t.app, 'videoScore', luohuSup, { unit_id: futian })).code).toBe(ResultCode.NOT_FOUND);
  });
});

describe('random checks', () => {
  let batch: CheckBatchDetail;

  it('draws only live items of the caller units, reproducibly from the stored seed, appending nothing', async () => {
    const before = await actions(items.b);
    const r = await api<CheckBatchDetail>(t.app, 'checkDraw', sup1, { count: 2, note: '月度抽查' });
    expect(r.code).toBe(200);
    batch = r.data;
    expect(batch.batch).toMatchObject({
      requested: 2,
      drawn: 2,
      pending: 2,
      pass: 0,
      unit_id: futian,
      note: '月度抽查',
    });
    const drawn = batch.items.map((i) => i.media_id);
    expect(drawn.every((id) => [items.a, items.b, items.c].includes(id))).toBe(true);
    expect(batch.items.map((i) => i.pos)).toEqual([1, 2]);
    expect(batch.items[0]!.media?.id).toBe(drawn[0]);
    // the same seed over the same candidates draws the same sample
    const scope = { all: false as const, ids: [futian] };
    const candidates = await candidateIds(t.db, scope, undefined, {}, batch.batch.max_media_id);
    expect(candidates).toEqual([items.a, items.b, items.c]);
    expect(drawSample(candidates, batch.batch.seed, 2)).toEqual(drawn);
    expect(await actions(items.b)).toEqual(before);

    // more than there are: every candidate once
    const all = await api<CheckBatchDetail>(t.app, 'checkDraw', sup1, { count: 100 });
    expect(all.data.batch.drawn).toBe(3);
    expect(all.data.items.map((i) => i.media_id).sort((a, b) => a - b)).toEqual([items.a, items.b, items.c]);
    const images = await api<CheckBatchDetail>(t.app, 'checkDraw', sup1, { count: 5, media_type: 3 });
    expect(images.data.items.map((i) => i.media_id)).toEqual([items.b]);
    expect(images.data.batch.filters).toMatchObject({ media_type: 3, unit_id: null });
    const luohuDraw = await api<CheckBatchDetail>(t.app, 'checkDraw', luohuSup, { count: 10 });
    expect(luohuDraw.data.items.map((i) => i.media_id)).toEqual([items.foreign]);
  });

  it('validates the draw', async () => {
    for (const count of [0, 101, 'x']) {
      const r = await api(t.app, 'checkDraw', sup1, { count });
      expect(r.code).toBe(ResultCode.INVALID);
    }
    const none = await api(t.app, 'checkDraw', sup1, {
      count: 1,
      recorded_start: '2001-01-01',
      recorded_end: '2001-01-02',
    });
    expect(none.code).toBe(ResultCode.INVALID);
    expect((await api(t.app, 'checkDraw', sup1, { count: 1, unit_id: luohu })).code).toBe(ResultCode.NOT_FOUND);
    expect((await api(t.app, 'checkDraw', viewer, { count: 1 })).code).toBe(ResultCode.FORBIDDEN);
  });

  it('records results with a verified custody entry; other units see no batch', async () => {
    const id = batch.items[0]!.media_id;
    const before = await actions(id);
    const r = await api<CheckItem>(t.app, 'checkResult', sup2, {
      batch_id: batch.batch.id,
      media_id: id,
      result: 'fail',
      note: '未全程录像',
    });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ result: 'fail', note: '未全程录像', media_id: id });
    expect(r.data.checked_at).not.toBeNull();
    expect(await actions(id)).toEqual([...before, 'verified']);
    const custody = await api<CustodyAnswer>(t.app, 'mediaCustody', sup1, { id });
    expect(custody.data.chain_ok).toBe(true);
    expect(JSON.parse(custody.data.entries.at(-1)!.detail)).toEqual({
      check_batch: batch.batch.id,
      result: 'fail',
      note: '未全程录像',
    });
    // changed to doubtful
    await api(t.app, 'checkResult', sup1, { batch_id: batch.batch.id, media_id: id, result: 'doubtful' });
    const second = batch.items[1]!.media_id;
    await api(t.app, 'checkResult', sup1, { batch_id: batch.batch.id, media_id: second, result: 'pass' });
    const detail = await api<CheckBatchDetail>(t.app, 'checkBatch', sup1, { id: batch.batch.id });
    expect(detail.data.batch).toMatchObject({ pass: 1, doubtful: 1, fail: 0, pending: 0 });
    expect(detail.data.items.map((i) => i.result)).toEqual(['doubtful', 'pass']);

    const notIn = await api(t.app, 'checkResult', sup1, {
      batch_id: batch.batch.id,
      media_id: items.foreign,
      result: 'pass',
    });
    expect(notIn.code).toBe(ResultCode.INVALID);
    const bad = await api(t.app, 'checkResult', sup1, { batch_id: batch.batch.id, media_id: id, result: 'ok' });
    expect(bad.code).toBe(ResultCode.INVALID);
    expect((await api(t.app, 'checkBatch', luohuSup, { id: batch.batch.id })).code).toBe(ResultCode.NOT_FOUND);
    const foreign = await api(t.app, 'checkResult', luohuSup, {
      batch_id: batch.batch.id,
      media_id: id,
      result: 'pass',
    });
    expect(foreign.code).toBe(ResultCode.NOT_FOUND);
    expect(
      (await api(t.app, 'checkResult', viewer, { batch_id: batch.batch.id, media_id: id, result: 'pass' })).code,
    ).toBe(ResultCode.FORBIDDEN);
  });

  it('lists batches of the caller units (checkrecord/get) with counts and filters', async () => {
    const list = async (s: Session, f: Record<string, unknown> = {}) =>
      (await api<Page<CheckBatch>>(t.app, 'checkRecords', s, f)).data;
    const mine = await list(sup1);
    expect(mine.total).toBe(3);
    expect(mine.list.every((b) => b.unit_id === futian)).toBe(true);
    expect((await list(sup1, { done: 1 })).list.map((b) => b.id)).toEqual([batch.batch.id]);
    expect((await list(sup1, { done: 0 })).total).toBe(2);
    expect((await list(sup1, { start: '2001-01-01', end: '2001-01-02' })).total).toBe(0);
    expect((await list(luohuSup)).total).toBe(1);
    expect((await list(admin)).total).toBe(4);
    expect((await api(t.app, 'checkRecords', viewer, {})).code).toBe(ResultCode.FORBIDDEN);
  });

  it('writes scores, draws and results on the operation log', async () => {
    const logged = async (path: string) =>
      (
        await t.db
          .selectFrom('operation_log')
          .select(['target', 'result_code'])
          .where('action', '=', path)
          .orderBy('id')
          .execute()
      ).map((r) => [r.target, r.result_code]);
    expect(await logged(Api.mediaScoreUpdate.path)).toContainEqual([String(items.a), 200]);
    expect(await logged(Api.checkDraw.path)).toContainEqual([String(batch.batch.id), 200]);
    expect(await logged(Api.checkResult.path)).toContainEqual([`${batch.batch.id}:${batch.items[0]!.media_id}`, 200]);
  });
});
