import type { GbPointsAnswer, GbPointsRequest, GbPointUnit, GbSitePush } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import type { UnitRow } from '../../db/types';
import type { AuthUser } from '../../http/auth';
import { assertInScope, unitScope } from '../../http/scope';
import { loadUnitIndex, type UnitIndex } from '../units/units.service';
import { findGbDevice, gbChannelsOf, gbDevicesIn } from './gb-devices.repository';
import type { GbDeviceRow } from './gb28181.tables';

const flag = (n: number): 0 | 1 => (n === 1 ? 1 : 0);

/** The device's map entry; null while it has no position (none stored, or 0/0: devices without a fix send that). */
export function sitePushOf(d: GbDeviceRow): GbSitePush | null {
  if (d.lng == null || d.lat == null || (d.lng === 0 && d.lat === 0)) return null;
  return {
    devgbid: d.gbid,
    name: d.name || d.gbid,
    unit_id: d.unit_id,
    lineon: flag(d.online),
    lng: d.lng,
    lat: d.lat,
    position_time: d.position_time ?? '',
  };
}

/**
 * gbpoints: the devices of `unit` and below (default the caller's scope) that have a position, with
 * their channels, and the units of the map's tree: the devices' units and their ancestors inside
 * what is answered (never a unit outside the caller's scope).
 */
export async function gbPoints(db: Db, user: AuthUser, req: GbPointsRequest): Promise<GbPointsAnswer> {
  const scope = await unitScope(db, user);
  const index = await loadUnitIndex(db);
  let units: number[] | null = scope.all ? null : scope.ids;
  if (req.unit !== undefined) {
    assertInScope(scope, req.unit);
    units = index.subtree(req.unit).map((u) => u.id);
  }
  const points = (await gbDevicesIn(db, units)).flatMap((d) => {
    const p = sitePushOf(d);
    return p ? [{ id: d.id, online: d.online, point: p }] : [];
  });
  const channels = await gbChannelsOf(
    db,
    points.map((p) => p.id),
  );
  const answered = units === null ? null : new Set(units);
  return {
    units: treeUnits(
      index,
      points.map((p) => p.point.unit_id),
      (id) => index.byId.has(id) && (answered === null || answered.has(id)),
    ),
    points: points.map(({ id, online, point }) => ({
      ...point,
      channels: channels
        .filter((c) => c.device_id === id)
        .map((c) => ({ devgbid: c.gbid, name: c.name || c.gbid, lineon: flag(online === 1 ? c.status : 0) })),
    })),
  };
}

/** The given units and their ancestors while `inAnswer`, in the units' order; a parent left out is 0. */
function treeUnits(index: UnitIndex, unitIds: number[], inAnswer: (id: number) => boolean): GbPointUnit[] {
  const kept = new Set<number>();
  for (const start of unitIds)
    for (let id = start; inAnswer(id) && !kept.has(id); id = index.byId.get(id)!.pid) kept.add(id);
  return index.units.filter((u) => kept.has(u.id)).map((u) => presentPointUnit(u, kept.has(u.pid) ? u.pid : 0));
}

function presentPointUnit(u: UnitRow, pid: number): GbPointUnit {
  return { id: u.id, pid, name: u.name };
}

/** The device's current map entry (after a stored position or online change); null unknown or without a position. */
export async function gbSiteOf(db: Db, gbid: string): Promise<GbSitePush | null> {
  const d = await findGbDevice(db, gbid);
  return d ? sitePushOf(d) : null;
}
