import { now, type Db } from '../../db/connection';
import type { TalkGroupRow } from './groups.tables';
import './groups.tables';

/** SQL of the talk groups of the dispatch map (rest/gis/gischannel*). */

/** Delete temporary groups past their life; answers how many. */
/** Delete temporary groups past their life; answers each with its unit and former members. */
export async function deleteExpiredGroups(db: Db): Promise<{ id: number; unit_id: number; members: number[] }[]> {
  const expired = await db
    .selectFrom('talk_groups')
    .select(['id', 'unit_id'])
    .where('expires', 'is not', null)
    .where('expires', '<=', now())
    .execute();
  if (!expired.length) return [];
  const ids = expired.map((g) => g.id);
  const members = await db
    .selectFrom('talk_group_members')
    .select(['group_id', 'device_id'])
    .where('group_id', 'in', ids)
    .execute();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('talk_group_members').where('group_id', 'in', ids).execute();
    await trx.deleteFrom('talk_groups').where('id', 'in', ids).execute();
  });
  return expired.map((g) => ({
    ...g,
    members: members.filter((m) => m.group_id === g.id).map((m) => m.device_id),
  }));
}

/** Device ids of a group's members. */
export async function memberDeviceIds(db: Db, id: number): Promise<number[]> {
  const rows = await db.selectFrom('talk_group_members').select('device_id').where('group_id', '=', id).execute();
  return rows.map((r) => r.device_id);
}

export const findUnitByCode = (db: Db, bh: string) =>
  db.selectFrom('units').select(['id', 'bh']).where('bh', '=', bh).executeTakeFirst();

export type DeviceBrief = {
  id: number;
  unit_id: number;
  hostbody: string;
  hostname: string;
  hostcode: string;
  jq_hostcode: string;
};

export const devicesByIds = (db: Db, ids: readonly number[]): Promise<DeviceBrief[]> =>
  db
    .selectFrom('devices')
    .select(['id', 'unit_id', 'hostbody', 'hostname', 'hostcode', 'jq_hostcode'])
    .where('id', 'in', [...ids])
    .execute();

/** Devices by cluster number, within `unitIds` (null: any unit), in id order. */
export function devicesByClusterCodes(db: Db, codes: readonly string[], unitIds: readonly number[] | null) {
  let q = db
    .selectFrom('devices')
    .select(['id', 'jq_hostcode'])
    .where('jq_hostcode', 'in', [...codes]);
  if (unitIds) q = q.where('unit_id', 'in', [...unitIds]);
  return q.orderBy('id').execute();
}

export interface NewGroup {
  name: string;
  preconfig: number;
  unit_id: number;
  remark: string;
  created_by: number;
  expires: string | null;
}

/** A group and its members in one transaction; answers its id. */
export async function insertGroup(db: Db, g: NewGroup, deviceIds: readonly number[]): Promise<number> {
  const ts = now();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('talk_groups')
      .values({ ...g, ext_tgid: '', created: ts, updated: ts })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (deviceIds.length)
      await trx
        .insertInto('talk_group_members')
        .values(deviceIds.map((device_id) => ({ group_id: row.id, device_id })))
        .execute();
    return row.id;
  });
}

export const findGroup = (db: Db, id: number): Promise<TalkGroupRow | undefined> =>
  db.selectFrom('talk_groups').selectAll().where('id', '=', id).executeTakeFirst();

/** Change a group and replace its members in one transaction. */
export async function updateGroup(
  db: Db,
  id: number,
  values: Pick<TalkGroupRow, 'name' | 'preconfig' | 'unit_id' | 'remark' | 'expires'>,
  deviceIds: readonly number[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('talk_groups')
      .set({ ...values, updated: now() })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('talk_group_members').where('group_id', '=', id).execute();
    if (deviceIds.length)
      await trx
        .insertInto('talk_group_members')
        .values(deviceIds.map((device_id) => ({ group_id: id, device_id })))
        .execute();
  });
}

export async function deleteGroupRow(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('talk_group_members').where('group_id', '=', id).execute();
    await trx.deleteFrom('talk_groups').where('id', '=', id).execute();
  });
}

/** Members of groups with their devices' names and online state, by device name. */
export const membersOf = (db: Db, groupIds: readonly number[]) =>
  db
    .selectFrom('talk_group_members as m')
    .innerJoin('devices as d', 'd.id', 'm.device_id')
    .select(['m.group_id', 'd.id', 'd.hostbody', 'd.hostname', 'd.hostcode', 'd.jq_hostcode', 'd.lineon'])
    .where('m.group_id', 'in', [...groupIds])
    .orderBy('d.hostname')
    .execute();

export const unitCodes = (db: Db, unitIds: readonly number[]) =>
  db
    .selectFrom('units')
    .select(['id', 'bh'])
    .where('id', 'in', [...unitIds])
    .execute();

/** Groups of units (null: all), fixed ones first, then newest first. */
export function listGroupRows(db: Db, unitIds: readonly number[] | null): Promise<TalkGroupRow[]> {
  let q = db.selectFrom('talk_groups').selectAll();
  if (unitIds) q = q.where('unit_id', 'in', [...unitIds]);
  return q.orderBy('preconfig', 'desc').orderBy('id', 'desc').execute();
}
