import {
  Api,
  MenuId,
  ResultCode,
  type MediaScoreAnswer,
  type Page,
  type RubricVersion,
  type VideoScoreRow,
} from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { unitIdOf } from '../../../../test/devices';
import { createRole, createTestApp, createUser, login, type Session, type TestApp } from '../../../../test/helpers';
import { insertItem, makeMp4 } from '../library/library.fixture';
import { holdRubric } from './scores';

let t: TestApp;
/** peer review 10261 view/add/edit and law media view/edit, Futian */
let boss: Session;
/** law media view/edit (scores) but no peer review menu */
let scorer: Session;
/** peer review view only */
let reader: Session;
let scorerId: number;
let futian: number;
let itemA: number;
let itemB: number;

const criteria = (...keys: string[]) => keys.map((key, i) => ({ key, label_zh: `项${i + 1}`, label_en: '', max: 10 }));
const list = async (s: Session = boss) => (await api<RubricVersion[]>(t.app, 'rubricList', s, {})).data;
const logged = (target: string) =>
  t.db
    .selectFrom('operation_log')
    .select(['action', 'result_code'])
    .where('target', '=', target)
    .where('action', 'like', '/rest/media/rubric_%')
    .orderBy('id')
    .execute();

beforeAll(async () => {
  t = await createTestApp();
  futian = await unitIdOf(t.db, '440304000000');
  const chief = await createRole(t.db, 'review chief', [
    { ids: [MenuId.PEER_REVIEW, MenuId.LAW_MEDIA], actions: ['view', 'edit', 'add'] },
  ]);
  const u1 = await createUser(t.db, { roleId: chief, unitBh: '440304000000', hostname: '赵科长' });
  boss = await login(t.app, u1.username, u1.password);
  const scoring = await createRole(t.db, 'scorer', [{ ids: [MenuId.LAW_MEDIA], actions: ['view', 'edit'] }]);
  const u2 = await createUser(t.db, { roleId: scoring, unitBh: '440304000000' });
  scorer = await login(t.app, u2.username, u2.password);
  scorerId = u2.id;
  const readOnly = await createRole(t.db, 'review reader', [{ ids: [MenuId.PEER_REVIEW], actions: ['view'] }]);
  const u3 = await createUser(t.db, { roleId: readOnly, unitBh: '440304000000' });
  reader = await login(t.app, u3.username, u3.password);
  const mp4 = await makeMp4(1);
  itemA = (await insertItem(t.app, { unit_id: futian, bytes: mp4, title: 'traffic stop' })).id;
  itemB = (await insertItem(t.app, { unit_id: futian, bytes: mp4, title: 'patrol' })).id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('rubrics', () => {
  it('lists the built-in rubric as version 1, active', async () => {
    const all = await list(reader);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ name_zh: '执法规范', version: 1, active: 1, latest: 1, scores: 0, max_total: 100 });
    expect(all[0]!.root_id).toBe(all[0]!.id);
  });

  it('refuses invalid rubrics with a message naming the problem, writing nothing', async () => {
    const none = await api(t.app, 'rubricAdd', boss, { name_zh: '空', criteria: [] });
    expect(none.code).toBe(ResultCode.INVALID);
    expect(none.msg).toContain('1 到 20');
    const many = await api(
      t.app,
      'rubricAdd',
      boss,
      { name_zh: '多', criteria: criteria(...Array.from({ length: 21 }, (_, i) => `k${i}`)) },
      'en-US',
    );
    expect(many.code).toBe(ResultCode.INVALID);
    expect(many.msg).toContain('1 to 20 criteria');
    const twice = await api(t.app, 'rubricAdd', boss, { name_zh: '重复', criteria: criteria('a', 'b', 'a') });
    expect(twice.code).toBe(ResultCode.INVALID);
    expect(twice.msg).toContain('不能重复');
    const zero = await api(t.app, 'rubricAdd', boss, {
      name_zh: '零分',
      criteria: [{ key: 'a', label_zh: '甲', max: 0 }],
    });
    expect(zero.code).toBe(ResultCode.INVALID);
    const badKey = await api(t.app, 'rubricAdd', boss, {
      name_zh: '标识',
      criteria: [{ key: '1 x', label_zh: '甲', max: 5 }],
    });
    expect(badKey.code).toBe(ResultCode.INVALID);
    expect(badKey.msg).toContain('字母开头');
    const noName = await api(t.app, 'rubricAdd', boss, { name_zh: ' ', criteria: criteria('a') });
    expect(noName.code).toBe(ResultCode.INVALID);
    expect(await list()).toHaveLength(1);
  });

  it('checks the menu: view lists, add creates, edit changes and activates', async () => {
    expect((await api(t.app, 'rubricList', scorer, {})).code).toBe(ResultCode.FORBIDDEN);
    expect((await api(t.app, 'rubricAdd', reader, { name_zh: '甲', criteria: criteria('a') })).code).toBe(
      ResultCode.FORBIDDEN,
    );
    const id = (await list())[0]!.id;
    expect((await api(t.app, 'rubricActive', reader, { id })).code).toBe(ResultCode.FORBIDDEN);
    expect((await api(t.app, 'rubricEdit', scorer, { id, name_zh: '改', criteria: criteria('a') })).code).toBe(
      ResultCode.FORBIDDEN,
    );
    expect(await list()).toHaveLength(1);
  });

  it('creates, edits in place while unscored, activates (one active), audited', async () => {
    const added = await api<RubricVersion>(t.app, 'rubricAdd', boss, {
      name_zh: '现场处置',
      name_en: '',
      criteria: [
        { key: 'safety', label_zh: '现场安全', label_en: 'Scene safety', max: 30 },
        { key: 'evidence', label_zh: '证据固定', label_en: '', max: 20 },
      ],
    });
    expect(added.code).toBe(200);
    expect(added.data).toMatchObject({
      name_zh: '现场处置',
      name_en: '现场处置',
      version: 1,
      active: 0,
      latest: 1,
      max_total: 50,
    });
    expect(added.data.criteria[1]).toEqual({ key: 'evidence', label_zh: '证据固定', label_en: '证据固定', max: 20 });
    const id = added.data.id;

    const edited = await api<RubricVersion>(t.app, 'rubricEdit', boss, {
      id,
      name_zh: '现场处置',
      name_en: 'On-scene handling',
      criteria: [
        { key: 'safety', label_zh: '现场安全', label_en: 'Scene safety', max: 40 },
        { key: 'evidence', label_zh: '证据固定', label_en: 'Evidence', max: 20 },
      ],
    });
    // nobody scored with it: the same row changes
    expect(edited.data).toMatchObject({ id, version: 1, max_total: 60, name_en: 'On-scene handling' });
    expect(await list()).toHaveLength(2);

    const active = await api<RubricVersion>(t.app, 'rubricActive', boss, { id });
    expect(active.data).toMatchObject({ id, active: 1 });
    expect((await list()).filter((r) => r.active === 1).map((r) => r.id)).toEqual([id]);
    const answer = await api<MediaScoreAnswer>(t.app, 'mediaScoreGet', scorer, { id: itemA });
    expect(answer.data.rubric).toMatchObject({ id, max_total: 60 });

    expect(await logged(String(id))).toEqual([
      { action: Api.rubricAdd.path, result_code: 200 },
      { action: Api.rubricEdit.path, result_code: 200 },
      { action: Api.rubricActive.path, result_code: 200 },
    ]);
    expect((await api(t.app, 'rubricActive', boss, { id: 99999 })).code).toBe(ResultCode.INVALID);
  });

  it('versions a scored rubric: scores keep the version they were made with', async () => {
    const current = (await list()).find((r) => r.active === 1)!;
    const s1 = await api<MediaScoreAnswer>(t.app, 'mediaScoreUpdate', scorer, {
      id: itemA,
      items: [
        { key: 'safety', score: 30 },
        { key: 'evidence', score: 15 },
      ],
    });
    expect(s1.code).toBe(200);
    expect(s1.data.mine?.rubric).toMatchObject({ id: current.id, name_zh: '现场处置', version: 1 });

    const edited = await api<RubricVersion>(t.app, 'rubricEdit', boss, {
      id: current.id,
      name_zh: '现场处置',
      criteria: [
        { key: 'safety', label_zh: '现场安全', max: 50 },
        { key: 'evidence', label_zh: '证据固定', max: 30 },
        { key: 'report', label_zh: '及时报告', max: 20 },
      ],
    });
    expect(edited.code).toBe(200);
    const v2 = edited.data;
    expect(v2.id).not.toBe(current.id);
    expect(v2).toMatchObject({ root_id: current.root_id, version: 2, active: 1, latest: 1, max_total: 100, scores: 0 });
    const v1 = (await list()).find((r) => r.id === current.id)!;
    // the old version is unchanged, no longer active nor editable
    expect(v1).toMatchObject({ version: 1, active: 0, latest: 0, max_total: 60, scores: 1 });
    expect(v1.criteria.map((c) => c.max)).toEqual([40, 20]);
    expect(await logged(`${current.id}->${v2.id}`)).toEqual([{ action: Api.rubricEdit.path, result_code: 200 }]);

    // the old score still shows its rubric version and points
    const read = await api<MediaScoreAnswer>(t.app, 'mediaScoreGet', scorer, { id: itemA });
    expect(read.data.rubric).toMatchObject({ id: v2.id });
    expect(read.data.scores[0]).toMatchObject({ total: 45, max_total: 60, rubric: { id: current.id, version: 1 } });
    expect(read.data.scores[0]!.rubric.criteria.map((c) => c.max)).toEqual([40, 20]);

    // an older version can be neither edited nor activated
    const old = await api(t.app, 'rubricEdit', boss, { id: current.id, name_zh: '旧', criteria: criteria('a') });
    expect(old.code).toBe(ResultCode.INVALID);
    expect(old.msg).toContain('最新版本');
    expect((await api(t.app, 'rubricActive', boss, { id: current.id })).code).toBe(ResultCode.INVALID);
    expect((await list()).find((r) => r.id === current.id)!.name_zh).toBe('现场处置');

    // a new score uses version 2
    const s2 = await api<MediaScoreAnswer>(t.app, 'mediaScoreUpdate', boss, {
      id: itemB,
      items: [
        { key: 'safety', score: 40 },
        { key: 'evidence', score: 30 },
        { key: 'report', score: 0 },
      ],
    });
    expect(s2.data.mine?.rubric).toMatchObject({ id: v2.id, version: 2 });
  });

  it('lists scored items with their newest score, filtered by officer and score range', async () => {
    const page = async (body: Record<string, unknown>) =>
      (await api<Page<VideoScoreRow>>(t.app, 'videoScore', boss, { scored: 1, ...body })).data.list;
    const all = await page({});
    expect(all.map((r) => r.id).sort()).toEqual([itemA, itemB].sort());
    const a = all.find((r) => r.id === itemA)!;
    expect(a.score).toBe(75);
    expect(a.last_score).toMatchObject({ total: 45, max_total: 60, rubric: { name_zh: '现场处置', version: 1 } });
    expect(all.find((r) => r.id === itemB)!.last_score).toMatchObject({ user_name: '赵科长', rubric: { version: 2 } });
    expect((await page({ score_min: 69, score_max: 71 })).map((r) => r.id)).toEqual([itemB]);
    expect((await page({ score_min: 75 })).map((r) => r.id)).toEqual([itemA]);
    const bad = await api(t.app, 'videoScore', boss, { score_max: 101 });
    expect(bad.code).toBe(ResultCode.INVALID);
    // the officer filter: item A is made the scorer's own recording
    await t.db.updateTable('evidence_items').set({ user_id: scorerId }).where('id', '=', itemA).execute();
    expect((await page({ user_id: scorerId })).map((r) => r.id)).toEqual([itemA]);
  });

  it('refuses a score checked against a rubric changed in place meanwhile', async () => {
    const x = (await api<RubricVersion>(t.app, 'rubricAdd', boss, { name_zh: '临时', criteria: criteria('a') })).data;
    await expect(t.db.transaction().execute((trx) => holdRubric(trx, x))).resolves.toBeUndefined();
    expect(
      (await api(t.app, 'rubricEdit', boss, { id: x.id, name_zh: '临时', criteria: criteria('a', 'b') })).code,
    ).toBe(200);
    await expect(t.db.transaction().execute((trx) => holdRubric(trx, x))).rejects.toMatchObject({
      key: 'errors.review.rubricChanged',
    });
  });
});
