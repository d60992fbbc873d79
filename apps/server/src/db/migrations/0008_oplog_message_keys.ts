import type { Kysely } from 'kysely';

/**
 * Operation log rows keep the catalogue key and params of their result msg, so that the log reads
 * in the viewer's language (rows written before keep only the msg text, shown as it was).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('operation_log')
    .addColumn('msg_key', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('operation_log')
    .addColumn('msg_params', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('operation_log').dropColumn('msg_params').execute();
  await db.schema.alterTable('operation_log').dropColumn('msg_key').execute();
}
