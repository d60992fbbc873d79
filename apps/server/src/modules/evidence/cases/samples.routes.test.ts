import { Api, ArchiveMenu, type CaseRecord, type CaseSample, type MediaItem, type Page } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { unitIdOf } from '../../../../test/devices';
import { createRole, createTestApp, createUser, login, type Session, type TestApp } from '../../../../test/helpers';
import { insertItem, PNG } from '../library/library.fixture';

let t: TestApp;
/** case + sample view/edit/add; unit Futian */
let desk: Session;
/** same rights, unit Luohu */
let luohuDesk: Session;
/** sample view only, no case menu; unit Futian */
let trainee: Session;
/** case rights without the sample menu; unit Futian */
let caseOnly: Session;
let futian: number;

let seq = 0;
const newCase = async (s: Session, extra: Record<string, unknown> = {}) =>
  (
    await api<CaseRecord>(t.app, 'caseAdd', s, {
      no: `AJ-S-${++seq}`,
      title: `案件 ${seq}`,
      occurred_at: `2024-07-0${seq % 9 || 1} 10:00:00`,
      ...extra,
    })
  ).data;

beforeAll(async () => {
  t = await createTestApp();
  futian = await unitIdOf(t.db, '440304000000');
  const role = await createRole(t.db, 'case desk', [
    { ids: [ArchiveMenu.CASE, ArchiveMenu.SAMPLE], actions: ['view', 'edit', 'add'] },
  ]);
  const u1 = await createUser(t.db, { roleId: role, unitBh: '440304000000', hostname: '陈法制' });
  desk = await login(t.app, u1.username, u1.password);
  const u2 = await createUser(t.db, { roleId: role, unitBh: '440303000000' });
  luohuDesk = await login(t.app, u2.username, u2.password);
  const viewRole = await createRole(t.db, 'sample view', [{ ids: [ArchiveMenu.SAMPLE], actions: ['view'] }]);
  const u3 = await createUser(t.db, { roleId: viewRole, unitBh: '440304000000' });
  trainee = await login(t.app, u3.username, u3.password);
  const caseRole = await createRole(t.db, 'case only', [{ ids: [ArchiveMenu.CASE], actions: ['view', 'edit', 'add'] }]);
  const u4 = await createUser(t.db, { roleId: caseRole, unitBh: '440304000000' });
  caseOnly = await login(t.app, u4.username, u4.password);
});

afterAll(async () => {
  await t?.close();
});

