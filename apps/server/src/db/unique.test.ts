import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { now } from './connection';
import { isUniqueViolation, onUniqueViolation } from './unique';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('unique violations', () => {
  it('recognises the database error of a duplicate and maps it', async () => {
    const insert = () =>
      t.db.insertInto('roles').values({ name: '调度员', weight: 0, remark: '', created: now() }).execute();
    const err = await insert().catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    await expect(onUniqueViolation(insert, () => new Error('taken'))).rejects.toThrow('taken');
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });
});
