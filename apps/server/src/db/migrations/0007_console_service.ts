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
 * The console service (realtime/console): logins (resumable by their token while alive),
 * parameters set on users, the users a console administers, group attachments, instant messages
 * with their recipients and files, and terminals' recorded videos. uids: a terminal's is its
 * device id, a console's CONSOLE_UID_BASE + its user id (packages/protocol console/limits.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('console_logins'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('uid', 'integer', (c) => c.notNull())
    .addColumn('ext_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_type', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'integer', (c) => c.references('sessions.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.references('devices.id').onDelete('cascade'))
    .addColumn('clientid', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('console_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('alive_minutes', 'double precision', (c) => c.notNull())
    .addColumn('login_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('ended', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('console_logins_uid').on('console_logins').columns(['uid', 'status']).execute();
  await db.schema.createIndex('console_logins_open').on('console_logins').columns(['status', 'last_seen']).execute();

  await db.schema
    .createTable('console_params')
    .addColumn('uid', 'integer', (c) => c.primaryKey())
    .addColumn('paraminfo', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('console_admin_users')
    .addColumn('console_uid', 'integer', (c) => c.notNull())
    .addColumn('uid', 'integer', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('console_admin_users_pk', ['console_uid', 'uid'])
    .execute();

  await db.schema
    .createTable('console_group_attach')
    .addColumn('uid', 'integer', (c) => c.primaryKey())
    .addColumn('tgid', 'integer', (c) => c.notNull().references('talk_groups.id').onDelete('cascade'))
    .addColumn('speak', 'integer', (c) => c.notNull())
    .addColumn('hear', 'integer', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_group_attach_tgid').on('console_group_attach').column('tgid').execute();

  await db.schema
    .createTable('console_files')
    .addColumn('fid', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('owner_uid', 'integer', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('im_type', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('received', 'integer', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('completed', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();

  await withId(db, db.schema.createTable('console_im'))
    .addColumn('from_uid', 'integer', (c) => c.notNull())
    .addColumn('from_ext_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('from_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'integer', (c) => c.notNull())
    .addColumn('exttarget', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_type', 'integer', (c) => c.notNull())
    .addColumn('im_type', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('fid', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('filename', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('client_time', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_im_target').on('console_im').columns(['target_type', 'target', 'id']).execute();
  await db.schema.createIndex('console_im_from').on('console_im').columns(['from_uid', 'id']).execute();
  await db.schema
    .createTable('console_im_recipients')
    .addColumn('im_id', 'integer', (c) => c.notNull().references('console_im.id').onDelete('cascade'))
    .addColumn('uid', 'integer', (c) => c.notNull())
    .addColumn('delivered', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('read', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('console_im_recipients_pk', ['im_id', 'uid'])
    .execute();
  await db.schema
    .createIndex('console_im_recipients_pending')
    .on('console_im_recipients')
    .columns(['uid', 'delivered', 'im_id'])
    .execute();

  await db.schema
    .createTable('console_videos')
    .addColumn('videoid', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('url', 'varchar(1024)', (c) => c.notNull())
    .addColumn('starttime', 'varchar(32)', (c) => c.notNull())
    .addColumn('endtime', 'varchar(32)', (c) => c.notNull())
    .addColumn('size', 'double precision', (c) => c.notNull())
    .addColumn('transform_url', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('transform_by', 'integer')
    .addColumn('transform_time', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_videos_time').on('console_videos').columns(['starttime']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'console_videos',
    'console_im_recipients',
    'console_im',
    'console_files',
    'console_group_attach',
    'console_admin_users',
    'console_params',
    'console_logins',
  ])
    await db.schema.dropTable(table).execute();
}
