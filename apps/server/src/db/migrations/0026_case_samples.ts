import type { Kysely } from 'kysely';

/**
 * Violation records and case samples (issue 15 section 3): the officer and kind of breach of a
 * violation (`evidence_cases` kind 'violation'), and the cases kept as teaching samples.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('evidence_cases').addColumn('officer_id', 'integer').execute();
  await db.schema
    .alterTable('evidence_cases')
    .addColumn('officer_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('evidence_cases')
    .addColumn('violation_type', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('evidence_cases_officer')
    .on('evidence_cases')
    .columns(['officer_id', 'occurred_at'])
    .where('officer_id', 'is not', null)
    .execute();

  await db.schema
    .createTable('evidence_case_samples')
    .addColumn('case_id', 'integer', (c) => c.primaryKey())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('marked_by', 'integer')
    .addColumn('marked_by_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('marked_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('evidence_case_samples_at').on('evidence_case_samples').column('marked_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('evidence_case_samples').execute();
  await db.schema.dropIndex('evidence_cases_officer').execute();
  for (const c of ['violation_type', 'officer_name', 'officer_id'])
    await db.schema.alterTable('evidence_cases').dropColumn(c).execute();
}
