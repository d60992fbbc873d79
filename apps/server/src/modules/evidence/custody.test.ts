import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { recordCustody, verifyChain } from './custody';
import { insertItem, PNG } from './library/library.fixture';

describe('custody chain', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('keeps one unbroken chain when many entries are appended to one item at once', async () => {
    const unit = (await t.db.selectFrom('units').select('id').where('pid', '=', 0).executeTakeFirstOrThrow()).id;
    const { id } = await insertItem(t.app, { unit_id: unit, bytes: PNG });
    const before = (await verifyChain(t.db, id)).entries.length;
    const actor = { user_id: null, actor: 'test', unit_id: unit, ip: '127.0.0.1' };
    await Promise.all(Array.from({ length: 20 }, (_, i) => recordCustody(t.db, id, 'viewed', actor, { i })));
    const check = await verifyChain(t.db, id);
    expect(check.ok).toBe(true);
    expect(check.entries).toHaveLength(before + 20);
    expect(check.entries.map((e) => e.seq)).toEqual(Array.from({ length: before + 20 }, (_, i) => i + 1));
  });
});
