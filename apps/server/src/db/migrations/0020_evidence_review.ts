import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres, now } from '../connection';

/** Same autoincrement id as 0001_foundation (the one dialect difference). */
function withId<T extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** The built-in rubric 执法规范: five criteria of 20 points. */
export const BUILTIN_RUBRIC = [
  { key: 'identity', label_zh: '表明身份', label_en: 'Identifies himself', max: 20 },
  { key: 'reason', label_zh: '告知事由', label_en: 'States the reason', max: 20 },
  { key: 'language', label_zh: '文明用语', label_en: 'Courteous language', max: 20 },
  { key: 'recording', label_zh: '全程录像', label_en: 'Records throughout', max: 20 },
  { key: 'procedure', label_zh: '程序规范', label_en: 'Follows procedure', max: 20 },
];

/**
 * Review of evidence (issue 15 sections 2 and 5): scoring rubrics (the built-in one seeded), each
 * scorer's scores of an item (the current one and the replaced ones as history), random check
 * batches with their drawn items and results.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('evidence_rubrics'))
    .addColumn('name_zh', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(100)', (c) => c.notNull())
    /** JSON [{key, label_zh, label_en, max}] */
    .addColumn('criteria', 'text', (c) => c.notNull())
    /** 1: the rubric new scores use */
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'varchar(30)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('evidence_scores'))
    .addColumn('media_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('user_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('rubric_id', 'integer', (c) => c.notNull())
    /** JSON [{key, score}] */
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('comment', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('total', 'real', (c) => c.notNull())
    .addColumn('max_total', 'integer', (c) => c.notNull())
    .addColumn('at', 'varchar(30)', (c) => c.notNull())
    /** 1: the scorer's current score of the item; 0: replaced (history) */
    .addColumn('current', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('evidence_scores_media')
    .on('evidence_scores')
    .columns(['media_id', 'current', 'user_id'])
    .execute();
  await db.schema.createIndex('evidence_scores_user').on('evidence_scores').columns(['user_id', 'current']).execute();

  await withId(db, db.schema.createTable('evidence_check_batches'))
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('created_by_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('note', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('seed', 'bigint', (c) => c.notNull())
    .addColumn('max_media_id', 'integer', (c) => c.notNull())
    /** JSON CheckFilters */
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('requested', 'integer', (c) => c.notNull())
    .addColumn('drawn', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('evidence_check_batches_unit')
    .on('evidence_check_batches')
    .columns(['unit_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('evidence_check_items')
    .addColumn('batch_id', 'integer', (c) => c.notNull())
    .addColumn('media_id', 'integer', (c) => c.notNull())
    .addColumn('pos', 'integer', (c) => c.notNull())
    /** 'pending' | 'pass' | 'fail' | 'doubtful' */
    .addColumn('result', 'varchar(10)', (c) => c.notNull())
    .addColumn('note', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('checked_by', 'integer')
    .addColumn('checked_by_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('checked_at', 'varchar(30)')
    .addPrimaryKeyConstraint('evidence_check_items_pk', ['batch_id', 'media_id'])
    .execute();

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  await (db as Kysely<any>)
    .insertInto('evidence_rubrics')
    .values({
      name_zh: '执法规范',
      name_en: 'Law-enforcement conduct',
      criteria: JSON.stringify(BUILTIN_RUBRIC),
      active: 1,
      updated: now(),
    })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['evidence_check_items', 'evidence_check_batches', 'evidence_scores', 'evidence_rubrics'])
    await db.schema.dropTable(t).execute();
}
