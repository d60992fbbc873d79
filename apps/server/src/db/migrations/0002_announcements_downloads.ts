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

/** Announcements (system/announce) and download-center entries (system/download). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('announcements'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author', 'varchar(100)', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('published', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('announcements_status_published')
    .on('announcements')
    .columns(['status', 'published'])
    .execute();

  await withId(db, db.schema.createTable('downloads'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('version', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('stored_name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('is_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('downloads_is_index').on('downloads').column('is_index').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('downloads').execute();
  await db.schema.dropTable('announcements').execute();
}
