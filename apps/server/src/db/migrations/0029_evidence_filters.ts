import { sql, type Kysely } from 'kysely';

/**
 * Library filters that missed 50 ms at a million items (bench/evidence-library.ts): the page's
 * count visits up to MEDIA_LIST_COUNT_CAP matches, and each was read from the table.
 * - device + mark: (device_id, flg, deleted_at, recorded_at) finds a device's marked items of the
 *   view (deleted or not) in order;
 * - linked + uploaded range: (linked, uploaded_at) instead of every upload in the range;
 * - the deleted view: its partial index also leaves out purged tombstones, so that the count is
 *   answered by the index alone (the query names both conditions).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('evidence_items_device_flg')
    .on('evidence_items')
    .columns(['device_id', 'flg', 'deleted_at', 'recorded_at'])
    .execute();
  await db.schema
    .createIndex('evidence_items_linked_uploaded')
    .on('evidence_items')
    .columns(['linked', 'uploaded_at'])
    .execute();
  await db.schema.dropIndex('evidence_items_deleted').execute();
  await db.schema
    .createIndex('evidence_items_deleted')
    .on('evidence_items')
    .columns(['recorded_at', 'id'])
    .where(sql.ref('deleted_at'), 'is not', null)
    .where(sql.ref('purged_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('evidence_items_deleted').execute();
  await db.schema
    .createIndex('evidence_items_deleted')
    .on('evidence_items')
    .columns(['recorded_at', 'id'])
    .where(sql.ref('deleted_at'), 'is not', null)
    .execute();
  await db.schema.dropIndex('evidence_items_linked_uploaded').execute();
  await db.schema.dropIndex('evidence_items_device_flg').execute();
}
