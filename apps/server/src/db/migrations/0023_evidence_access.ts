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
 * Access to other units' evidence (accessfrom / accessto) with the items each approval granted, and
 * external share links (token stored as its SHA-256, optional argon2 password) with their items.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('evidence_access_requests'))
    .addColumn('requester_id', 'integer', (c) => c.notNull())
    /** the grantee: the requester's unit */
    .addColumn('from_unit_id', 'integer', (c) => c.notNull())
    .addColumn('to_unit_id', 'integer', (c) => c.notNull())
    /** JSON array of the ids asked for ([] when by filter) */
    .addColumn('media_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('device_id', 'integer')
    .addColumn('start_at', 'varchar(30)')
    .addColumn('end_at', 'varchar(30)')
    .addColumn('reason', 'varchar(200)', (c) => c.notNull())
    .addColumn('requested_until', 'varchar(30)', (c) => c.notNull())
    /** 'pending' | 'approved' | 'refused' | 'withdrawn' */
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('decided_by', 'integer')
    .addColumn('decided_at', 'varchar(30)')
    .addColumn('note', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('evidence_access_requests_from')
    .on('evidence_access_requests')
    .columns(['from_unit_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('evidence_access_requests_to')
    .on('evidence_access_requests')
    .columns(['to_unit_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('evidence_access_items')
    .addColumn('request_id', 'integer', (c) => c.notNull())
    .addColumn('media_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('evidence_access_items_pk', ['request_id', 'media_id'])
    .execute();
  await db.schema.createIndex('evidence_access_items_media').on('evidence_access_items').column('media_id').execute();

  await withId(db, db.schema.createTable('evidence_share_links'))
    /** SHA-256 hex of the link's token (the token itself is shown once) */
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    /** argon2id of the password, '' for none */
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('recipient', 'varchar(50)', (c) => c.notNull())
    .addColumn('note', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(30)')
    .addColumn('revoked_by', 'integer')
    .addColumn('visits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_visit_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('evidence_share_links_unit').on('evidence_share_links').columns(['unit_id']).execute();

  await db.schema
    .createTable('evidence_share_items')
    .addColumn('link_id', 'integer', (c) => c.notNull())
    .addColumn('media_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('evidence_share_items_pk', ['link_id', 'media_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['evidence_share_items', 'evidence_share_links', 'evidence_access_items', 'evidence_access_requests'])
    await db.schema.dropTable(t).ifExists().execute();
}
