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
 * Geo: electronic fences and zones (one table, `kind`), the last inside/outside state per
 * (fence, device), fence crossing events, talk groups with their device members (temporary groups
 * expire), the uploaded offline map file and the reverse-geocoding cache.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('geo_fences'))
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
    .addColumn('shape', 'text', (c) => c.notNull())
    .addColumn('rule', 'varchar(8)', (c) => c.notNull().defaultTo('both'))
    .addColumn('time_start', 'varchar(5)', (c) => c.notNull().defaultTo(''))
    .addColumn('time_end', 'varchar(5)', (c) => c.notNull().defaultTo(''))
    .addColumn('device_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('unit_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('geo_fences_kind_unit').on('geo_fences').columns(['kind', 'unit_id']).execute();

  await db.schema
    .createTable('fence_states')
    .addColumn('fence_id', 'integer', (c) => c.notNull().references('geo_fences.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('inside', 'integer', (c) => c.notNull())
    .addColumn('time', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('fence_states_pk', ['fence_id', 'device_id'])
    .execute();

  await withId(db, db.schema.createTable('fence_events'))
    .addColumn('fence_id', 'integer', (c) => c.notNull())
    .addColumn('fence_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('direction', 'varchar(8)', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('time', 'varchar(32)', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fence_events_device_time').on('fence_events').columns(['device_id', 'time']).execute();
  await db.schema.createIndex('fence_events_fence').on('fence_events').column('fence_id').execute();

  await withId(db, db.schema.createTable('talk_groups'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('ext_tgid', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('preconfig', 'integer', (c) => c.notNull())
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires', 'varchar(32)')
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('talk_groups_expires').on('talk_groups').column('expires').execute();
  await db.schema
    .createTable('talk_group_members')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('talk_groups.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('talk_group_members_pk', ['group_id', 'device_id'])
    .execute();

  await withId(db, db.schema.createTable('map_files'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('file', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'double precision', (c) => c.notNull())
    .addColumn('tile_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('minzoom', 'integer', (c) => c.notNull())
    .addColumn('maxzoom', 'integer', (c) => c.notNull())
    .addColumn('bounds', 'text')
    .addColumn('center', 'text')
    .addColumn('vector_layers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('uploaded', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('geocode_cache')
    .addColumn('key', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('geocode_cache').execute();
  await db.schema.dropTable('map_files').execute();
  await db.schema.dropTable('talk_group_members').execute();
  await db.schema.dropTable('talk_groups').execute();
  await db.schema.dropTable('fence_events').execute();
  await db.schema.dropTable('fence_states').execute();
  await db.schema.dropTable('geo_fences').execute();
}
