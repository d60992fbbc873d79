import type { Kysely } from 'kysely';

/**
 * Which node of a cluster holds a console-service login's connection (issue 12): every node
 * answers "is this user online" for the whole cluster, and the logins of a node that died are
 * announced offline by the node running the scheduled work. Null: no connection holds it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('console_logins').addColumn('node', 'varchar(80)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('console_logins').dropColumn('node').execute();
}
