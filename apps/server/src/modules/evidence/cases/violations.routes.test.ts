import { Api, ArchiveMenu, type CaseRecord, type MediaItem, type Page } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { unitIdOf } from '../../../../test/devices';
import { createRole, createTestApp, createUser, login, type Session, type TestApp } from '../../../../test/helpers';
import { verifyChain } from '../custody';
import { retentionExemptIds } from './cases.repository';
import { insertItem, PNG } from '../library/library.fixture';

let t: TestApp;
/** lawDoc view/edit/add; unit Futian */
let supervisor: Session;
/** same rights, unit Luohu */
let luohuSupervisor: Session;
/** lawDoc view only; unit Futian */
let viewer: Session;
let futian: number;
let officer: { id: number };
let luohuOfficer: { id: number };

const violation = (s: Session, extra: Record<string, unknown> = {}) =>
  api<CaseRecord>(t.app, 'violationAdd', s, {
    title: '未全程录像',
    content: '处警过程中途关闭记录仪',
    occurred_at: '2024-06-01 10:00:00',
    officer_id: officer.id,
    violation_type: 'incomplete',
    ...extra,
  });

const custody = (id: number) =>
  t.db.selectFrom('evidence_custody').selectAll().where('media_id', '=', id).orderBy('seq').execute();

beforeAll(async () => {
  t = await createTestApp();
  futian = await unitIdOf(t.db, '440304000000');
  const role = await createRole(t.db, 'supervision', [
    { ids: [ArchiveMenu.LAW_DOC], actions: ['view', 'edit', 'add'] },
  ]);
  const s1 = await createUser(t.db, { roleId: role, unitBh: '440304000000', hostname: '督察王' });
  supervisor = await login(t.app, s1.username, s1.password);
  const s2 = await createUser(t.db, { roleId: role, unitBh: '440303000000' });
  luohuSupervisor = await login(t.app, s2.username, s2.password);
  const viewRole = await createRole(t.db, 'lawdoc view', [{ ids: [ArchiveMenu.LAW_DOC], actions: ['view'] }]);
  const v = await createUser(t.db, { roleId: viewRole, unitBh: '440304000000' });
  viewer = await login(t.app, v.username, v.password);
  officer = await createUser(t.db, { unitBh: '440304000000', hostname: '张警官' });
  luohuOfficer = await createUser(t.db, { unitBh: '440303000000', hostname: '罗湖民警' });
});

afterAll(async () => {
  await t?.close();
});

