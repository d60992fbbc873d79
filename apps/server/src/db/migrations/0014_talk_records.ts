import type { Kysely } from 'kysely';

/**
 * Recorded talk bursts (issue 14): each turn on a group's floor is kept as an Ogg Opus file under
 * DATA_DIR/talk/, with who talked in which group, when, and whether it was an emergency talk.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('talk_records')
    .addColumn('refid', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tgid', 'integer', (c) => c.notNull())
    .addColumn('tg_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('uid', 'integer', (c) => c.notNull())
    .addColumn('ext_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('emergency', 'integer', (c) => c.notNull())
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('stop_ms', 'bigint', (c) => c.notNull())
    .addColumn('frames', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('path', 'varchar(300)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('talk_records_tgid').on('talk_records').columns(['tgid', 'start_ms']).execute();
  await db.schema.createIndex('talk_records_unit').on('talk_records').columns(['unit_id', 'start_ms']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('talk_records').execute();
}
