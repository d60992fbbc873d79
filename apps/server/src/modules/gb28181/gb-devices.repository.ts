import type { CatalogItem } from '@bwc/gb28181/manscdp';
import type { UnitScope } from '../../http/scope';
import { now, type Db } from '../../db/connection';
import type { GbChannelRow, GbDeviceRow } from './gb28181.tables';
import './gb28181.tables';

/** A Catalog item as the channel table keeps it. */
export interface ChannelInput {
  gbid: string;
  name: string;
  parent: string;
  status: number;
  /** A.2.6.4 Info PTZType: 1 dome, 2 half-dome, 3 fixed, 4 remote-controlled; 0 not given or another value */
  ptz_type: number;
  manufacturer: string;
  model: string;
  lng: number | null;
  lat: number | null;
}

function ptzTypeOf(item: CatalogItem): number {
  const t = item.Info?.PTZType;
  return t !== undefined && t >= 1 && t <= 4 ? t : 0;
}

export function channelOf(item: CatalogItem): ChannelInput {
  return {
    gbid: item.DeviceID,
    name: item.Name ?? item.DeviceID,
    parent: item.ParentID ?? '',
    status: item.Status === 'ON' ? 1 : 0,
    ptz_type: ptzTypeOf(item),
    manufacturer: item.Manufacturer ?? '',
    model: item.Model ?? '',
    lng: item.Longitude ?? null,
    lat: item.Latitude ?? null,
  };
}

/** The unit new GB devices belong to: the first root unit (pid 0). */
export async function rootUnitId(db: Db): Promise<number> {
  const row = await db.selectFrom('units').select('id').where('pid', '=', 0).orderBy('id').executeTakeFirst();
  return row?.id ?? 1;
}

export async function findGbDevice(db: Db, gbid: string): Promise<GbDeviceRow | undefined> {
  return db.selectFrom('gb_devices').selectAll().where('gbid', '=', gbid).executeTakeFirst();
}

/** REGISTER accepted: the row (created in `unitId` the first time) is online with its address. */
export async function upsertRegistered(
  db: Db,
  r: { gbid: string; transport: string; address: string; unitId: number },
): Promise<GbDeviceRow> {
  const at = now();
  await db
    .insertInto('gb_devices')
    .values({ gbid: r.gbid, name: r.gbid, unit_id: r.unitId, created: at })
    .onConflict((oc) => oc.column('gbid').doNothing())
    .execute();
  await db
    .updateTable('gb_devices')
    .set({ online: 1, transport: r.transport, address: r.address, registered_at: at, keepalive_at: at })
    .where('gbid', '=', r.gbid)
    .execute();
  return (await findGbDevice(db, r.gbid))!;
}

export async function setGbOnline(db: Db, gbid: string, online: 0 | 1): Promise<void> {
  await db.updateTable('gb_devices').set({ online }).where('gbid', '=', gbid).execute();
}

/** Every device offline (the platform starts or stops: registrations live in its memory). */
export async function setAllGbOffline(db: Db): Promise<void> {
  await db.updateTable('gb_devices').set({ online: 0 }).where('online', '=', 1).execute();
}

export async function touchGbKeepalive(db: Db, gbid: string): Promise<void> {
  await db.updateTable('gb_devices').set({ keepalive_at: now() }).where('gbid', '=', gbid).execute();
}

export async function setGbInfo(
  db: Db,
  gbid: string,
  info: { name?: string; manufacturer?: string; model?: string; firmware?: string },
): Promise<void> {
  const { name, ...rest } = info;
  const set = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== ''));
  if (Object.keys(set).length) await db.updateTable('gb_devices').set(set).where('gbid', '=', gbid).execute();
  // the DeviceInfo name only replaces the placeholder (the GB id): a name an admin gave is kept
  if (name)
    await db
      .updateTable('gb_devices')
      .set({ name })
      .where('gbid', '=', gbid)
      .where((eb) => eb.or([eb('name', '=', gbid), eb('name', '=', '')]))
      .execute();
}

export async function setGbPosition(
  db: Db,
  gbid: string,
  p: { lng: number; lat: number; time: string },
): Promise<void> {
  await db
    .updateTable('gb_devices')
    .set({ lng: p.lng, lat: p.lat, position_time: p.time })
    .where('gbid', '=', gbid)
    .execute();
}

