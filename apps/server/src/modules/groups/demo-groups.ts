import type { EventBus } from '../../bus';
import { now, type Db } from '../../db/connection';

/** Name of a unit's demo talk group: its unit's name and this suffix. */
export const DEMO_GROUP_SUFFIX = '对讲组';

/**
 * Demo mode only: devices with a cluster number provisioned through the device API (the simulated
 * fleet of `npm start`) join the fixed talk group of their district (the unit under the root that
 * holds theirs, or the root itself), made when missing ("<unit>对讲组", preconfig 1), so that a
 * new user hears the fleet's group talk without setting a group up first. Outside demo mode,
 * groups are what administrators make.
 */
export async function joinDemoTalkGroups(db: Db, bus: EventBus, deviceIds: readonly number[]): Promise<void> {
  if (!deviceIds.length) return;
  // made by the demo administrator (the seed's account)
  const admin = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirst();
  if (!admin) return;
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'unit_id'])
    .where('id', 'in', [...deviceIds])
    .where('jq_hostcode', '!=', '')
    .execute();
  const units = new Map((await db.selectFrom('units').select(['id', 'pid', 'name']).execute()).map((u) => [u.id, u]));
  /** the unit right under the root on the way up from `id` (the root for the root) */
  const district = (id: number) => {
    let unit = units.get(id);
    for (let hops = 0; unit && hops < 64; hops += 1) {
      const parent = units.get(unit.pid);
      // `unit` is the root, or its parent is: that is the one
      if (!parent || !units.has(parent.pid)) return unit;
      unit = parent;
    }
    return unit;
  };
  const byUnit = new Map<number, { name: string; ids: number[] }>();
  for (const d of devices) {
    const unit = district(d.unit_id);
    if (!unit) continue;
    const entry = byUnit.get(unit.id) ?? { name: unit.name, ids: [] };
    entry.ids.push(d.id);
    byUnit.set(unit.id, entry);
  }
  for (const [unitId, { name, ids }] of byUnit) {
    const groupName = `${name}${DEMO_GROUP_SUFFIX}`;
    const created = await db.transaction().execute(async (trx) => {
      let group = await trx
        .selectFrom('talk_groups')
        .select('id')
        .where('unit_id', '=', unitId)
        .where('name', '=', groupName)
        .executeTakeFirst();
      let made = false;
      if (!group) {
        const ts = now();
        group = await trx
          .insertInto('talk_groups')
          .values({
            name: groupName,
            preconfig: 1,
            unit_id: unitId,
            remark: 'demo',
            created_by: admin.id,
            expires: null,
            ext_tgid: '',
            created: ts,
            updated: ts,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        made = true;
      }
      const present = new Set(
        (await trx.selectFrom('talk_group_members').select('device_id').where('group_id', '=', group.id).execute()).map(
          (m) => m.device_id,
        ),
      );
      const missing = ids.filter((id) => !present.has(id));
      if (missing.length)
        await trx
          .insertInto('talk_group_members')
          .values(missing.map((device_id) => ({ group_id: group.id, device_id })))
          .execute();
      return { id: group.id, made, changed: missing.length > 0 };
    });
    if (created.made) bus.emit('group.changed', { kind: 'created', tgid: created.id, unit_id: unitId });
    else if (created.changed)
      bus.emit('group.changed', { kind: 'updated', tgid: created.id, unit_id: unitId, previous_unit_id: unitId });
  }
}