describe('violation records', () => {
  it("registers one with its items linked (custody 'linked'), lists and filters it", async () => {
    const a = await insertItem(t.app, { unit_id: futian, bytes: PNG });
    const b = await insertItem(t.app, { unit_id: futian, bytes: PNG });
    const res = await violation(supervisor, { media_ids: [a.id, b.id, a.id] });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({
      kind: 'violation',
      state: 'open',
      unit_id: futian,
      officer_id: officer.id,
      officer_name: '张警官',
      violation_type: 'incomplete',
      created_by_name: '督察王',
      media_count: 2,
    });
    expect(res.data.no).toMatch(/^WF\d{16}$/);
    for (const m of [a, b]) {
      const entries = await custody(m.id);
      expect(entries.at(-1)).toMatchObject({ action: 'linked', actor: '督察王' });
      expect(JSON.parse(entries.at(-1)!.detail)).toEqual({ kind: 'violation', no: res.data.no, action: 'link' });
      expect((await verifyChain(t.db, m.id)).ok).toBe(true);
    }
    const media = await api<MediaItem[]>(t.app, 'violationMedia', viewer, { id: res.data.id });
    expect(media.data.map((m) => m.id).sort()).toEqual([a.id, b.id].sort());

    await violation(supervisor, { no: 'WF-2', title: '遮挡镜头', violation_type: 'covered' });
    const all = await api<Page<CaseRecord>>(t.app, 'violationList', viewer, {});
    expect(all.data.total).toBe(2);
    const covered = await api<Page<CaseRecord>>(t.app, 'violationList', viewer, { violation_type: 'covered' });
    expect(covered.data.list.map((r) => r.no)).toEqual(['WF-2']);
    const byOfficer = await api<Page<CaseRecord>>(t.app, 'violationList', viewer, { officer_id: officer.id });
    expect(byOfficer.data.total).toBe(2);
    const none = await api<Page<CaseRecord>>(t.app, 'violationList', viewer, { officer_id: luohuOfficer.id });
    expect(none.data.total).toBe(0);
    // another unit sees none of them and cannot read one
    expect((await api<Page<CaseRecord>>(t.app, 'violationList', luohuSupervisor, {})).data.total).toBe(0);
    expect((await api(t.app, 'violationMedia', luohuSupervisor, { id: res.data.id })).code).toBe(404);
    expect((await api(t.app, 'violationCancel', luohuSupervisor, { id: res.data.id, reason: 'x' })).code).toBe(404);
  });

  it('refuses bad input with the field named, an officer or items of another unit, and writes nothing', async () => {
    const before = (await api<Page<CaseRecord>>(t.app, 'violationList', supervisor, {})).data.total;
    const badType = await violation(supervisor, { violation_type: 'speeding' });
    expect(badType.code).toBe(400);
    expect(badType.msg).toContain('violation_type');
    const noContent = await violation(supervisor, { content: ' ' });
    expect(noContent.code).toBe(400);
    expect(noContent.msg).toContain('content');
    const noOfficer = await violation(supervisor, { officer_id: undefined });
    expect(noOfficer.code).toBe(400);
    expect(noOfficer.msg).toContain('officer_id');
    expect((await violation(supervisor, { officer_id: luohuOfficer.id })).code).toBe(404);
    expect((await violation(supervisor, { officer_id: 999999 })).code).toBe(404);
    const luohu = await unitIdOf(t.db, '440303000000');
    expect((await violation(supervisor, { unit_id: luohu })).code).toBe(404);
    await violation(supervisor, { no: 'WF-TAKEN' });
    const taken = await violation(supervisor, { no: 'WF-TAKEN' });
    expect(taken.code).toBe(400);
    expect(taken.msg).toContain('WF-TAKEN');
    const elsewhere = await insertItem(t.app, { unit_id: luohu, bytes: PNG });
    const mine = await insertItem(t.app, { unit_id: futian, bytes: PNG });
    const refused = await violation(supervisor, { media_ids: [mine.id, elsewhere.id] });
    expect(refused.code).toBe(404);
    expect(refused.msg).toContain(String(elsewhere.id));
    // only WF-TAKEN was written: no refused record, and the item of the caller's unit was not linked
    expect((await api<Page<CaseRecord>>(t.app, 'violationList', supervisor, {})).data.total).toBe(before + 1);
    expect((await custody(mine.id)).map((e) => e.action)).toEqual(['uploaded']);
  });

  it("names officers of the caller's units only", async () => {
    const found = await api<{ id: number; name: string }[]>(t.app, 'violationOfficers', viewer, { keyword: '警官' });
    expect(found.data.map((o) => o.name)).toEqual(['张警官']);
    const luohu = await api<{ id: number; name: string }[]>(t.app, 'violationOfficers', luohuSupervisor, {
      keyword: '警',
    });
    expect(luohu.data.map((o) => o.id)).toEqual([luohuOfficer.id]);
  });

  it('is refused without the menu action', async () => {
    expect((await violation(viewer)).code).toBe(403);
    const mine = (await violation(supervisor, { no: 'WF-PERM' })).data;
    expect((await api(t.app, 'violationClose', viewer, { id: mine.id, reason: '已处理' })).code).toBe(403);
    expect((await api(t.app, 'violationCancel', viewer, { id: mine.id, reason: 'x' })).code).toBe(403);
  });

  it('closes with the result or cancels with a reason; then it cannot change; both are audited', async () => {
    const a = (await violation(supervisor, { no: 'WF-CLOSE' })).data;
    const noResult = await api(t.app, 'violationClose', supervisor, { id: a.id, reason: '' });
    expect(noResult.code).toBe(400);
    const closed = await api<CaseRecord>(t.app, 'violationClose', supervisor, { id: a.id, reason: '批评教育' });
    expect(closed.data).toMatchObject({ state: 'closed', cancel_reason: '批评教育', cancelled_by_name: '督察王' });
    const again = await api(t.app, 'violationCancel', supervisor, { id: a.id, reason: 'x' });
    expect(again.code).toBe(409);
    expect(again.msg).toContain('已办结');
    const item = await insertItem(t.app, { unit_id: futian, bytes: PNG });
    const link = await api(t.app, 'violationMediaWrite', supervisor, {
      id: a.id,
      media_ids: [item.id],
      action: 'link',
    });
    expect(link.code).toBe(409);

    const b = (await violation(supervisor, { no: 'WF-CANCEL' })).data;
    const cancelled = await api<CaseRecord>(t.app, 'violationCancel', supervisor, { id: b.id, reason: '登记错误' });
    expect(cancelled.data).toMatchObject({ state: 'cancelled', cancel_reason: '登记错误' });
    const closedList = await api<Page<CaseRecord>>(t.app, 'violationList', supervisor, { state: 'closed' });
    expect(closedList.data.list.map((r) => r.no)).toEqual(['WF-CLOSE']);

    const logged = await t.db
      .selectFrom('operation_log')
      .select(['action', 'target', 'result_code'])
      .where('target', 'in', [String(a.id), String(b.id)])
      .where('result_code', '=', 200)
      .orderBy('id')
      .execute();
    expect(logged).toEqual([
      { action: Api.violationAdd.path, target: String(a.id), result_code: 200 },
      { action: Api.violationClose.path, target: String(a.id), result_code: 200 },
      { action: Api.violationAdd.path, target: String(b.id), result_code: 200 },
      { action: Api.violationCancel.path, target: String(b.id), result_code: 200 },
    ]);
  });

  it('links and unlinks items later like incidents do', async () => {
    const a = (await violation(supervisor, { no: 'WF-LINK' })).data;
    const item = await insertItem(t.app, { unit_id: futian, bytes: PNG });
    const linked = await api<{ changed: number }>(t.app, 'violationMediaWrite', supervisor, {
      id: a.id,
      media_ids: [item.id],
      action: 'link',
    });
    expect(linked.data.changed).toBe(1);
    const row = await t.db.selectFrom('evidence_items').select('linked').where('id', '=', item.id).executeTakeFirst();
    expect(row?.linked).toBe(1);
    const unlinked = await api<{ changed: number }>(t.app, 'violationMediaWrite', supervisor, {
      id: a.id,
      media_ids: [item.id],
      action: 'unlink',
    });
    expect(unlinked.data.changed).toBe(1);
    expect((await custody(item.id)).map((e) => e.action)).toEqual(['uploaded', 'linked', 'linked']);
  });

  it("keeps an open violation's items from retention; closed, they follow the rules again", async () => {
    const item = await insertItem(t.app, { unit_id: futian, bytes: PNG });
    const other = await insertItem(t.app, { unit_id: futian, bytes: PNG });
    const a = (await violation(supervisor, { no: 'WF-KEEP', media_ids: [item.id] })).data;
    expect([...(await retentionExemptIds(t.db, [item.id, other.id]))]).toEqual([item.id]);
    expect((await api(t.app, 'violationClose', supervisor, { id: a.id, reason: '批评教育' })).code).toBe(200);
    expect((await retentionExemptIds(t.db, [item.id])).size).toBe(0);
  });
});
