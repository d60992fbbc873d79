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
 * Incidents, cases and violations (issue 15 section 3) in one table by `kind`, with their archive
 * fields (the law-enforcement file); the media items linked to them; the terminals an incident was
 * sent to (each carried by a console-service instant message).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('evidence_cases'))
    /** 'incident' | 'case' | 'violation' */
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('no', 'varchar(40)', (c) => c.notNull())
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('place', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('occurred_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('reporter', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .addColumn('reporter_phone', 'varchar(30)', (c) => c.notNull().defaultTo(''))
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_by_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    /** 'open' | 'cancelled' */
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('cancel_reason', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('cancelled_at', 'varchar(30)')
    .addColumn('cancelled_by_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    /** incidents: the case that includes it */
    .addColumn('case_id', 'integer')
    .addColumn('archive_no', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    /** 'none' | 'archived' */
    .addColumn('archive_state', 'varchar(10)', (c) => c.notNull().defaultTo('none'))
    .addColumn('keep_years', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archive_note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('archived_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('evidence_cases_no').unique().on('evidence_cases').columns(['kind', 'no']).execute();
  await db.schema
    .createIndex('evidence_cases_unit')
    .on('evidence_cases')
    .columns(['kind', 'unit_id', 'occurred_at'])
    .execute();
  await db.schema.createIndex('evidence_cases_case').on('evidence_cases').column('case_id').execute();

  await db.schema
    .createTable('evidence_case_media')
    .addColumn('case_id', 'integer', (c) => c.notNull())
    .addColumn('media_id', 'integer', (c) => c.notNull())
    .addColumn('linked_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('linked_by', 'integer')
    .addPrimaryKeyConstraint('evidence_case_media_pk', ['case_id', 'media_id'])
    .execute();
  await db.schema.createIndex('evidence_case_media_media').on('evidence_case_media').column('media_id').execute();

  await db.schema
    .createTable('evidence_case_sends')
    .addColumn('case_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('hostname', 'varchar(100)', (c) => c.notNull())
    .addColumn('hostbody', 'varchar(64)', (c) => c.notNull())
    /** the instant message that carries it (its recipient row: delivered, read) */
    .addColumn('im_id', 'integer', (c) => c.notNull())
    .addColumn('sender', 'varchar(100)', (c) => c.notNull())
    .addColumn('sent_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('evidence_case_sends_case').on('evidence_case_sends').column('case_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['evidence_case_sends', 'evidence_case_media', 'evidence_cases'])
    await db.schema.dropTable(t).execute();
}
