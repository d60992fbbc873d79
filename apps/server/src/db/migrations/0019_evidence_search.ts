import { sql, type Kysely } from 'kysely';

/**
 * Evidence library search (issue 15 section 6: a filtered page within 50 ms at a million items):
 * the newest-first page of a caller who sees every unit walks recorded_at (or uploaded_at) in
 * order instead of sorting every match.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('evidence_items_recorded').on('evidence_items').columns(['recorded_at', 'id']).execute();
  await db.schema.createIndex('evidence_items_uploaded').on('evidence_items').columns(['uploaded_at', 'id']).execute();
  // the deleted view is a small share of the library: a partial index holds just it
  await db.schema
    .createIndex('evidence_items_deleted')
    .on('evidence_items')
    .columns(['recorded_at', 'id'])
    .where(sql.ref('deleted_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('evidence_items_deleted').execute();
  await db.schema.dropIndex('evidence_items_uploaded').execute();
  await db.schema.dropIndex('evidence_items_recorded').execute();
}
