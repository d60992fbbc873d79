import type { Kysely } from 'kysely';
import { now } from '../connection';

/** Alarm type 9 (issue 16): an alarm a GB/T 28181 device reported (Alarm NOTIFY or MESSAGE), in the alarm_type dictionary. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const seed = db as Kysely<any>;
  const taken = await seed
    .selectFrom('dict_entries')
    .select('id')
    .where('type', '=', 'alarm_type')
    .where('key', '=', '9')
    .executeTakeFirst();
  if (taken) return;
  const ts = now();
  await seed
    .insertInto('dict_entries')
    .values({
      type: 'alarm_type',
      key: '9',
      label: '国标设备报警',
      label_en: 'GB28181 device alarm',
      sort: 9,
      enabled: 1,
      builtin: 1,
      created: ts,
      updated: ts,
    })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  await (db as Kysely<any>)
    .deleteFrom('dict_entries')
    .where('type', '=', 'alarm_type')
    .where('key', '=', '9')
    .execute();
}
