import { sql, type Kysely } from 'kysely';

/**
 * Versions of scoring rubrics (issue 15 section 2): a rubric that has scores is not changed in
 * place, its edit is a new row with the same `root_id` and the next `version`. Existing rubrics are
 * version 1 of themselves.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('evidence_rubrics')
    .addColumn('root_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('evidence_rubrics')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`update evidence_rubrics set root_id = id`.execute(db);
  await db.schema.createIndex('evidence_rubrics_root').on('evidence_rubrics').columns(['root_id', 'version']).execute();
  await db.schema.createIndex('evidence_scores_rubric').on('evidence_scores').column('rubric_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('evidence_scores_rubric').execute();
  await db.schema.dropIndex('evidence_rubrics_root').execute();
  await db.schema.alterTable('evidence_rubrics').dropColumn('version').execute();
  await db.schema.alterTable('evidence_rubrics').dropColumn('root_id').execute();
}
