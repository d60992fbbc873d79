import type { Kysely } from 'kysely';

/**
 * Voice calls (issue 14 section 4) are recorded like talk bursts, one file per direction: a
 * talk_records row says which kind it is and, for a call, who heard it (`tgid` holds the call id).
 * One column per statement: SQLite adds one column at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('talk_records')
    .addColumn('kind', 'varchar(10)', (c) => c.notNull().defaultTo('group'))
    .execute();
  await db.schema.alterTable('talk_records').addColumn('peer_uid', 'integer').execute();
  await db.schema.alterTable('talk_records').addColumn('peer_ext_id', 'varchar(64)').execute();
  await db.schema.alterTable('talk_records').addColumn('peer_name', 'varchar(100)').execute();
  await db.schema.createIndex('talk_records_call').on('talk_records').columns(['kind', 'tgid']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('talk_records_call').execute();
  for (const column of ['peer_name', 'peer_ext_id', 'peer_uid', 'kind'])
    await db.schema.alterTable('talk_records').dropColumn(column).execute();
}
