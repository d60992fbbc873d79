import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from '../connection';

/** Same autoincrement id as 0001_foundation (the one dialect difference). */
function withId<T extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * Alarms: one row per source event (eid unique, so ingest is idempotent), read state per
 * console user (single marks + a "read up to id" mark for mark-all-read), acknowledgement on the row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('alarms'))
    .addColumn('eid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('alerm_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('device_id', 'integer')
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('hostname', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('hostcode', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('hostbody', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('alarm_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('insert_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('message', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('fence_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('fence_direction', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .addColumn('picture', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sure', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sure_user_id', 'integer')
    .addColumn('sure_user', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('sure_note', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('sure_time', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('alarms_unit_time').on('alarms').columns(['unit_id', 'alarm_time']).execute();
  await db.schema.createIndex('alarms_open').on('alarms').columns(['sure', 'alerm_level']).execute();
  await db.schema.createIndex('alarms_type_time').on('alarms').columns(['type', 'alarm_time']).execute();

  await db.schema
    .createTable('alarm_reads')
    .addColumn('alarm_id', 'integer', (c) => c.notNull().references('alarms.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_time', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('alarm_reads_pk', ['alarm_id', 'user_id'])
    .execute();
  await db.schema.createIndex('alarm_reads_user').on('alarm_reads').columns(['user_id', 'alarm_id']).execute();

  await db.schema
    .createTable('alarm_read_marks')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('read_upto', 'integer', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('alarm_read_marks').execute();
  await db.schema.dropTable('alarm_reads').execute();
  await db.schema.dropTable('alarms').execute();
}
