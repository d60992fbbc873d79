import type { DictAddRequest, DictEntry, DictListQuery, DictType, DictUpdateRequest } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { onUniqueViolation } from '../../db/unique';
import { Errors } from '../../http/errors';
import { presentDictEntry, presentDictType } from './dictionary.presenter';
import * as repo from './dictionary.repository';

async function requireType(db: Db, code: string): Promise<void> {
  if (!(await repo.typeExists(db, code))) throw Errors.notFound('dictType');
}

async function requireEntry(db: Db, id: number): Promise<repo.DictEntryRow> {
  const entry = await repo.findEntry(db, id);
  if (!entry) throw Errors.notFound('dictEntry');
  return entry;
}

export async function listTypes(db: Db): Promise<DictType[]> {
  return (await repo.listTypes(db)).map(presentDictType);
}

export async function listEntries(db: Db, q: DictListQuery): Promise<DictEntry[]> {
  await requireType(db, q.type);
  return (await repo.listEntries(db, q.type, q.enabled)).map(presentDictEntry);
}

export async function addEntry(db: Db, body: DictAddRequest): Promise<number> {
  const taken = () => Errors.conflict('errors.dict.keyTaken', { key: body.key });
  return onUniqueViolation(
    () =>
      db.transaction().execute(async (trx) => {
        await requireType(trx, body.type);
        if (await repo.keyTaken(trx, body.type, body.key)) throw taken();
        return repo.insertEntry(trx, body);
      }),
    taken,
  );
}

export async function updateEntry(db: Db, body: DictUpdateRequest): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await requireEntry(trx, body.id);
    await repo.updateEntry(trx, body.id, {
      label: body.label,
      label_en: body.label_en,
      sort: body.sort,
      enabled: body.enabled,
    });
  });
}

/** Built-in entries may be renamed or disabled, never deleted: other records rely on them. */
export async function deleteEntry(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const entry = await requireEntry(trx, id);
    if (entry.builtin === 1) throw Errors.conflict('errors.dict.builtin');
    await repo.deleteEntry(trx, id);
  });
}
