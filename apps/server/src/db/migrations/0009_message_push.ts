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
 * Message push (/dispatch/msgManage, modules/messages): messages of a unit, their sends (the text
 * as sent) and one row per terminal of a send, tied to the instant message that carried it to
 * that terminal (console_im and its recipient row hold the delivered and read times).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('push_messages'))
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author', 'varchar(64)', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_messages_unit').on('push_messages').columns(['unit_id', 'id']).execute();

  await withId(db, db.schema.createTable('push_sends'))
    .addColumn('message_id', 'integer', (c) => c.notNull().references('push_messages.id').onDelete('cascade'))
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
    .addColumn('sender_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('sender', 'varchar(64)', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_sends_message').on('push_sends').columns(['message_id', 'id']).execute();
  await db.schema.createIndex('push_sends_unit').on('push_sends').columns(['unit_id', 'id']).execute();

  await db.schema
    .createTable('push_send_recipients')
    .addColumn('send_id', 'integer', (c) => c.notNull().references('push_sends.id').onDelete('cascade'))
    .addColumn('uid', 'integer', (c) => c.notNull())
    .addColumn('im_id', 'integer', (c) => c.notNull().references('console_im.id').onDelete('cascade'))
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('hostname', 'varchar(64)', (c) => c.notNull())
    .addColumn('hostbody', 'varchar(64)', (c) => c.notNull())
    .addColumn('jq_hostcode', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('push_send_recipients_pk', ['send_id', 'uid'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['push_send_recipients', 'push_sends', 'push_messages']) await db.schema.dropTable(table).execute();
}
