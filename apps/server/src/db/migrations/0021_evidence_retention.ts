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
 * Evidence retention and sensitive words (issue 15 sections 2 and 4): days kept per media category,
 * the sensitive-word list (unique case-insensitively by `word_key`), and the hand-set sensitive
 * mark kept apart from word matches (`sensitive` = manual or a word matches).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('evidence_retention')
    .addColumn('category', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('updated', 'varchar(30)', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('evidence_sensitive_words'))
    .addColumn('word', 'varchar(64)', (c) => c.notNull())
    .addColumn('word_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('updated', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('evidence_items')
    .addColumn('sensitive_manual', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // marks set before the word list existed were set by hand
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  await (db as Kysely<any>)
    .updateTable('evidence_items')
    .set({ sensitive_manual: 1 })
    .where('sensitive', '=', 1)
    .execute();
  // the purge finds items deleted by retention whose recovery window has passed
  await db.schema
    .createIndex('evidence_items_delete_reason')
    .on('evidence_items')
    .columns(['delete_reason', 'deleted_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('evidence_items_delete_reason').execute();
  await db.schema.alterTable('evidence_items').dropColumn('sensitive_manual').execute();
  await db.schema.dropTable('evidence_sensitive_words').execute();
  await db.schema.dropTable('evidence_retention').execute();
}
