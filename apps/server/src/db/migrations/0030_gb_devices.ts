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
 * GB/T 28181 devices that registered with the SIP platform (issue 16, modules/gb28181): what
 * REGISTER, DeviceInfo and MobilePosition told, and their channels from Catalog.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('gb_devices'))
    .addColumn('gbid', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('manufacturer', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('model', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('firmware', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('transport', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('registered_at', 'varchar(30)')
    .addColumn('keepalive_at', 'varchar(30)')
    .addColumn('lng', 'double precision')
    .addColumn('lat', 'double precision')
    .addColumn('position_time', 'varchar(30)')
    .addColumn('created', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gb_devices_unit').on('gb_devices').column('unit_id').execute();
  await withId(db, db.schema.createTable('gb_channels'))
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('gbid', 'varchar(20)', (c) => c.notNull())
    .addColumn('name', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('parent', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ptz_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('manufacturer', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('model', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('lng', 'double precision')
    .addColumn('lat', 'double precision')
    .execute();
  await db.schema.createIndex('gb_channels_device').on('gb_channels').columns(['device_id', 'gbid']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('gb_channels').execute();
  await db.schema.dropTable('gb_devices').execute();
}
