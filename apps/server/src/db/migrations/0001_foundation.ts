import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from '../connection';

/**
 * Foundation tables. Written with the schema builder only so that it runs on SQLite and
 * PostgreSQL alike; the single dialect difference, the autoincrement id, lives in `withId`.
 */
function withId<T extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('units'))
    .addColumn('pid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bh', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('units_pid').on('units').column('pid').execute();

  await withId(db, db.schema.createTable('roles'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('modules')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('bh', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'varchar(255)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('role_permissions')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('module_id', 'integer', (c) => c.notNull().references('modules.id').onDelete('cascade'))
    .addColumn('view', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('edit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('add', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'module_id'])
    .execute();

  await withId(db, db.schema.createTable('users'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('hostname', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
    .addColumn('ifadmin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enabled'))
    .addColumn('phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_unit').on('users').column('unit_id').execute();

  await withId(db, db.schema.createTable('sessions'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .addColumn('pe_signals', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('logincode', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen', 'varchar(32)', (c) => c.notNull())
    .addColumn('ended', 'varchar(32)')
    .execute();
  await db.schema.createIndex('sessions_user_status').on('sessions').columns(['user_id', 'status']).execute();

  await withId(db, db.schema.createTable('login_failures'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_username')
    .on('login_failures')
    .columns(['username', 'created'])
    .execute();
  await db.schema.createIndex('login_failures_ip').on('login_failures').columns(['ip', 'created']).execute();

  await db.schema
    .createTable('captchas')
    .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('text', 'varchar(16)', (c) => c.notNull())
    .addColumn('expires', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('type', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('licence')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('regist_code', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('registered_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('operation_log'))
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('unit_id', 'integer')
    .addColumn('unit_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'varchar(255)', (c) => c.notNull())
    .addColumn('target', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('result_code', 'integer', (c) => c.notNull())
    .addColumn('msg', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operation_log_created').on('operation_log').column('created').execute();
  await db.schema.createIndex('operation_log_unit').on('operation_log').column('unit_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'operation_log',
    'licence',
    'settings',
    'captchas',
    'login_failures',
    'sessions',
    'users',
    'role_permissions',
    'modules',
    'roles',
    'units',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
