import {
  FenceShape,
  ResultCode,
  shapeBounds,
  type Fence,
  type FenceAddRequest,
  type FenceListQuery,
  type FenceUpdateRequest,
  type Zone,
  type ZoneAddRequest,
  type ZoneListQuery,
  type ZoneUpdateRequest,
} from '@bwc/protocol';
import { now, type Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { assertInScope, unitScope, unitSubtree, type UnitScope } from '../../http/scope';
import * as repo from './fences.repository';
import type { GeoFenceJoined, GeoKind } from './fences.repository';
import type { FenceEngine } from './fence-engine';

/** What the fence writes use: the database and the crossing engine, reloaded after each change. */
export interface FenceWriteDeps {
  db: Db;
  engine: FenceEngine;
}

const notFound = (kind: GeoKind) =>
  new AppError(ResultCode.NOT_FOUND, kind === 'fence' ? 'errors.fence.notFound' : 'errors.zone.notFound');

function parseIds(json: string): number[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : [];
  } catch {
    return [];
  }
}

export function parseShape(json: string): FenceShape | null {
  try {
    const r = FenceShape.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

type TargetNames = { devices: Map<number, string>; units: Map<number, string> };

/** Names of the devices and units the fences name (two queries for any number of fences). */
async function targetNames(db: Db, rows: GeoFenceJoined[]): Promise<TargetNames> {
  const deviceIds = [...new Set(rows.flatMap((r) => parseIds(r.device_ids)))];
  const unitIds = [...new Set(rows.flatMap((r) => parseIds(r.unit_ids)))];
  const [devices, units] = await Promise.all([repo.devicesByIds(db, deviceIds), repo.unitsByIds(db, unitIds)]);
  return {
    devices: new Map(devices.map((d) => [d.id, d.hostname])),
    units: new Map(units.map((u) => [u.id, u.name])),
  };
}

async function fencesOf(db: Db, rows: GeoFenceJoined[]): Promise<Fence[]> {
  const names = await targetNames(db, rows);
  return rows.map((row) => toFence(row, names));
}

function toFence(row: GeoFenceJoined, names: TargetNames): Fence {
  const device_ids = parseIds(row.device_ids);
  const unit_ids = parseIds(row.unit_ids);
  const named = (type: 'device' | 'unit', ids: number[], map: Map<number, string>) =>
    ids.flatMap((id) => (map.has(id) ? [{ type, id, name: map.get(id)! }] : []));
  return {
    id: row.id,
    name: row.name,
    unit_id: row.unit_id,
    unitname: row.unitname ?? '',
    shape: parseShape(row.shape)!,
    rule: row.rule as Fence['rule'],
    time_start: row.time_start,
    time_end: row.time_end,
    device_ids,
    unit_ids,
    targets: [...named('device', device_ids, names.devices), ...named('unit', unit_ids, names.units)],
    enabled: row.enabled,
    remark: row.remark,
    created: row.created,
    updated: row.updated,
  };
}

function toZone(row: GeoFenceJoined): Zone {
  const shape = parseShape(row.shape)!;
  const [w, s, e, n] = shapeBounds(shape);
  return {
    id: row.id,
    name: row.name,
    unit_id: row.unit_id,
    unitname: row.unitname ?? '',
    shape,
    center: shape.type === 'circle' ? { ...shape.center } : { lng: (w + e) / 2, lat: (s + n) / 2 },
    remark: row.remark,
    created: row.created,
    updated: row.updated,
  };
}

async function scopedUnitFilter(db: Db, scope: UnitScope, unitId: number | undefined): Promise<number[] | null> {
  if (unitId === undefined) return scope.all ? null : scope.ids;
  assertInScope(scope, unitId);
  return unitSubtree(db, unitId);
}

async function loadScoped(db: Db, kind: GeoKind, id: number, scope: UnitScope): Promise<GeoFenceJoined> {
  const row = await repo.findGeo(db, kind, id);
  if (!row) throw notFound(kind);
  assertInScope(scope, row.unit_id);
  return row;
}

/** Owning unit (default: the caller's) in scope; named devices and units exist and are in scope. */
async function checkTargets(
  db: Db,
  scope: UnitScope,
  input: { device_ids: number[]; unit_ids: number[] },
): Promise<void> {
  const deviceIds = [...new Set(input.device_ids)];
  const devices = await repo.devicesByIds(db, deviceIds);
  const missing = deviceIds.filter((id) => !devices.some((d) => d.id === id));
  if (missing.length) throw Errors.field('device_ids', 'errors.fence.unknownDevices', { ids: missing.join(', ') });
  assertInScope(scope, ...devices.map((d) => d.unit_id));
  const unitIds = [...new Set(input.unit_ids)];
  const units = await repo.unitsByIds(db, unitIds);
  const missingUnits = unitIds.filter((id) => !units.some((u) => u.id === id));
  if (missingUnits.length)
    throw Errors.field('unit_ids', 'errors.fence.unknownUnits', { ids: missingUnits.join(', ') });
  assertInScope(scope, ...unitIds);
}

async function ownerUnit(db: Db, scope: UnitScope, user: AuthUser, unitId: number | undefined): Promise<number> {
  const id = unitId ?? user.unit_id;
  const exists = await repo.unitsByIds(db, [id]);
  if (!exists.length) throw Errors.field('unit_id', 'errors.fence.unknownUnits', { ids: String(id) });
  assertInScope(scope, id);
  return id;
}

// ---- fences ----------------------------------------------------------------------------------

export async function listFences(db: Db, user: AuthUser, q: FenceListQuery): Promise<Fence[]> {
  const scope = await unitScope(db, user);
  const unitIds = await scopedUnitFilter(db, scope, q.unit_id);
  return fencesOf(db, await repo.listGeo(db, 'fence', { unitIds, keyword: q.keyword, enabled: q.enabled }));
}

export async function addFence(deps: FenceWriteDeps, user: AuthUser, input: FenceAddRequest): Promise<Fence> {
  const db = deps.db;
  const scope = await unitScope(db, user);
  const unitId = await ownerUnit(db, scope, user, input.unit_id);
  await checkTargets(db, scope, input);
  const ts = now();
  const id = await repo.insertGeo(db, {
    kind: 'fence',
    name: input.name,
    unit_id: unitId,
    shape: JSON.stringify(input.shape),
    rule: input.rule,
    time_start: input.time_start,
    time_end: input.time_end,
    device_ids: JSON.stringify([...new Set(input.device_ids)]),
    unit_ids: JSON.stringify([...new Set(input.unit_ids)]),
    enabled: input.enabled,
    remark: input.remark,
    created: ts,
    updated: ts,
  });
  await deps.engine.changed(id);
  return (await fencesOf(db, [(await repo.findGeo(db, 'fence', id))!]))[0]!;
}

export async function updateFence(deps: FenceWriteDeps, user: AuthUser, input: FenceUpdateRequest): Promise<Fence> {
  const db = deps.db;
  const scope = await unitScope(db, user);
  await loadScoped(db, 'fence', input.id, scope);
  const unitId = await ownerUnit(db, scope, user, input.unit_id);
  await checkTargets(db, scope, input);
  await db.transaction().execute(async (trx) => {
    await repo.updateGeo(trx, input.id, {
      name: input.name,
      unit_id: unitId,
      shape: JSON.stringify(input.shape),
      rule: input.rule,
      time_start: input.time_start,
      time_end: input.time_end,
      device_ids: JSON.stringify([...new Set(input.device_ids)]),
      unit_ids: JSON.stringify([...new Set(input.unit_ids)]),
      enabled: input.enabled,
      remark: input.remark,
      updated: now(),
    });
    // a changed shape or target list makes the old inside/outside states meaningless
    await repo.clearFenceStates(trx, input.id);
  });
  await deps.engine.changed(input.id);
  return (await fencesOf(db, [(await repo.findGeo(db, 'fence', input.id))!]))[0]!;
}

export async function deleteGeo(deps: FenceWriteDeps, user: AuthUser, kind: GeoKind, id: number): Promise<void> {
  const db = deps.db;
  const scope = await unitScope(db, user);
  await loadScoped(db, kind, id, scope);
  await db.transaction().execute(async (trx) => repo.deleteGeo(trx, id));
  if (kind === 'fence') await deps.engine.changed(id);
}

// ---- zones -----------------------------------------------------------------------------------

export async function listZones(db: Db, user: AuthUser, q: ZoneListQuery): Promise<Zone[]> {
  const scope = await unitScope(db, user);
  const unitIds = await scopedUnitFilter(db, scope, q.unit_id);
  return (await repo.listGeo(db, 'zone', { unitIds, keyword: q.keyword })).map(toZone);
}

export async function addZone(db: Db, user: AuthUser, input: ZoneAddRequest): Promise<Zone> {
  const scope = await unitScope(db, user);
  const unitId = await ownerUnit(db, scope, user, input.unit_id);
  const ts = now();
  const id = await repo.insertGeo(db, {
    kind: 'zone',
    name: input.name,
    unit_id: unitId,
    shape: JSON.stringify(input.shape),
    rule: 'both',
    time_start: '',
    time_end: '',
    device_ids: '[]',
    unit_ids: '[]',
    enabled: 1,
    remark: input.remark,
    created: ts,
    updated: ts,
  });
  return toZone((await repo.findGeo(db, 'zone', id))!);
}

export async function updateZone(db: Db, user: AuthUser, input: ZoneUpdateRequest): Promise<Zone> {
  const scope = await unitScope(db, user);
  await loadScoped(db, 'zone', input.id, scope);
  const unitId = await ownerUnit(db, scope, user, input.unit_id);
  await repo.updateGeo(db, input.id, {
    name: input.name,
    unit_id: unitId,
    shape: JSON.stringify(input.shape),
    remark: input.remark,
    updated: now(),
  });
  return toZone((await repo.findGeo(db, 'zone', input.id))!);
}
