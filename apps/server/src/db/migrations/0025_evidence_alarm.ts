import type { Kysely } from 'kysely';

/**
 * Alarm recordings (issue 15 sections 1d and 3, /data/archive/alram): the live video an SOS makes
 * the gateway record becomes an evidence item that names its alarm.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('evidence_items').addColumn('alarm_id', 'integer').execute();
  await db.schema
    .createIndex('evidence_items_alarm')
    .on('evidence_items')
    .columns(['alarm_id', 'recorded_at'])
    .where('alarm_id', 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('evidence_items_alarm').execute();
  await db.schema.alterTable('evidence_items').dropColumn('alarm_id').execute();
}
