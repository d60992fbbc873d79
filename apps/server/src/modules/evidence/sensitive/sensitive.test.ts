import { MenuId, ResultCode, UPLOAD_PATH, type Page, type SensitiveWord } from '@bwc/protocol';
import * as tus from 'tus-js-client';
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
import { until } from '../../../../test/wait';
import { insertItem, PNG } from '../library/library.fixture';
import { matchesWord, PENDING_SETTING } from './sensitive';

let t: TestApp;
let base: string;
let admin: Session;
/** view only on 10462 */
let viewer: Session;
let futian: number;
const items = {} as Record<'title' | 'description' | 'incident' | 'plain' | 'manual', number>;

const flag = async (id: number) =>
  (await t.db.selectFrom('evidence_items').select('sensitive').where('id', '=', id).executeTakeFirstOrThrow())
    .sensitive;
const flags = async () =>
  Object.fromEntries(await Promise.all(Object.entries(items).map(async ([k, id]) => [k, await flag(id)])));
const idle = () => t.app.sensitiveRecompute.idle();

/** A console upload of a PNG over tus; resolves the item id. */
function upload(metadata: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    let item = 0;
    const u = new tus.Upload(PNG, {
      endpoint: `${base}${UPLOAD_PATH}`,
      metadata,
      headers: admin.headers,
      storeFingerprintForResuming: false,
      onAfterResponse: (_req, res) => {
        const id = res.getHeader('Evidence-Item');
        if (id) item = Number(id);
      },
      onError: reject,
      onSuccess: () => resolve(item),
    });
    u.start();
  });
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(t.db, '440304000000');
  const role = await createRole(t.db, 'words viewer', [{ ids: [MenuId.SENSITIVE_WORDS], actions: ['view'] }]);
  const u = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
  viewer = await login(t.app, u.username, u.password);
  const add = async (v: Record<string, unknown>) => (await insertItem(t.app, { unit_id: futian, bytes: PNG, ...v })).id;
  items.title = await add({ title: 'Top SECRET meeting' });
  items.description = await add({ title: 'a', description: '涉密会议记录' });
  items.incident = await add({ title: 'b', incident_no: 'JQ-CLASSIFIED-7' });
  items.plain = await add({ title: 'patrol' });
  items.manual = await add({ title: 'by hand', sensitive: 1, sensitive_manual: 1 });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('sensitive words', () => {
  it('matches title, description or incident number, case-insensitively', () => {
    const item = { title: 'Top SECRET', description: '', incident_no: '' };
    expect(matchesWord(['secret'], item)).toBe(true);
    expect(matchesWord(['secrets'], item)).toBe(false);
    expect(matchesWord([], item)).toBe(false);
    expect(matchesWord(['jq-1'], { title: '', description: '', incident_no: 'JQ-1' })).toBe(true);
  });

  it('adding words marks matching items; duplicates and rights are refused', async () => {
    for (const word of ['secret', '涉密', 'classified']) {
      const r = await api<SensitiveWord>(t.app, 'sensitiveWordAdd', admin, { word });
      expect(r.code).toBe(200);
    }
    await idle();
    expect(await flags()).toEqual({ title: 1, description: 1, incident: 1, plain: 0, manual: 1 });
    expect(
      await t.db.selectFrom('settings').select('type').where('type', '=', PENDING_SETTING).executeTakeFirst(),
    ).toBeUndefined();

    const dup = await api(t.app, 'sensitiveWordAdd', admin, { word: ' SECRET ' }, 'en-US');
    expect(dup.code).toBe(ResultCode.INVALID);
    expect(dup.msg).toContain('SECRET');
    const empty = await api(t.app, 'sensitiveWordAdd', admin, { word: '  ' });
    expect(empty.code).toBe(ResultCode.INVALID);
    expect((await api(t.app, 'sensitiveWordAdd', viewer, { word: 'x' })).code).toBe(ResultCode.FORBIDDEN);
    const list = await api<Page<SensitiveWord>>(t.app, 'sensitiveWordList', viewer, { keyword: 'SEC' });
    expect(list.data.list.map((w) => w.word)).toEqual(['secret']);
    expect((await api<Page<SensitiveWord>>(t.app, 'sensitiveWordList', viewer, {})).data.total).toBe(3);
  });

  it('an item revised to or from a word changes its flag at once', async () => {
    const on = await api(t.app, 'mediaRevise', admin, { id: items.plain, title: 'patrol, secret part', reason: 'r' });
    expect(on.code).toBe(200);
    expect(await flag(items.plain)).toBe(1);
    const off = await api(t.app, 'mediaRevise', admin, { id: items.plain, title: 'patrol', reason: 'r' });
    expect(off.code).toBe(200);
    expect(await flag(items.plain)).toBe(0);
  });

  it('an uploaded item is marked when its text holds a word', async () => {
    const id = await upload({ filename: 'p.png', fileid: 'sens-1', title: 'classified photo' });
    expect(id).toBeGreaterThan(0);
    expect(await flag(id)).toBe(1);
    const other = await upload({ filename: 'q.png', fileid: 'sens-2', title: 'street' });
    expect(await flag(other)).toBe(0);
  });

  it('editing and deleting words recomputes every item; a mark by hand stays', async () => {
    const words = (await api<Page<SensitiveWord>>(t.app, 'sensitiveWordList', admin, {})).data.list;
    const secret = words.find((w) => w.word === 'secret')!;
    const edit = await api<SensitiveWord>(t.app, 'sensitiveWordEdit', admin, { id: secret.id, word: 'patrol' });
    expect(edit.code).toBe(200);
    await idle();
    expect(await flags()).toMatchObject({ title: 0, plain: 1, manual: 1 });
    const del = await api(t.app, 'sensitiveWordDelete', admin, { ids: words.map((w) => w.id) });
    expect(del.code).toBe(200);
    await until('flags cleared', async () => (await flag(items.description)) === 0);
    await idle();
    expect(await flags()).toEqual({ title: 0, description: 0, incident: 0, plain: 0, manual: 1 });
    const missing = await api(t.app, 'sensitiveWordEdit', admin, { id: secret.id, word: 'y' });
    expect(missing.code).toBe(ResultCode.NOT_FOUND);
  });
});
