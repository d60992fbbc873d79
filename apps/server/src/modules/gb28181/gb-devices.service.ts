import type {
  GbChannel,
  GbDevice,
  GbDeviceDetail,
  GbDeviceListQuery,
  GbDeviceRefreshRequest,
  GbDeviceTreeRequest,
  GbDeviceUpdateRequest,
  GbPtzRequest,
  GbRecording,
  GbRecordSearchRequest,
  GbTreeNode,
} from '@bwc/protocol';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { assertInScope, unitScope, unitSubtree, type UnitScope } from '../../http/scope';
import { gbChannelsOf, gbDevicesIn, listGbDevices, type GbDeviceListRow } from './gb-devices.repository';
import type { GbRuntime } from './gb-runtime';
import type { GbChannelRow, GbDeviceRow } from './gb28181.tables';
import { GbRequestError, type GbSipPlatform } from './sip';

const MAX_SEARCH_MS = 7 * 86_400_000;

/** ISO time of the database as 'YYYY-MM-DD HH:mm:ss' server local time ('' for none). */
export function localTime(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

const flag = (n: number): 0 | 1 => (n === 1 ? 1 : 0);

function channelView(c: GbChannelRow, device: GbDeviceRow): GbChannel {
  return {
    devgbid: c.gbid,
    device: device.gbid,
    name: c.name || c.gbid,
    parent: c.parent,
    status: flag(c.status),
    ptztype: c.ptz_type,
    manufacturer: c.manufacturer,
    model: c.model,
    lng: c.lng,
    lat: c.lat,
  };
}

function deviceView(d: GbDeviceRow, unitName: string, channelCount: number): GbDevice {
  return {
    id: d.id,
    devgbid: d.gbid,
    name: d.name || d.gbid,
    manufacturer: d.manufacturer,
    model: d.model,
    firmware: d.firmware,
    transport: d.transport,
    address: d.address,
    lineon: flag(d.online),
    registered_at: localTime(d.registered_at),
    keepalive_at: localTime(d.keepalive_at),
    channel_count: channelCount,
    unit_id: d.unit_id,
    unit_name: unitName,
    lng: d.lng,
    lat: d.lat,
    position_time: d.position_time ?? '',
  };
}

/** videopatrols/getdevice: the devices of `unit` and below (default the caller's scope) with their channels. */
export async function deviceTree(db: Db, user: AuthUser, req: GbDeviceTreeRequest): Promise<GbTreeNode[]> {
  const scope = await unitScope(db, user);
  let units: number[] | null = scope.all ? null : scope.ids;
  if (req.unit !== undefined) {
    assertInScope(scope, req.unit);
    units = await unitSubtree(db, req.unit);
  }
  const devices = await gbDevicesIn(db, units);
  const channels = await gbChannelsOf(
    db,
    devices.map((d) => d.id),
  );
  const key = req.key?.toLowerCase() ?? '';
  const hit = (name: string, gbid: string) => !key || name.toLowerCase().includes(key) || gbid.includes(key);
  const out: GbTreeNode[] = [];
  for (const d of devices) {
    const mine = channels.filter((c) => c.device_id === d.id);
    const deviceHit = hit(d.name, d.gbid);
    const shown = deviceHit ? mine : mine.filter((c) => hit(c.name, c.gbid));
    if (!deviceHit && !shown.length) continue;
    const children: GbTreeNode[] = shown.map((c) => ({
      devgbid: c.gbid,
      itemtype: '5',
      name: c.name || c.gbid,
      device: d.gbid,
      lineon: flag(d.online === 1 ? c.status : 0),
      unit_id: d.unit_id,
      ptztype: c.ptz_type,
      lng: c.lng,
      lat: c.lat,
      hasChildren: false,
    }));
    out.push({
      devgbid: d.gbid,
      itemtype: '1',
      name: d.name || d.gbid,
      device: d.gbid,
      lineon: flag(d.online),
      unit_id: d.unit_id,
      ptztype: 0,
      lng: d.lng,
      lat: d.lat,
      hasChildren: children.length > 0,
      children,
    });
  }
  return out;
}

/** The device with GB id `gbid` (or the device of channel `gbid`), inside the caller's scope. */
async function scopedDevice(db: Db, user: AuthUser, gbid: string): Promise<GbDeviceRow> {
  let device = await db.selectFrom('gb_devices').selectAll().where('gbid', '=', gbid).executeTakeFirst();
  if (!device) {
    const channel = await db.selectFrom('gb_channels').select('device_id').where('gbid', '=', gbid).executeTakeFirst();
    if (channel)
      device = await db.selectFrom('gb_devices').selectAll().where('id', '=', channel.device_id).executeTakeFirst();
  }
  if (!device) throw new AppError(404, 'errors.gb.notFound');
  assertInScope(await unitScope(db, user), device.unit_id);
  return device;
}

/** videopatrols/detaildevice */
export async function deviceDetail(db: Db, user: AuthUser, gbid: string): Promise<GbDeviceDetail> {
  const device = await scopedDevice(db, user, gbid);
  const channels = await gbChannelsOf(db, [device.id]);
  const unit = await db.selectFrom('units').select('name').where('id', '=', device.unit_id).executeTakeFirst();
  return {
    ...deviceView(device, unit?.name ?? '', channels.length),
    channels: channels.map((c) => channelView(c, device)),
  };
}

/** oamcenter/gbdevice/list: unit_id narrows the caller's scope to that unit and its subunits. */
export async function deviceList(
  db: Db,
  user: AuthUser,
  q: GbDeviceListQuery,
): Promise<{ total: number; page: number; limit: number; list: GbDevice[] }> {
  let scope: UnitScope = await unitScope(db, user);
  if (q.unit_id !== undefined) {
    assertInScope(scope, q.unit_id);
    scope = { all: false, ids: await unitSubtree(db, q.unit_id) };
  }
  const { total, rows } = await listGbDevices(db, scope, q);
  return {
    total,
    page: q.page,
    limit: q.limit,
    list: rows.map((r: GbDeviceListRow) => deviceView(r, r.unit_name, r.channel_count)),
  };
}

/** The running platform and the scoped device, online, whose channel (or the device itself) is `channel`. */
async function target(
  runtime: GbRuntime,
  db: Db,
  user: AuthUser,
  deviceId: string,
  channelId: string,
): Promise<GbSipPlatform> {
  const device = await db.selectFrom('gb_devices').selectAll().where('gbid', '=', deviceId).executeTakeFirst();
  if (!device) throw new AppError(404, 'errors.gb.notFound');
  assertInScope(await unitScope(db, user), device.unit_id);
  if (channelId !== deviceId) {
    const channel = await db
      .selectFrom('gb_channels')
      .select('id')
      .where('device_id', '=', device.id)
      .where('gbid', '=', channelId)
      .executeTakeFirst();
    if (!channel) throw new AppError(404, 'errors.gb.notFound');
  }
  const platform = runtime.platform;
  if (!platform) throw Errors.conflict('errors.gb.notRunning');
  if (!platform.device(deviceId)) throw Errors.conflict('errors.gb.offline');
  return platform;
}

/** A failed request to a device as the envelope says it. */
export function requestFailed(err: unknown): never {
  if (!(err instanceof GbRequestError)) throw err;
  if (err.code === 'not_registered') throw Errors.conflict('errors.gb.offline');
  if (err.code === 'timeout' || err.code === 'incomplete') throw new AppError(504, 'errors.gb.timeout');
  if (err.code === 'rejected') throw new AppError(502, 'errors.gb.rejected');
  throw new AppError(502, 'errors.gb.failed', { reason: err.code });
}

/** videopatrols/ptz: DeviceControl PTZCmd to the channel; done at the device's 200. */
export async function ptz(runtime: GbRuntime, db: Db, user: AuthUser, req: GbPtzRequest): Promise<null> {
  const platform = await target(runtime, db, user, req.device, req.channel);
  try {
    await platform.deviceControlPtz(req.device, req.channel, {
      action: req.action,
      ...(req.speed !== undefined ? { speed: req.speed } : {}),
      ...(req.preset !== undefined ? { preset: req.preset } : {}),
    });
  } catch (err) {
    requestFailed(err);
  }
  return null;
}

const toGbTime = (t: string) => t.replace(' ', 'T');

/** videoreplay/gbsearch: RecordInfo of the channel between start and end (at most 7 days). */
export async function recordSearch(
  runtime: GbRuntime,
  db: Db,
  user: AuthUser,
  req: GbRecordSearchRequest,
): Promise<GbRecording[]> {
  const start = new Date(toGbTime(req.start)).getTime();
  const end = new Date(toGbTime(req.end)).getTime();
  if (!(end > start) || end - start > MAX_SEARCH_MS) throw Errors.field('end', 'validation.gb.timeRange');
  const platform = await target(runtime, db, user, req.device, req.channel);
  try {
    const answer = await platform.queryRecordInfo(req.device, req.channel, toGbTime(req.start), toGbTime(req.end));
    return answer.items.map((r) => ({
      channel: r.DeviceID,
      name: r.Name ?? '',
      start: r.StartTime.replace('T', ' '),
      end: r.EndTime.replace('T', ' '),
      type: r.Type ?? '',
      file_path: r.FilePath ?? '',
      file_size: r.FileSize ?? null,
      recorder_id: r.RecorderID ?? '',
    }));
  } catch (err) {
    return requestFailed(err);
  }
}

/** oamcenter/gbdevice/update: the device's unit and name (both units inside the caller's scope). */
export async function updateDevice(db: Db, user: AuthUser, req: GbDeviceUpdateRequest): Promise<GbDevice> {
  const device = await db.selectFrom('gb_devices').selectAll().where('id', '=', req.id).executeTakeFirst();
  if (!device) throw new AppError(404, 'errors.gb.notFound');
  const unit = await db.selectFrom('units').select(['id', 'name']).where('id', '=', req.unit_id).executeTakeFirst();
  if (!unit) throw Errors.notFound('unit');
  assertInScope(await unitScope(db, user), device.unit_id, unit.id);
  await db
    .updateTable('gb_devices')
    .set({ unit_id: unit.id, ...(req.name ? { name: req.name } : {}) })
    .where('id', '=', device.id)
    .execute();
  const channels = await gbChannelsOf(db, [device.id]);
  return deviceView({ ...device, unit_id: unit.id, name: req.name || device.name }, unit.name, channels.length);
}

/**
 * oamcenter/gbdevice/refresh: DeviceInfo and Catalog asked of the device again (app.gb.refresh),
 * then the stored device; 409 without a platform or offline, 504 unanswered.
 */
export async function refreshDevice(
  runtime: GbRuntime,
  db: Db,
  user: AuthUser,
  req: GbDeviceRefreshRequest,
): Promise<GbDevice> {
  const device = await db.selectFrom('gb_devices').selectAll().where('id', '=', req.id).executeTakeFirst();
  if (!device) throw new AppError(404, 'errors.gb.notFound');
  assertInScope(await unitScope(db, user), device.unit_id);
  const platform = runtime.platform;
  if (!platform) throw Errors.conflict('errors.gb.notRunning');
  if (!platform.device(device.gbid)) throw Errors.conflict('errors.gb.offline');
  try {
    await runtime.refresh(device.gbid);
  } catch (err) {
    requestFailed(err);
  }
  const fresh = await db.selectFrom('gb_devices').selectAll().where('id', '=', device.id).executeTakeFirstOrThrow();
  const unit = await db.selectFrom('units').select('name').where('id', '=', fresh.unit_id).executeTakeFirst();
  const channels = await gbChannelsOf(db, [fresh.id]);
  return deviceView(fresh, unit?.name ?? '', channels.length);
}
