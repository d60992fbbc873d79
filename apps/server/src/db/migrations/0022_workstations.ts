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
 * Docking workstations (issue 15 section 1b, ops centre workAdmin 10313): the registry, the
 * station's credentials (secret and bearer token, sha256 hex) and what its last heartbeat said.
 * Online is read from `last_seen` (modules/workstations).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('workstations'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)')
    .addColumn('last_seen', 'varchar(30)')
    .addColumn('last_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('disk_free', 'bigint')
    /** JSON array of the hostbodies docked at the last heartbeat */
    .addColumn('docked', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workstations_token').on('workstations').column('token_hash').execute();
  await db.schema.createIndex('workstations_unit').on('workstations').column('unit_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('workstations').execute();
}
