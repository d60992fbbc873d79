import { now, type Db } from '../../db/connection';
import type { Selectable } from 'kysely';
import type { DictEntryTable } from '../../db/types';

export type DictEntryRow = Selectable<DictEntryTable>;

/** Types by sort, with their entry counts. */
export async function listTypes(db: Db) {
  const types = await db.selectFrom('dict_types').selectAll().orderBy('sort').orderBy('code').execute();
  const counts = await db
    .selectFrom('dict_entries')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('type')
    .execute();
  const byType = new Map(counts.map((c) => [c.type, Number(c.n)]));
  return types.map((t) => ({ ...t, entries: byType.get(t.code) ?? 0 }));
}

export async function typeExists(db: Db, code: string): Promise<boolean> {
  return (await db.selectFrom('dict_types').select('code').where('code', '=', code).executeTakeFirst()) !== undefined;
}

export async function listEntries(db: Db, type: string, enabled?: number): Promise<DictEntryRow[]> {
  let q = db.selectFrom('dict_entries').selectAll().where('type', '=', type);
  if (enabled !== undefined) q = q.where('enabled', '=', enabled);
  return q.orderBy('sort').orderBy('key').execute();
}

export async function findEntry(db: Db, id: number): Promise<DictEntryRow | undefined> {
  return db.selectFrom('dict_entries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function keyTaken(db: Db, type: string, key: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('dict_entries')
      .select('id')
      .where('type', '=', type)
      .where('key', '=', key)
      .executeTakeFirst()) !== undefined
  );
}

export async function insertEntry(
  db: Db,
  values: { type: string; key: string; label: string; label_en: string; sort: number; enabled: number },
): Promise<number> {
  const ts = now();
  const row = await db
    .insertInto('dict_entries')
    .values({ ...values, builtin: 0, created: ts, updated: ts })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEntry(
  db: Db,
  id: number,
  values: { label: string; label_en: string; sort: number; enabled: number },
): Promise<void> {
  await db
    .updateTable('dict_entries')
    .set({ ...values, updated: now() })
    .where('id', '=', id)
    .execute();
}

export async function deleteEntry(db: Db, id: number): Promise<void> {
  await db.deleteFrom('dict_entries').where('id', '=', id).execute();
}
