import type { Kysely } from 'kysely';

/**
 * Publish keys of the media gateway that were used (issue 13): a key works once, on whichever node
 * it is presented, also after a restart; rows are removed once their key has expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media_publish_keys')
    .addColumn('nonce', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('expires', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('media_publish_keys').execute();
}
