import type { Kysely } from 'kysely';
import { isPostgres } from '../connection';

/**
 * Media requests of the console service (calls, push-to-talk, live video, conferences) whose media
 * comes with later issues: each request that passed its checks is kept, who asked what of whom and
 * when, with the answer it got (`not_available` until then).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const table = db.schema.createTable('console_media_requests');
  await (
    isPostgres(db)
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('code', 'varchar(48)', (c) => c.notNull())
    .addColumn('from_uid', 'integer', (c) => c.notNull())
    .addColumn('target_uid', 'integer')
    .addColumn('tgid', 'integer')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('console_media_requests_from')
    .on('console_media_requests')
    .columns(['from_uid', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_media_requests').execute();
}
