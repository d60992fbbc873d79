import type { Kysely } from 'kysely';
import { now } from '../connection';

/**
 * Evidence library (issue 15 sections 2, 4, 5): the purge marker of a hard-deleted item (the row
 * stays as a tombstone so its custody chain survives; only the bytes go), an index for the
 * sensitive view, indexes to find other users of stored bytes, and the alarm type raised when an original no longer matches its hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('evidence_items').addColumn('purged_at', 'varchar(30)').execute();
  await db.schema
    .createIndex('evidence_items_sensitive')
    .on('evidence_items')
    .columns(['sensitive', 'unit_id', 'recorded_at'])
    .execute();
  // a hard delete removes bytes only when no other item names them as original, thumbnail or derivative
  await db.schema.createIndex('evidence_items_thumb').on('evidence_items').column('thumb_sha256').execute();
  await db.schema.createIndex('evidence_items_derivative').on('evidence_items').column('derivative_sha256').execute();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const seed = db as Kysely<any>;
  const ts = now();
  const taken = await seed
    .selectFrom('dict_entries')
    .select('id')
    .where('type', '=', 'alarm_type')
    .where('key', '=', '8')
    .executeTakeFirst();
  if (!taken)
    await seed
      .insertInto('dict_entries')
      .values({
        type: 'alarm_type',
        key: '8',
        label: '证据文件校验失败',
        label_en: 'Evidence file failed its hash check',
        sort: 8,
        enabled: 1,
        builtin: 1,
        created: ts,
        updated: ts,
      })
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  await (db as Kysely<any>)
    .deleteFrom('dict_entries')
    .where('type', '=', 'alarm_type')
    .where('key', '=', '8')
    .execute();
  await db.schema.dropIndex('evidence_items_derivative').execute();
  await db.schema.dropIndex('evidence_items_thumb').execute();
  await db.schema.dropIndex('evidence_items_sensitive').execute();
  await db.schema.alterTable('evidence_items').dropColumn('purged_at').execute();
}
