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
 * Evidence (issue 15): recorded items with their content hash, resumable uploads in progress,
 * metadata revisions and the hash-chained custody record of every item. Originals live under
 * DATA_DIR/evidence/objects by SHA-256 (modules/evidence/store.ts); rows only name them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('evidence_items'))
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('media_type', 'integer', (c) => c.notNull())
    .addColumn('mime', 'varchar(100)', (c) => c.notNull())
    .addColumn('ext', 'varchar(10)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .addColumn('incident_no', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'varchar(12)', (c) => c.notNull())
    .addColumn('outside', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('device_id', 'integer')
    .addColumn('hostbody', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('workstation_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('uploaded_by', 'integer')
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('recorded_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('uploaded_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('duration', 'double precision')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('video_codec', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('audio_codec', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('thumb_sha256', 'varchar(64)')
    /** browser-playable copy (H.264/AAC MP4) when the original is not; 'ready' | 'pending' | 'failed' | 'none' */
    .addColumn('derivative_sha256', 'varchar(64)')
    .addColumn('playable', 'varchar(10)', (c) => c.notNull())
    .addColumn('flg', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flg_note', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('score', 'double precision')
    .addColumn('sensitive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('linked', 'integer', (c) => c.notNull().defaultTo(0))
    /** `<device id>:<fileid>` (or `u<user id>:<fileid>`): a file is stored once per origin */
    .addColumn('origin_key', 'varchar(140)')
    .addColumn('deleted_at', 'varchar(30)')
    .addColumn('deleted_by', 'integer')
    .addColumn('delete_reason', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    /** the custody chain's head: its last seq and hash (a removed last entry is detected) */
    .addColumn('custody_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('custody_hash', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('evidence_items_origin').unique().on('evidence_items').column('origin_key').execute();
  await db.schema
    .createIndex('evidence_items_unit_recorded')
    .on('evidence_items')
    .columns(['unit_id', 'deleted_at', 'recorded_at'])
    .execute();
  await db.schema
    .createIndex('evidence_items_device')
    .on('evidence_items')
    .columns(['device_id', 'recorded_at'])
    .execute();
  await db.schema.createIndex('evidence_items_sha').on('evidence_items').column('sha256').execute();

  await db.schema
    .createTable('evidence_uploads')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    /** 'user' | 'device' | 'workstation' */
    .addColumn('owner_kind', 'varchar(12)', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('origin_key', 'varchar(140)')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('length', 'bigint', (c) => c.notNull())
    .addColumn('created', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated', 'varchar(30)', (c) => c.notNull())
    /** 'open' | 'done' | 'failed' */
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('item_id', 'integer')
    .addColumn('error', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('evidence_uploads_origin').on('evidence_uploads').column('origin_key').execute();

  await withId(db, db.schema.createTable('evidence_revisions'))
    .addColumn('media_id', 'integer', (c) => c.notNull())
    /** 'revise' | 'delete' | 'revert' | 'harddel' */
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('unit_id', 'integer')
    .addColumn('at', 'varchar(30)', (c) => c.notNull())
    .addColumn('reason', 'varchar(200)', (c) => c.notNull())
    /** JSON [{field, before, after}] */
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('media_title', 'varchar(100)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('evidence_revisions_media')
    .on('evidence_revisions')
    .columns(['media_id', 'at'])
    .execute();
  await db.schema.createIndex('evidence_revisions_at').on('evidence_revisions').column('at').execute();

  await withId(db, db.schema.createTable('evidence_custody'))
    .addColumn('media_id', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('action', 'varchar(12)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('actor', 'varchar(100)', (c) => c.notNull())
    .addColumn('unit_id', 'integer')
    .addColumn('at', 'varchar(30)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('evidence_custody_seq')
    .unique()
    .on('evidence_custody')
    .columns(['media_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['evidence_custody', 'evidence_revisions', 'evidence_uploads', 'evidence_items'])
    await db.schema.dropTable(t).execute();
}
