import type { Kysely } from 'kysely';

/**
 * How an alarm was acknowledged (AckType: 0 handled, 1 false alarm, 2 transferred), as the
 * console service's req_emergency_handled names it and the console's acknowledge dialog asks;
 * null for alarms still open and for those acknowledged before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('alarms').addColumn('sure_type', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('alarms').dropColumn('sure_type').execute();
}
