import type { GbPoint, GbPointsRequest, GbSitePush } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import { assertInScope, unitScope, unitSubtree } from '../../http/scope';
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

/** gbpoints: the devices of `unit` and below (default the caller's scope) that have a position, with their channels. */
export async function gbPoints(db: Db, user: AuthUser, req: GbPointsRequest): Promise<GbPoint[]> {
  const scope = await unitScope(db, user);
  let units: number[] | null = scope.all ? null : scope.ids;
  if (req.unit !== undefined) {
    assertInScope(scope, req.unit);
    units = await unitSubtree(db, req.unit);
  }
  const points = (await gbDevicesIn(db, units)).flatMap((d) => {
    const p = sitePushOf(d);
    return p ? [{ id: d.id, online: d.online, point: p }] : [];
  });
  const channels = await gbChannelsOf(
    db,
    points.map((p) => p.id),
  );
  return points.map(({ id, online, point }) => ({
    ...point,
    channels: channels
      .filter((c) => c.device_id === id)
      .map((c) => ({ devgbid: c.gbid, name: c.name || c.gbid, lineon: flag(online === 1 ? c.status : 0) })),
  }));
}

/** The device's current map entry (after a stored position or online change); null unknown or without a position. */
export async function gbSiteOf(db: Db, gbid: string): Promise<GbSitePush | null> {
  const d = await findGbDevice(db, gbid);
  return d ? sitePushOf(d) : null;
}
