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
 * Devices: recorder models, devices (recorders) with their latest state and position,
 * position history (WGS-84), device events (SOS, online/offline, remote control) and the command
 * queue a device fetches through the device API.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('recorder_models'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('vendor', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('devices'))
    .addColumn('hostbody', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('imei', 'varchar(15)', (c) => c.notNull().unique())
    .addColumn('hostcode', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('hostname', 'varchar(50)', (c) => c.notNull())
    .addColumn('jq_hostcode', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id'))
    .addColumn('model_id', 'integer', (c) => c.references('recorder_models.id').onDelete('set null'))
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('typecate', 'varchar(64)', (c) => c.notNull())
    .addColumn('lineon', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remote_kill', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('speed', 'double precision')
    .addColumn('course', 'double precision')
    .addColumn('accuracy', 'double precision')
    .addColumn('battery', 'double precision')
    .addColumn('gps_time', 'varchar(32)')
    .addColumn('last_seen', 'varchar(32)')
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)')
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_unit').on('devices').column('unit_id').execute();
  await db.schema.createIndex('devices_token').on('devices').column('token_hash').execute();
  await db.schema.createIndex('devices_lineon_seen').on('devices').columns(['lineon', 'last_seen']).execute();

  await withId(db, db.schema.createTable('positions'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('time', 'varchar(32)', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('speed', 'double precision')
    .addColumn('course', 'double precision')
    .addColumn('accuracy', 'double precision')
    .addColumn('battery', 'double precision')
    .addColumn('received', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('positions_device_time').on('positions').columns(['device_id', 'time']).execute();

  await withId(db, db.schema.createTable('device_events'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('time', 'varchar(32)', (c) => c.notNull())
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_events_device_time').on('device_events').columns(['device_id', 'time']).execute();
  await db.schema.createIndex('device_events_type_time').on('device_events').columns(['type', 'time']).execute();

  await withId(db, db.schema.createTable('device_commands'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('result_msg', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('delivered', 'varchar(32)')
    .addColumn('acked', 'varchar(32)')
    .execute();
  await db.schema.createIndex('device_commands_device_status').on('device_commands').columns(['device_id', 'status']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('device_commands').execute();
  await db.schema.dropTable('device_events').execute();
  await db.schema.dropTable('positions').execute();
  await db.schema.dropTable('devices').execute();
  await db.schema.dropTable('recorder_models').execute();
}