/** A full Catalog answer: the device's channels become exactly these. */
export async function replaceGbChannels(db: Db, deviceId: number, channels: ChannelInput[]): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('gb_channels').where('device_id', '=', deviceId).execute();
    const seen = new Set<string>();
    const rows = channels.filter((c) => !seen.has(c.gbid) && seen.add(c.gbid));
    for (let i = 0; i < rows.length; i += 200)
      await tx
        .insertInto('gb_channels')
        .values(rows.slice(i, i + 200).map((c) => ({ ...c, device_id: deviceId })))
        .execute();
  });
}

/** A Catalog NOTIFY (A.2.5.4): ON/OFF/VLOST/DEFECT set the status, DEL removes, ADD/UPDATE (or none) upsert. */
export async function applyGbCatalogChange(db: Db, deviceId: number, items: CatalogItem[]): Promise<void> {
  for (const item of items) {
    if (item.Event === 'DEL') {
      await db.deleteFrom('gb_channels').where('device_id', '=', deviceId).where('gbid', '=', item.DeviceID).execute();
      continue;
    }
    if (item.Event === 'ON' || item.Event === 'OFF' || item.Event === 'VLOST' || item.Event === 'DEFECT') {
      await db
        .updateTable('gb_channels')
        .set({ status: item.Event === 'ON' ? 1 : 0 })
        .where('device_id', '=', deviceId)
        .where('gbid', '=', item.DeviceID)
        .execute();
      continue;
    }
    const c = channelOf(item);
    const existing = await db
      .selectFrom('gb_channels')
      .select('id')
      .where('device_id', '=', deviceId)
      .where('gbid', '=', c.gbid)
      .executeTakeFirst();
    if (existing) await db.updateTable('gb_channels').set(c).where('id', '=', existing.id).execute();
    else
      await db
        .insertInto('gb_channels')
        .values({ ...c, device_id: deviceId })
        .execute();
  }
}

export async function gbChannelsOf(db: Db, deviceIds: number[]): Promise<GbChannelRow[]> {
  if (!deviceIds.length) return [];
  return db
    .selectFrom('gb_channels')
    .selectAll()
    .where('device_id', 'in', deviceIds)
    .orderBy('name')
    .orderBy('gbid')
    .execute();
}

/** Devices of the given units (all units: `null`), by name. */
export async function gbDevicesIn(db: Db, unitIds: number[] | null): Promise<GbDeviceRow[]> {
  if (unitIds && !unitIds.length) return [];
  let q = db.selectFrom('gb_devices').selectAll();
  if (unitIds) q = q.where('unit_id', 'in', unitIds);
  return q.orderBy('name').orderBy('gbid').execute();
}

export type GbDeviceListRow = GbDeviceRow & { unit_name: string; channel_count: number };

/** The admin list: devices of the scope, filtered by name / GB id substring and online state. */
export async function listGbDevices(
  db: Db,
  scope: UnitScope,
  q: { page: number; limit: number; key?: string; lineon?: 0 | 1 },
): Promise<{ total: number; rows: GbDeviceListRow[] }> {
  let base = db.selectFrom('gb_devices as d');
  if (!scope.all) base = scope.ids.length ? base.where('d.unit_id', 'in', scope.ids) : base.where('d.id', '<', 0);
  if (q.key) {
    const like = `%${q.key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([eb('d.name', 'like', like), eb('d.gbid', 'like', like)]));
  }
  if (q.lineon !== undefined) base = base.where('d.online', '=', q.lineon);
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base
    .leftJoin('units as u', 'u.id', 'd.unit_id')
    .selectAll('d')
    .select((eb) => [
      eb.fn.coalesce('u.name', eb.val('')).as('unit_name'),
      eb
        .selectFrom('gb_channels as c')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('c.device_id', '=', 'd.id')
        .as('channel_count'),
    ])
    .orderBy('d.name')
    .orderBy('d.gbid')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return {
    total,
    rows: rows.map((r) => ({
      ...r,
      unit_name: String(r.unit_name ?? ''),
      channel_count: Number(r.channel_count ?? 0),
    })),
  };
}
