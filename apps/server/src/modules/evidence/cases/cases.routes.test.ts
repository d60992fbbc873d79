import {
  Api,
  ArchiveMenu,
  type ArchiveFile,
  type CaseRecord,
  type IncidentSend,
  type MediaItem,
  type Page,
} from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { addDevice, unitIdOf } from '../../../../test/devices';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../../test/helpers';
import { verifyChain } from '../custody';
import { isRetentionExempt } from './cases.repository';

let t: TestApp;
let admin: Session;
/** lawDoc + case view/edit/add; unit Futian */
let futianUser: Session;
/** same rights, unit Luohu */
let luohuUser: Session;
/** lawDoc view only; unit Futian */
let viewer: Session;
let futian: number;
let luohu: number;

let seq = 0;
/** An evidence item row (linking needs no stored bytes). */
async function item(unitId: number, extra: { deleted_at?: string } = {}): Promise<number> {
  seq++;
  const row = await t.db
    .insertInto('evidence_items')
    .values({
      sha256: seq.toString(16).padStart(64, '0'),
      size: 1000 + seq,
      media_type: 1,
      mime: 'video/mp4',
      ext: 'mp4',
      file_name: `clip${seq}.mp4`,
      title: `clip ${seq}`,
      description: '',
      category: '',
      incident_no: '',
      source: 'console',
      outside: 0,
      device_id: null,
      hostbody: '',
      workstation_id: null,
      user_id: null,
      uploaded_by: null,
      unit_id: unitId,
      recorded_at: new Date(Date.UTC(2024, 0, 1, 0, seq)).toISOString(),
      uploaded_at: new Date().toISOString(),
      duration: 10,
      width: 640,
      height: 360,
      video_codec: 'h264',
      audio_codec: '',
      thumb_sha256: null,
      derivative_sha256: null,
      playable: 'ready',
      flg: 0,
      flg_note: '',
      score: null,
      sensitive: 0,
      linked: 0,
      origin_key: null,
      deleted_at: extra.deleted_at ?? null,
      deleted_by: null,
      delete_reason: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const linkedFlag = async (id: number) =>
  (await t.db.selectFrom('evidence_items').select('linked').where('id', '=', id).executeTakeFirstOrThrow()).linked;
const custody = (id: number) =>
  t.db.selectFrom('evidence_custody').selectAll().where('media_id', '=', id).orderBy('seq').execute();

const incident = (s: Session, extra: Record<string, unknown> = {}) =>
  api<CaseRecord>(t.app, 'incidentAdd', s, {
    title: '抢劫',
    occurred_at: '2024-05-01 10:00:00',
    place: '深南大道',
    ...extra,
  });

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
  luohu = await unitIdOf(t.db, '440303000000');
  const role = await createRole(t.db, 'archive desk', [
    { ids: [ArchiveMenu.LAW_DOC, ArchiveMenu.CASE], actions: ['view', 'edit', 'add'] },
  ]);
  const u1 = await createUser(t.db, { roleId: role, unitBh: '440304000000', hostname: '李警官' });
  futianUser = await login(t.app, u1.username, u1.password);
  const u2 = await createUser(t.db, { roleId: role, unitBh: '440303000000' });
  luohuUser = await login(t.app, u2.username, u2.password);
  const viewRole = await createRole(t.db, 'archive view', [{ ids: [ArchiveMenu.LAW_DOC], actions: ['view'] }]);
  const u3 = await createUser(t.db, { roleId: viewRole, unitBh: '440304000000' });
  viewer = await login(t.app, u3.username, u3.password);
});

afterAll(async () => {
  await t?.close();
});

describe('incidents', () => {
  it('adds with a generated number in the caller unit, lists and filters', async () => {
    const a = await incident(futianUser, { reporter: '张三' });
    expect(a.code).toBe(200);
    expect(a.data).toMatchObject({ kind: 'incident', state: 'open', unit_id: futian, created_by_name: '李警官' });
    expect(a.data.no).toMatch(/^JQ\d{16}$/);
    const b = await incident(futianUser, { no: 'JQ-FT-0001', title: '盗窃', occurred_at: '2024-05-03 09:00' });
    expect(b.data.no).toBe('JQ-FT-0001');
    await incident(luohuUser, { title: '罗湖警情' });

    const all = await api<Page<CaseRecord>>(t.app, 'incidentList', futianUser, {});
    expect(all.data.list.map((r) => r.title)).toEqual(['盗窃', '抢劫']);
    const kw = await api<Page<CaseRecord>>(t.app, 'incidentList', futianUser, { keyword: '盗' });
    expect(kw.data.list.map((r) => r.no)).toEqual(['JQ-FT-0001']);
    const byNo = await api<Page<CaseRecord>>(t.app, 'incidentList', futianUser, { no: 'FT-00' });
    expect(byNo.data.total).toBe(1);
    const range = await api<Page<CaseRecord>>(t.app, 'incidentList', futianUser, {
      start: '2024-05-02 00:00',
      end: '2024-05-04 00:00',
    });
    expect(range.data.list.map((r) => r.title)).toEqual(['盗窃']);
    // the administrator sees both units; a Luohu user only his
    expect((await api<Page<CaseRecord>>(t.app, 'incidentList', admin, {})).data.total).toBe(3);
    expect((await api<Page<CaseRecord>>(t.app, 'incidentList', luohuUser, {})).data.list.map((r) => r.title)).toEqual([
      '罗湖警情',
    ]);
    // asking for a unit outside the scope is refused
    expect((await api(t.app, 'incidentList', futianUser, { unit_id: luohu })).code).toBe(404);
  });

  it('refuses bad input with the field named, a taken number, another unit', async () => {
    const noTitle = await incident(futianUser, { title: ' ' });
    expect(noTitle.code).toBe(400);
    expect(noTitle.msg).toContain('title');
    const badTime = await incident(futianUser, { occurred_at: 'yesterday' });
    expect(badTime.code).toBe(400);
    expect(badTime.msg).toContain('occurred_at');
    const badNo = await incident(futianUser, { no: 'JQ 1' });
    expect(badNo.code).toBe(400);
    expect(badNo.msg).toContain('编号只能包含');
    const taken = await incident(futianUser, { no: 'JQ-FT-0001' });
    expect(taken.code).toBe(400);
    expect(taken.msg).toContain('JQ-FT-0001');
    const elsewhere = await incident(futianUser, { unit_id: luohu });
    expect(elsewhere.code).toBe(404);
    const before = await api<Page<CaseRecord>>(t.app, 'incidentList', admin, {});
    expect(before.data.total).toBe(3);
    const en = await api(t.app, 'incidentAdd', futianUser, { occurred_at: '2024-05-01' }, 'en-US');
    expect(en.msg).toMatch(/title/i);
  });

  it('is refused without the menu action', async () => {
    expect((await incident(viewer)).code).toBe(403);
    expect((await api(t.app, 'incidentList', viewer, {})).code).toBe(200);
    expect((await api(t.app, 'caseList', viewer, {})).code).toBe(403);
  });

  it('cancels with a reason and stays listed as cancelled; a cancelled one cannot change', async () => {
    const a = (await incident(futianUser, { title: '误报' })).data;
    const noReason = await api(t.app, 'incidentCancel', futianUser, { id: a.id, reason: '' });
    expect(noReason.code).toBe(400);
    expect(noReason.msg).toContain('reason');
    const other = await api(t.app, 'incidentCancel', luohuUser, { id: a.id, reason: '重复' });
    expect(other.code).toBe(404);
    const ok = await api<CaseRecord>(t.app, 'incidentCancel', futianUser, { id: a.id, reason: '重复报警' });
    expect(ok.data).toMatchObject({ state: 'cancelled', cancel_reason: '重复报警', cancelled_by_name: '李警官' });
    expect(ok.data.cancelled_at).not.toBeNull();
    // the registration and the cancellations are on the operation log, with the record's id
    const logged = await t.db
      .selectFrom('operation_log')
      .select(['action', 'target', 'result_code'])
      .where('target', '=', String(a.id))
      .where('action', 'like', '/rest/yw/%')
      .orderBy('id')
      .execute();
    // (the refused attempts too: no reason, another unit)
    expect(logged).toEqual([
      { action: Api.incidentAdd.path, target: String(a.id), result_code: 200 },
      { action: Api.incidentCancel.path, target: String(a.id), result_code: 400 },
      { action: Api.incidentCancel.path, target: String(a.id), result_code: 404 },
      { action: Api.incidentCancel.path, target: String(a.id), result_code: 200 },
    ]);
    const listed = await api<Page<CaseRecord>>(t.app, 'incidentList', futianUser, { state: 'cancelled' });
    expect(listed.data.list.map((r) => r.id)).toEqual([a.id]);
    expect((await api(t.app, 'incidentCancel', futianUser, { id: a.id, reason: 'x' })).code).toBe(409);
    const m = await item(futian);
    expect(
      (await api(t.app, 'incidentMediaWrite', futianUser, { id: a.id, media_ids: [m], action: 'link' })).code,
    ).toBe(409);
    expect(await linkedFlag(m)).toBe(0);
  });
});

describe('linking media', () => {
  it('links and unlinks with the linked flag and a custody entry each', async () => {
    const a = (await incident(futianUser, { no: 'JQ-LINK-1' })).data;
    const b = (await incident(futianUser, { no: 'JQ-LINK-2' })).data;
    const m1 = await item(futian);
    const m2 = await item(futian);

    const link = await api<{ changed: number }>(t.app, 'incidentMediaWrite', futianUser, {
      id: a.id,
      media_ids: [m1, m2],
      action: 'link',
    });
    expect(link).toMatchObject({ code: 200, data: { changed: 2 } });
    expect(await linkedFlag(m1)).toBe(1);
    // linking again changes nothing and writes no entry
    expect(
      (
        await api<{ changed: number }>(t.app, 'incidentMediaWrite', futianUser, {
          id: a.id,
          media_ids: [m1],
          action: 'link',
        })
      ).data.changed,
    ).toBe(0);
    await api(t.app, 'incidentMediaWrite', futianUser, { id: b.id, media_ids: [m1], action: 'link' });

    const rel = await api<MediaItem[]>(t.app, 'incidentMedia', futianUser, { id: a.id });
    expect(rel.data.map((r) => r.id)).toEqual([m2, m1]);
    expect(rel.data[0]).toMatchObject({ linked: 1, unit_id: futian, thumb_url: '' });
    const listed = await api<Page<CaseRecord>>(t.app, 'incidentList', futianUser, { no: 'JQ-LINK-1' });
    expect(listed.data.list[0]!.media_count).toBe(2);

    // unlinking from one incident keeps the flag while another still links it
    await api(t.app, 'incidentMediaWrite', futianUser, { id: a.id, media_ids: [m1], action: 'unlink' });
    expect(await linkedFlag(m1)).toBe(1);
    await api(t.app, 'incidentMediaWrite', futianUser, { id: b.id, media_ids: [m1], action: 'unlink' });
    expect(await linkedFlag(m1)).toBe(0);
    expect(await linkedFlag(m2)).toBe(1);

    const entries = await custody(m1);
    expect(entries.map((e) => [e.action, JSON.parse(e.detail)])).toEqual([
      ['linked', { kind: 'incident', no: 'JQ-LINK-1', action: 'link' }],
      ['linked', { kind: 'incident', no: 'JQ-LINK-2', action: 'link' }],
      ['linked', { kind: 'incident', no: 'JQ-LINK-1', action: 'unlink' }],
      ['linked', { kind: 'incident', no: 'JQ-LINK-2', action: 'unlink' }],
    ]);
    expect(entries[0]!.actor).toBe('李警官');
    expect((await verifyChain(t.db, m1)).ok).toBe(true);
  });

  it("answers not found for items of other units, deleted items and other units' incidents, and writes nothing", async () => {
    const a = (await incident(futianUser)).data;
    const mine = await item(futian);
    const theirs = await item(luohu);
    const gone = await item(futian, { deleted_at: new Date().toISOString() });
    for (const ids of [[mine, theirs], [gone], [999999]]) {
      const res = await api(t.app, 'incidentMediaWrite', futianUser, { id: a.id, media_ids: ids, action: 'link' });
      expect(res.code).toBe(404);
    }
    expect(await linkedFlag(mine)).toBe(0);
    expect(await custody(mine)).toHaveLength(0);
    expect(
      (await api(t.app, 'incidentMediaWrite', luohuUser, { id: a.id, media_ids: [theirs], action: 'link' })).code,
    ).toBe(404);
    expect((await api(t.app, 'incidentMedia', luohuUser, { id: a.id })).code).toBe(404);
    const bad = await api(t.app, 'incidentMediaWrite', futianUser, { id: a.id, media_ids: [], action: 'link' });
    expect(bad.code).toBe(400);
    expect(bad.msg).toContain('media_ids');
    const badAction = await api(t.app, 'incidentMediaWrite', futianUser, {
      id: a.id,
      media_ids: [mine],
      action: 'move',
    });
    expect(badAction.code).toBe(400);
    expect(badAction.msg).toContain('action');
  });
});

describe('cases and files', () => {
  it('a case includes incidents; items of an open case are exempt from retention', async () => {
    const i1 = (await incident(futianUser, { no: 'JQ-C-1' })).data;
    const i2 = (await incident(futianUser, { no: 'JQ-C-2' })).data;
    const theirs = (await incident(luohuUser, { no: 'JQ-C-LH' })).data;
    const viaIncident = await item(futian);
    const direct = await item(futian);
    await api(t.app, 'incidentMediaWrite', futianUser, { id: i1.id, media_ids: [viaIncident], action: 'link' });
    expect(await isRetentionExempt(t.db, viaIncident)).toBe(false);

    expect(
      (await api(t.app, 'caseAdd', futianUser, { title: '案件', occurred_at: '2024-05-01', incident_ids: [theirs.id] }))
        .code,
    ).toBe(404);
    const c = await api<CaseRecord>(t.app, 'caseAdd', futianUser, {
      title: '系列盗窃案',
      occurred_at: '2024-05-01',
      incident_ids: [i1.id, i2.id],
    });
    expect(c.code).toBe(200);
    expect(c.data).toMatchObject({ kind: 'case', incident_count: 2 });
    expect(c.data.no).toMatch(/^AJ\d{16}$/);
    // an incident is in one case at a time
    const again = await api(t.app, 'caseAdd', futianUser, {
      title: 'x',
      occurred_at: '2024-05-01',
      incident_ids: [i1.id],
    });
    expect(again.code).toBe(400);
    expect(again.msg).toContain('JQ-C-1');

    const linked = await api(t.app, 'caseMediaWrite', futianUser, {
      id: c.data.id,
      media_ids: [direct],
      action: 'link',
    });
    expect(linked.code).toBe(200);
    expect(JSON.parse((await custody(direct))[0]!.detail)).toEqual({ kind: 'case', no: c.data.no, action: 'link' });
    expect(await isRetentionExempt(t.db, direct)).toBe(true);
    expect(await isRetentionExempt(t.db, viaIncident)).toBe(true);
    // a case id is not an incident id
    expect((await api(t.app, 'incidentMedia', futianUser, { id: c.data.id })).code).toBe(404);

    const file = await api<ArchiveFile>(t.app, 'archiveGet', futianUser, { id: c.data.id });
    expect(file.data.record.no).toBe(c.data.no);
    expect(file.data.media.map((m) => m.id)).toEqual([direct]);
    expect(file.data.incidents.map((r) => r.no).sort()).toEqual(['JQ-C-1', 'JQ-C-2']);
    const incFile = await api<ArchiveFile>(t.app, 'archiveGet', futianUser, { id: i1.id });
    expect(incFile.data.record.case_no).toBe(c.data.no);
    expect(incFile.data.media.map((m) => m.id)).toEqual([viaIncident]);
    expect((await api(t.app, 'archiveGet', luohuUser, { id: c.data.id })).code).toBe(404);
    // the viewer has lawDoc only: incident files yes, case files no
    expect((await api(t.app, 'archiveGet', viewer, { id: i1.id })).code).toBe(200);
    expect((await api(t.app, 'archiveGet', viewer, { id: c.data.id })).code).toBe(403);
    expect((await api(t.app, 'archiveList', viewer, { kind: 'case' })).code).toBe(403);

    const edited = await api<CaseRecord>(t.app, 'archiveEdit', futianUser, {
      id: c.data.id,
      archive_no: 'DA-2024-001',
      archive_state: 'archived',
      keep_years: 30,
      archive_note: '已移送检察院',
    });
    expect(edited.data).toMatchObject({ archive_no: 'DA-2024-001', archive_state: 'archived', keep_years: 30 });
    expect(edited.data.archived_at).not.toBeNull();
    expect(
      (
        await api(t.app, 'archiveEdit', futianUser, {
          id: c.data.id,
          archive_no: '',
          archive_state: 'archived',
          keep_years: 101,
        })
      ).code,
    ).toBe(400);
    const archived = await api<Page<CaseRecord>>(t.app, 'archiveList', futianUser, {
      kind: 'case',
      archive_state: 'archived',
    });
    expect(archived.data.list.map((r) => r.id)).toEqual([c.data.id]);

    // cancelling the case frees its incidents and ends the exemption
    await api(t.app, 'caseCancel', futianUser, { id: c.data.id, reason: '撤案' });
    expect(await isRetentionExempt(t.db, direct)).toBe(false);
    expect(await isRetentionExempt(t.db, viaIncident)).toBe(false);
    const freed = await api<Page<CaseRecord>>(t.app, 'incidentList', futianUser, { no: 'JQ-C-1' });
    expect(freed.data.list[0]!.case_id).toBeNull();
    expect(await linkedFlag(direct)).toBe(1);
  });
});

describe('sending an incident', () => {
  it('sends to terminals of the caller units as instant messages and lists them', async () => {
    const a = (await incident(futianUser, { no: 'JQ-SEND-1', title: '持刀伤人' })).data;
    const d1 = await addDevice(t.app, admin, futian);
    const dLuohu = await addDevice(t.app, admin, luohu);
    await t.db.updateTable('devices').set({ jq_hostcode: '90001' }).where('id', '=', d1.id).execute();
    await t.db.updateTable('devices').set({ jq_hostcode: '90002' }).where('id', '=', dLuohu.id).execute();

    const refused = await api(t.app, 'incidentSend', futianUser, { id: a.id, device: [d1.id, dLuohu.id] });
    expect(refused.code).toBe(400);
    expect(refused.msg).toContain(String(dLuohu.id));
    expect(await api<IncidentSend[]>(t.app, 'incidentSendList', futianUser, { id: a.id })).toMatchObject({ data: [] });

    const sent = await api(t.app, 'incidentSend', futianUser, { id: a.id, device: [d1.id] });
    expect(sent).toMatchObject({ code: 200, data: { sent: 1 } });
    const im = await t.db.selectFrom('console_im').selectAll().where('target', '=', d1.id).executeTakeFirstOrThrow();
    expect(im.content).toContain('JQ-SEND-1');
    expect(im.content).toContain('持刀伤人');
    const sends = await api<IncidentSend[]>(t.app, 'incidentSendList', futianUser, { id: a.id });
    expect(sends.data).toHaveLength(1);
    expect(sends.data[0]).toMatchObject({ device_id: d1.id, hostbody: d1.hostbody, sender: '李警官', read: null });
    expect((await api(t.app, 'incidentSendList', luohuUser, { id: a.id })).code).toBe(404);
  });
});
