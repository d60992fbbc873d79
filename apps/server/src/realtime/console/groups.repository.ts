import { now, type Db } from '../../db/connection';
import './console.tables';

/** SQL on the talk groups (tables of the groups module) and the service's attachments. */

export async function findGroup(db: Db, tgid: number) {
  return (
    db
      .selectFrom('talk_groups')
      .select(['id', 'name', 'ext_tgid', 'preconfig', 'unit_id', 'expires'])
      .where('id', '=', tgid)
      // a temporary group past its life is gone (the groups module deletes it at its next sweep)
      .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now())]))
      .executeTakeFirst()
  );
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

const groupColumns = ['id', 'name', 'ext_tgid', 'preconfig', 'unit_id', 'expires'] as const;

/** Groups of the given units (null: every unit), temporary ones past their life left out. */
export async function groupsOfUnits(db: Db, unitIds: readonly number[] | null): Promise<GroupRow[]> {
  if (unitIds && !unitIds.length) return [];
  let q = db
    .selectFrom('talk_groups')
    .select([...groupColumns])
    .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now())]));
  if (unitIds) q = q.where('unit_id', 'in', [...unitIds]);
  return q.orderBy('id').execute();
}

/** Groups a device is a member of (live ones). */
export async function groupsOfMember(db: Db, deviceId: number): Promise<GroupRow[]> {
  return db
    .selectFrom('talk_groups as g')
    .innerJoin('talk_group_members as m', 'm.group_id', 'g.id')
    .select(['g.id', 'g.name', 'g.ext_tgid', 'g.preconfig', 'g.unit_id', 'g.expires'])
    .where('m.device_id', '=', deviceId)
    .where((eb) => eb.or([eb('g.expires', 'is', null), eb('g.expires', '>', now())]))
    .orderBy('g.id')
    .execute();
}

/** Members of groups with their names and cluster numbers. */
export async function membersOfGroups(db: Db, tgids: readonly number[]) {
  if (!tgids.length) return [];
  return db
    .selectFrom('talk_group_members as m')
    .innerJoin('devices as d', 'd.id', 'm.device_id')
    .select(['m.group_id', 'd.id', 'd.hostname', 'd.hostbody', 'd.jq_hostcode', 'd.unit_id'])
    .where('m.group_id', 'in', [...tgids])
    .orderBy('d.id')
    .execute();
}

/** Attachments of users (absent: not attached). */
export async function attachmentsOf(db: Db, uids: readonly number[]) {
  if (!uids.length) return [];
  return db
    .selectFrom('console_group_attach')
    .selectAll()
    .where('uid', 'in', [...uids])
    .execute();
}

/**
 * Attach users to a group (one group per user: an earlier attachment is replaced), in one
 * transaction; answers each user's previous group (0: none).
 */
export async function attach(
  db: Db,
  uids: readonly number[],
  tgid: number,
  speak: number,
  hear: number,
): Promise<Map<number, number>> {
  return db.transaction().execute(async (trx) => {
    const before = new Map((await attachmentsOf(trx, uids)).map((r) => [r.uid, r.tgid]));
    const ts = now();
    for (const uid of uids)
      await trx
        .insertInto('console_group_attach')
        .values({ uid, tgid, speak, hear, updated: ts })
        .onConflict((oc) => oc.column('uid').doUpdateSet({ tgid, speak, hear, updated: ts }))
        .execute();
    return new Map(uids.map((uid) => [uid, before.get(uid) ?? 0]));
  });
}

/** Detach users from a group; answers those that were attached to it. */
export async function detach(db: Db, uids: readonly number[], tgid: number): Promise<number[]> {
  if (!uids.length) return [];
  const rows = await db
    .deleteFrom('console_group_attach')
    .where('uid', 'in', [...uids])
    .where('tgid', '=', tgid)
    .returning('uid')
    .execute();
  return rows.map((r) => r.uid);
}

/** A temporary group of the unit with its members, in one transaction; answers its id. */
export async function insertGroup(
  db: Db,
  g: { name: string; unit_id: number; created_by: number | null; expires: string },
  memberIds: readonly number[],
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ts = now();
    const row = await trx
      .insertInto('talk_groups')
      .values({ ...g, ext_tgid: '', preconfig: 0, remark: '', created: ts, updated: ts })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('talk_group_members')
      .values(memberIds.map((device_id) => ({ group_id: row.id, device_id })))
      .execute();
    return row.id;
  });
}

/** Delete a group (its members and attachments go with it). */
export async function deleteGroup(db: Db, tgid: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('console_group_attach').where('tgid', '=', tgid).execute();
    await trx.deleteFrom('talk_group_members').where('group_id', '=', tgid).execute();
    await trx.deleteFrom('talk_groups').where('id', '=', tgid).execute();
  });
}

/** Add members (those already in stay); answers the ones added. */
export async function addMembers(db: Db, tgid: number, deviceIds: readonly number[]): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    const current = new Set(await memberIds(trx, tgid));
    const added = deviceIds.filter((id) => !current.has(id));
    if (added.length)
      await trx
        .insertInto('talk_group_members')
        .values(added.map((device_id) => ({ group_id: tgid, device_id })))
        .execute();
    await trx.updateTable('talk_groups').set({ updated: now() }).where('id', '=', tgid).execute();
    return added;
  });
}

/** Remove members (and their attachment to the group); answers the ones removed. */
export async function removeMembers(db: Db, tgid: number, deviceIds: readonly number[]): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    const current = new Set(await memberIds(trx, tgid));
    const removed = deviceIds.filter((id) => current.has(id));
    if (removed.length) {
      await trx
        .deleteFrom('talk_group_members')
        .where('group_id', '=', tgid)
        .where('device_id', 'in', removed)
        .execute();
      await trx.deleteFrom('console_group_attach').where('tgid', '=', tgid).where('uid', 'in', removed).execute();
    }
    await trx.updateTable('talk_groups').set({ updated: now() }).where('id', '=', tgid).execute();
    return removed;
  });
}
