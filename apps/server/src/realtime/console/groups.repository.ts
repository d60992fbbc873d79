import type { Db } from '../../db/connection';
import './console.tables';

/** SQL on the talk groups (tables of the groups module) and the service's attachments. */

export async function findGroup(db: Db, tgid: number) {
  return db
    .selectFrom('talk_groups')
    .select(['id', 'name', 'ext_tgid', 'preconfig', 'unit_id', 'expires'])
    .where('id', '=', tgid)
    .executeTakeFirst();
}
export type GroupRow = NonNullable<Awaited<ReturnType<typeof findGroup>>>;

/** Device ids of a group's members. */
export async function memberIds(db: Db, tgid: number): Promise<number[]> {
  const rows = await db
    .selectFrom('talk_group_members')
    .select('device_id')
    .where('group_id', '=', tgid)
    .orderBy('device_id')
    .execute();
  return rows.map((r) => r.device_id);
}

/** uids attached to a group (consoles and terminals that entered it). */
export async function attachedUids(db: Db, tgid: number): Promise<number[]> {
  const rows = await db.selectFrom('console_group_attach').select('uid').where('tgid', '=', tgid).execute();
  return rows.map((r) => r.uid);
}