describe('case samples', () => {
  it('marks a case with a summary; the list shows the case, summary and media count; its media open', async () => {
    const c = await newCase(desk);
    const item = await insertItem(t.app, { unit_id: futian, bytes: PNG });
    await api(t.app, 'caseMediaWrite', desk, { id: c.id, media_ids: [item.id], action: 'link' });
    const marked = await api<CaseSample>(t.app, 'sampleAdd', desk, { id: c.id, summary: '规范取证的典型' });
    expect(marked.code).toBe(200);
    expect(marked.data).toMatchObject({ id: c.id, sample: 1, summary: '规范取证的典型', marked_by_name: '陈法制' });
    // the case screen shows the mark
    const cases = await api<Page<CaseRecord>>(t.app, 'caseList', desk, { no: c.no });
    expect(cases.data.list[0]!.sample).toBe(1);

    const other = await newCase(desk, { title: '其他案件' });
    await api(t.app, 'sampleAdd', desk, { id: other.id, summary: '文明执法' });
    const list = await api<Page<CaseSample>>(t.app, 'sampleList', trainee, {});
    expect(list.data.total).toBe(2);
    // latest marked first
    expect(list.data.list.map((s) => s.no)).toEqual([other.no, c.no]);
    expect(list.data.list[1]).toMatchObject({ no: c.no, summary: '规范取证的典型', media_count: 1 });
    const kw = await api<Page<CaseSample>>(t.app, 'sampleList', trainee, { keyword: '文明' });
    expect(kw.data.list.map((s) => s.no)).toEqual([other.no]);
    const media = await api<MediaItem[]>(t.app, 'sampleMedia', trainee, { id: c.id });
    expect(media.data.map((m) => m.id)).toEqual([item.id]);
    // the trainee has no case menu: the case's own media call stays closed to him
    expect((await api(t.app, 'caseMedia', trainee, { id: c.id })).code).toBe(403);
  });

  it('refuses a second mark, a cancelled case, bad input, another unit, and a case that is no sample', async () => {
    const c = await newCase(desk);
    expect((await api(t.app, 'sampleAdd', desk, { id: c.id, summary: '一' })).code).toBe(200);
    const twice = await api(t.app, 'sampleAdd', desk, { id: c.id, summary: '二' });
    expect(twice.code).toBe(409);
    expect(twice.msg).toContain(c.no);
    const noSummary = await api(t.app, 'sampleAdd', desk, { id: c.id, summary: '  ' });
    expect(noSummary.code).toBe(400);
    expect(noSummary.msg).toContain('summary');
    const badId = await api(t.app, 'sampleAdd', desk, { id: 'x', summary: '一' });
    expect(badId.code).toBe(400);
    expect(badId.msg).toContain('id');

    const cancelled = await newCase(desk);
    await api(t.app, 'caseCancel', desk, { id: cancelled.id, reason: '重复' });
    const refused = await api(t.app, 'sampleAdd', desk, { id: cancelled.id, summary: '一' });
    expect(refused.code).toBe(409);

    // another unit: the case does not exist for it, its list holds none of ours
    expect((await api(t.app, 'sampleAdd', luohuDesk, { id: c.id, summary: '一' })).code).toBe(404);
    expect((await api(t.app, 'sampleDel', luohuDesk, { id: c.id })).code).toBe(404);
    expect((await api(t.app, 'sampleMedia', luohuDesk, { id: c.id })).code).toBe(404);
    const theirs = await api<Page<CaseSample>>(t.app, 'sampleList', luohuDesk, {});
    expect(theirs.data.list.map((s) => s.id)).not.toContain(c.id);

    const plain = await newCase(desk);
    expect((await api(t.app, 'sampleMedia', desk, { id: plain.id })).code).toBe(404);
    expect((await api(t.app, 'sampleDel', desk, { id: plain.id })).code).toBe(404);
  });

  it('needs the sample menu: view lists, add marks, edit unmarks', async () => {
    const c = await newCase(desk);
    expect((await api(t.app, 'sampleAdd', caseOnly, { id: c.id, summary: '一' })).code).toBe(403);
    expect((await api(t.app, 'sampleList', caseOnly, {})).code).toBe(403);
    expect((await api(t.app, 'sampleAdd', trainee, { id: c.id, summary: '一' })).code).toBe(403);
    await api(t.app, 'sampleAdd', desk, { id: c.id, summary: '一' });
    expect((await api(t.app, 'sampleDel', trainee, { id: c.id })).code).toBe(403);
  });

  it('unmarks; both are on the operation log', async () => {
    const c = await newCase(desk);
    await api(t.app, 'sampleAdd', desk, { id: c.id, summary: '一' });
    const del = await api(t.app, 'sampleDel', desk, { id: c.id });
    expect(del.code).toBe(200);
    const list = await api<Page<CaseSample>>(t.app, 'sampleList', desk, {});
    expect(list.data.list.map((s) => s.id)).not.toContain(c.id);
    const cases = await api<Page<CaseRecord>>(t.app, 'caseList', desk, { no: c.no });
    expect(cases.data.list[0]!.sample).toBe(0);
    // marking again works after an unmark
    expect((await api(t.app, 'sampleAdd', desk, { id: c.id, summary: '二' })).code).toBe(200);
    const logged = await t.db
      .selectFrom('operation_log')
      .select(['action', 'result_code'])
      .where('target', '=', String(c.id))
      .where('action', 'like', '/rest/yw/anjian/sample%')
      .orderBy('id')
      .execute();
    expect(logged).toEqual([
      { action: Api.sampleAdd.path, result_code: 200 },
      { action: Api.sampleDel.path, result_code: 200 },
      { action: Api.sampleAdd.path, result_code: 200 },
    ]);
  });
});
