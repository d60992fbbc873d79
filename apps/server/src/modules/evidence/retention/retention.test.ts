import { DICT_TYPES, MenuId, ResultCode, type Page, type RetentionDueItem, type RetentionPolicy } from '@bwc/protocol';
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
import { now } from '../../../db/connection';
import { writeSettings } from '../../../db/settings';
import { verifyChain } from '../custody';
import { insertItem, PNG } from '../library/library.fixture';
import { DAY_MS } from '../library/library.service';
import { RetentionJob } from './retention.module';
import { ruleOf } from './retention.service';

let t: TestApp;
let admin: Session;
/** view only on 10272 */
let viewer: Session;
let futian: number;
/** the fake time of the library and of retention */
let clock = Date.parse('2026-06-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const ago = (days: number) => iso(clock - days * DAY_MS);

const items = {} as Record<'past' | 'soon' | 'longest' | 'byDefault' | 'linked' | 'young' | 'foreign', number>;

const row = (id: number) =>
  t.db.selectFrom('evidence_items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const actions = async (id: number) =>
  (await t.db.selectFrom('evidence_custody').select('action').where('media_id', '=', id).orderBy('seq').execute()).map(
    (r) => r.action,
  );
const lease = (held: boolean) => ({ held, onChange: () => () => {} });

beforeAll(async () => {
  t = await createTestApp();
  t.app.evidenceLibrary.clock = () => clock;
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
  const role = await createRole(t.db, 'retention viewer', [{ ids: [MenuId.DELETED_MEDIA], actions: ['view'] }]);
  const u = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
  viewer = await login(t.app, u.username, u.password);
  const ts = now();
  for (const [key, label] of [
    ['traffic', '交通'],
    ['criminal', '刑事'],
  ] as const)
    await t.db
      .insertInto('dict_entries')
      .values({
        type: DICT_TYPES.MEDIA_CATEGORY,
        key,
        label,
        label_en: key,
        sort: 0,
        enabled: 1,
        builtin: 0,
        created: ts,
        updated: ts,
      })
      .execute();
  await writeSettings(t.db, 'filestorage', { storage_path: 'evidence', keep_days: 365, disk_warn_percent: 90 });
  const add = async (category: string, recordedDaysAgo: number, title: string) =>
    (await insertItem(t.app, { unit_id: futian, bytes: PNG, category, title, recorded_at: ago(recordedDaysAgo) })).id;
  items.past = await add('traffic', 31, 'past due');
  items.soon = await add('traffic', 25, 'due in 5 days');
  items.longest = await add('traffic,criminal', 100, 'criminal rule wins');
  items.byDefault = await add('', 366, 'default rule');
  items.linked = await add('traffic', 1000, 'in an open case');
  items.young = await add('traffic', 1, 'young');
  // another unit's item, past due: not in a Futian user's preview
  items.foreign = (
    await insertItem(t.app, {
      unit_id: await unitIdOf(t.db, '440303000000'),
      bytes: PNG,
      title: 'luohu',
      recorded_at: ago(1000),
    })
  ).id;
  const c = await api<{ id: number }>(t.app, 'caseAdd', admin, {
    title: '案件',
    occurred_at: '2026-05-01 10:00:00',
    unit_id: futian,
  });
  expect(c.code).toBe(200);
  const linked = await api(t.app, 'caseMediaWrite', admin, {
    id: c.data.id,
    media_ids: [items.linked],
    action: 'link',
  });
  expect(linked.code).toBe(200);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('retention policy', () => {
  it('longest rule among an item’s categories wins; no rule: the default', () => {
    const rules = {
      byCategory: new Map([
        ['traffic', 30],
        ['criminal', 400],
      ]),
      defaultDays: 365,
    };
    expect(ruleOf('traffic', rules)).toEqual({ rule: 'traffic', days: 30 });
    expect(ruleOf('traffic, criminal', rules)).toEqual({ rule: 'criminal', days: 400 });
    expect(ruleOf('criminal,traffic', rules)).toEqual({ rule: 'criminal', days: 400 });
    expect(ruleOf('', rules)).toEqual({ rule: '', days: 365 });
    expect(ruleOf('other', rules)).toEqual({ rule: '', days: 365 });
  });

  it('validates and saves the rules; the default comes from file storage', async () => {
    const unknown = await api(t.app, 'retentionUpdate', admin, { rules: [{ category: 'nope', days: 5 }] }, 'en-US');
    expect(unknown.code).toBe(ResultCode.INVALID);
    expect(unknown.msg).toContain('nope');
    const dup = await api(t.app, 'retentionUpdate', admin, {
      rules: [
        { category: 'traffic', days: 5 },
        { category: 'traffic', days: 6 },
      ],
    });
    expect(dup.code).toBe(ResultCode.INVALID);
    expect(dup.msg).toContain('traffic');
    const zero = await api(t.app, 'retentionUpdate', admin, { rules: [{ category: 'traffic', days: 0 }] });
    expect(zero.code).toBe(ResultCode.INVALID);
    expect(zero.msg).not.toMatch(/validation\./);
    expect((await api<RetentionPolicy>(t.app, 'retentionGet', admin)).data.rules).toEqual([]);
    expect((await api(t.app, 'retentionUpdate', viewer, { rules: [{ category: 'traffic', days: 30 }] })).code).toBe(
      ResultCode.FORBIDDEN,
    );

    const ok = await api<RetentionPolicy>(t.app, 'retentionUpdate', admin, {
      rules: [
        { category: 'traffic', days: 30 },
        { category: 'criminal', days: 400 },
      ],
    });
    expect(ok.code).toBe(200);
    expect(ok.data.rules.map((r) => [r.category, r.days])).toEqual([
      ['criminal', 400],
      ['traffic', 30],
    ]);
    expect(ok.data.default_days).toBe(365);
    expect(ok.data.last_run).toBe('');
    expect((await api<RetentionPolicy>(t.app, 'retentionGet', viewer)).code).toBe(200);
  });
});

describe('retention preview and job', () => {
  it('lists the items due within N days with due date and rule, without case-linked ones', async () => {
    const p = await api<Page<RetentionDueItem>>(t.app, 'retentionPreview', viewer, {});
    expect(p.code).toBe(200);
    expect(p.data.list.map((i) => i.id)).toEqual([items.past, items.byDefault, items.soon]);
    expect(p.data.total).toBe(3);
    // the caller's units only: an administrator sees the other unit's item too
    const all = await api<Page<RetentionDueItem>>(t.app, 'retentionPreview', admin, {});
    expect(all.data.list.map((i) => i.id)).toEqual([items.foreign, items.past, items.byDefault, items.soon]);
    // same due date: by id
    const [past, byDefault, soon] = p.data.list;
    expect(byDefault).toMatchObject({ rule: '', days: 365, due_at: iso(clock - DAY_MS) });
    expect(past).toMatchObject({ rule: 'traffic', days: 30, due_at: iso(clock - DAY_MS) });
    expect(soon).toMatchObject({ rule: 'traffic', days: 30, due_at: iso(clock + 5 * DAY_MS) });
    const now0 = await api<Page<RetentionDueItem>>(t.app, 'retentionPreview', viewer, { days: 0, limit: 1, page: 2 });
    expect(now0.data.total).toBe(2);
    expect(now0.data.list.map((i) => i.id)).toEqual([items.byDefault]);
  });

  it('runs daily on the lease holder only: soft-deletes due items, then purges after the window', async () => {
    const { service } = t.app.evidenceRetention;
    const report = (err: unknown) => {
      throw err;
    };
    expect(await new RetentionJob(service, lease(false), report).tick()).toBeNull();
    expect((await row(items.past)).deleted_at).toBeNull();

    const job = new RetentionJob(service, lease(true), report);
    expect(await job.tick()).toEqual({ deleted: 3, purged: 0, exempt: 1 });
    for (const id of [items.past, items.byDefault, items.foreign]) {
      const r = await row(id);
      expect(r).toMatchObject({ deleted_at: iso(clock), delete_reason: 'retention', deleted_by: null });
      expect((await actions(id)).at(-1)).toBe('retention');
      const rev = await t.db.selectFrom('evidence_revisions').selectAll().where('media_id', '=', id).execute();
      expect(rev.map((x) => [x.kind, x.reason])).toEqual([['delete', 'retention']]);
      expect((await verifyChain(t.db, id)).ok).toBe(true);
    }
    for (const id of [items.soon, items.longest, items.linked, items.young])
      expect((await row(id)).deleted_at).toBeNull();
    // once a day
    expect(await job.tick()).toBeNull();
    expect((await api<RetentionPolicy>(t.app, 'retentionGet', admin)).data.last_run).toBe(iso(clock));

    // within the recovery window nothing is purged
    clock += 3 * DAY_MS;
    expect(await job.tick()).toEqual({ deleted: 0, purged: 0, exempt: 1 });
    expect((await row(items.past)).purged_at).toBeNull();
    // after it: purged by the library's hard delete (tombstone, custody 'purged'); 'soon' is due now
    clock += 5 * DAY_MS;
    expect(await job.tick()).toEqual({ deleted: 1, purged: 3, exempt: 1 });
    for (const id of [items.past, items.byDefault]) {
      expect((await row(id)).purged_at).toBe(iso(clock));
      expect((await actions(id)).slice(-2)).toEqual(['retention', 'purged']);
      expect((await verifyChain(t.db, id)).ok).toBe(true);
    }
    expect((await row(items.soon)).delete_reason).toBe('retention');
    expect((await row(items.linked)).deleted_at).toBeNull();
  });

  it('run now needs edit and acts on the caller’s units', async () => {
    expect((await api(t.app, 'retentionRun', viewer)).code).toBe(ResultCode.FORBIDDEN);
    clock += 60 * DAY_MS;
    const run = await api<{ deleted: number; purged: number }>(t.app, 'retentionRun', admin);
    expect(run.code).toBe(200);
    // young is 69 days old now (30-day rule); soon's window passed
    expect(run.data).toMatchObject({ deleted: 1, purged: 1 });
    expect((await row(items.young)).delete_reason).toBe('retention');
    expect((await row(items.longest)).deleted_at).toBeNull();
  });
});
