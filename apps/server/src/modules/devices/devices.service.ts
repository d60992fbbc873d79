import type { LicenceService } from '../licence/licence.service';
import type { ServerDeps } from '../../deps';
import {
  ResultCode,
  TYPECATE_DEFAULT,
  type Device,
  type DeviceAddRequest,
  type DeviceListQuery,
  type DeviceUpdateRequest,
  type Page,
  type RecorderModel,
  type RecorderModelAddRequest,
  type RecorderModelUpdateRequest,
} from '@bwc/protocol';
import { now, type Db } from '../../db/connection';
import { onUniqueViolation } from '../../db/unique';
import { AppError, Errors } from '../../http/errors';
import { assertInScope, inScope, unitSubtree, type UnitScope } from '../../http/scope';
import { newSecret, sha256Hex } from './credentials';
import { presentDevice, presentModel } from './devices.presenter';
import * as repo from './devices.repository';

export const deviceNotFound = () =>
  new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.device' });
export const modelNotFound = () =>
  new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.deviceModel' });

/** Unit ids a filter may use: the scope, narrowed to a unit (and its sub-units) when asked. */
export async function scopedUnitIds(
  db: Db,
  scope: UnitScope,
  unitId?: number,
  includeSub = true,
): Promise<number[] | null> {
  if (unitId === undefined) return scope.all ? null : scope.ids;
  assertInScope(scope, unitId);
  if (!includeSub) return [unitId];
  return unitSubtree(db, unitId);
}

export async function listDevices(db: Db, scope: UnitScope, q: DeviceListQuery): Promise<Page<Device>> {
  const unitIds = await scopedUnitIds(db, scope, q.unit_id, q.include_sub === 1);
  const { total, rows } = await repo.listDevices(
    db,
    { unitIds, keyword: q.keyword || undefined, modelId: q.model_id, lineon: q.lineon },
    q,
  );
  return { total, page: q.page, limit: q.limit, list: rows.map(presentDevice) };
}

/** A device the caller may see, or 404 / 403. */
export async function deviceInScope(db: Db, scope: UnitScope, id: number) {
  const row = await repo.findDevice(db, id);
  if (!row) throw deviceNotFound();
  assertInScope(scope, row.unit_id);
  return row;
}

/** Licensed device count (0 without a valid licence). Read it BEFORE a transaction (SQLite has one connection). */
/** What the devices module reads of the licence module: the licence's state and device count. */
export type LicenceGate = Pick<LicenceService, 'status'>;

export async function licensedDevices(licence: LicenceGate): Promise<number> {
  const status = await licence.status();
  return status.state === 'valid' ? status.payload.devices : 0;
}

async function assertLicenceRoom(limit: number, db: Db, adding: number): Promise<void> {
  const used = await repo.countDevices(db);
  if (used + adding > limit) throw Errors.conflict('errors.device.licenceLimit', { limit });
}

interface FieldsInput {
  hostbody: string;
  imei: string;
  unit_id: number;
  model_id?: number | null;
  owner_id?: number | null;
}

/** References of a device form: unit in scope, model exists, owner in scope; unique keys free. */
async function checkFields(db: Db, scope: UnitScope, input: FieldsInput, selfId?: number): Promise<void> {
  if (!(await repo.unitExists(db, input.unit_id))) throw Errors.notFound('unit');
  assertInScope(scope, input.unit_id);
  if (input.model_id != null && !(await repo.findModel(db, input.model_id))) throw modelNotFound();
  if (input.owner_id != null) {
    const ownerUnit = await repo.findUserUnit(db, input.owner_id);
    if (ownerUnit === undefined) throw Errors.notFound('user');
    if (!inScope(scope, ownerUnit)) throw Errors.invalid('errors.device.ownerOutOfScope');
  }
  const byBody = await repo.findDeviceByHostbody(db, input.hostbody);
  if (byBody && byBody.id !== selfId)
    throw Errors.conflict('errors.device.hostbodyTaken', { hostbody: input.hostbody });
  const byImei = await repo.findDeviceByImei(db, input.imei);
  if (byImei && byImei.id !== selfId) throw Errors.conflict('errors.device.imeiTaken', { imei: input.imei });
}

const uniqueConflict = (input: { hostbody: string }) => () =>
  Errors.conflict('errors.device.hostbodyTaken', { hostbody: input.hostbody });

export interface NewDeviceValues {
  hostbody: string;
  imei: string;
  hostname: string;
  hostcode: string;
  jq_hostcode: string;
  unit_id: number;
  model_id?: number | null;
  owner_id?: number | null;
  typecate?: number[];
  remark?: string;
}

/** Insert one device with a fresh secret (no checks). */
export async function insertNewDevice(db: Db, v: NewDeviceValues): Promise<{ id: number; secret: string }> {
  const secret = newSecret();
  const ts = now();
  const id = await repo.insertDevice(db, {
    hostbody: v.hostbody,
    imei: v.imei,
    hostname: v.hostname,
    hostcode: v.hostcode,
    jq_hostcode: v.jq_hostcode,
    unit_id: v.unit_id,
    model_id: v.model_id ?? null,
    owner_id: v.owner_id ?? null,
    remark: v.remark ?? '',
    typecate: JSON.stringify(v.typecate ?? TYPECATE_DEFAULT),
    lineon: 0,
    remote_kill: 0,
    secret_hash: sha256Hex(secret),
    token_hash: null,
    created: ts,
    updated: ts,
  });
  return { id, secret };
}

export async function addDevice(deps: ServerDeps, licence: LicenceGate, scope: UnitScope, input: DeviceAddRequest) {
  const limit = await licensedDevices(licence);
  const { id, secret } = await deps.db.transaction().execute(async (trx) => {
    await checkFields(trx, scope, input);
    await assertLicenceRoom(limit, trx, 1);
    return onUniqueViolation(() => insertNewDevice(trx, input), uniqueConflict(input));
  });
  deps.bus.emit('device.changed', { device_id: id, kind: 'created' });
  return { device: presentDevice((await repo.findDevice(deps.db, id))!), secret };
}

export async function updateDevice(deps: ServerDeps, scope: UnitScope, input: DeviceUpdateRequest): Promise<Device> {
  await deps.db.transaction().execute(async (trx) => {
    await deviceInScope(trx, scope, input.id);
    await checkFields(trx, scope, input, input.id);
    await onUniqueViolation(
      () =>
        repo.updateDevice(trx, input.id, {
          hostbody: input.hostbody,
          imei: input.imei,
          hostname: input.hostname,
          hostcode: input.hostcode,
          jq_hostcode: input.jq_hostcode,
          unit_id: input.unit_id,
          model_id: input.model_id ?? null,
          // left out: the owner stays (DeviceUpdateRequest); null: no owner
          ...(input.owner_id !== undefined ? { owner_id: input.owner_id } : {}),
          remark: input.remark,
          ...(input.typecate ? { typecate: JSON.stringify(input.typecate) } : {}),
          updated: now(),
        }),
      uniqueConflict(input),
    );
  });
  deps.bus.emit('device.changed', { device_id: input.id, kind: 'updated' });
  return presentDevice((await repo.findDevice(deps.db, input.id))!);
}

export async function deleteDevice(deps: ServerDeps, scope: UnitScope, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await deviceInScope(trx, scope, id);
    await repo.deleteDevice(trx, id);
  });
  deps.bus.emit('device.changed', { device_id: id, kind: 'deleted' });
}

/** A new secret (shown once); the device's token is revoked. */
export async function resetSecret(deps: ServerDeps, scope: UnitScope, id: number) {
  await deviceInScope(deps.db, scope, id);
  const secret = newSecret();
  await repo.updateDevice(deps.db, id, { secret_hash: sha256Hex(secret), token_hash: null, updated: now() });
  deps.bus.emit('device.changed', { device_id: id, kind: 'updated' });
  return { device: presentDevice((await repo.findDevice(deps.db, id))!), secret };
}

// ---- provisioning (device API) --------------------------------------------------------------

export interface ProvisionItem {
  hostbody: string;
  imei: string;
  hostname: string;
  hostcode: string;
  jq_hostcode: string;
  unit_bh?: string;
}

/**
 * Create the devices or, for a hostbody that exists, give it a new secret. Devices without a
 * unit code are spread over every unit in turn. One transaction: all or nothing.
 */
export async function provision(deps: ServerDeps, licence: LicenceGate, items: ProvisionItem[]) {
  const units = await repo.unitsByCode(deps.db);
  const byBh = new Map(units.map((u) => [u.bh, u.id]));
  const limit = await licensedDevices(licence);
  const out = await deps.db.transaction().execute(async (trx) => {
    const existing = new Map<string, { id: number; imei: string }>();
    for (const item of items) {
      const row = await repo.findDeviceByHostbody(trx, item.hostbody);
      if (row) existing.set(item.hostbody, { id: row.id, imei: row.imei });
    }
    await assertLicenceRoom(limit, trx, items.length - existing.size);
    const result: { id: number; hostbody: string; imei: string; secret: string; renewed: boolean }[] = [];
    let turn = 0;
    for (const item of items) {
      const old = existing.get(item.hostbody);
      if (old) {
        const secret = newSecret();
        await repo.updateDevice(trx, old.id, { secret_hash: sha256Hex(secret), token_hash: null, updated: now() });
        result.push({ id: old.id, hostbody: item.hostbody, imei: old.imei, secret, renewed: true });
        continue;
      }
      let unitId: number | undefined;
      if (item.unit_bh) {
        unitId = byBh.get(item.unit_bh);
        if (unitId === undefined) throw Errors.field('unit_bh', 'validation.unit.code');
      } else {
        unitId = units[turn++ % units.length]!.id;
      }
      const byImei = await repo.findDeviceByImei(trx, item.imei);
      if (byImei) throw Errors.conflict('errors.device.imeiTaken', { imei: item.imei });
      const { id, secret } = await onUniqueViolation(
        () => insertNewDevice(trx, { ...item, unit_id: unitId }),
        uniqueConflict(item),
      );
      result.push({ id, hostbody: item.hostbody, imei: item.imei, secret, renewed: false });
    }
    return result;
  });
  for (const d of out) deps.bus.emit('device.changed', { device_id: d.id, kind: d.renewed ? 'updated' : 'created' });
  return out.map(({ renewed: _renewed, ...device }) => device);
}

// ---- models -------------------------------------------------------------------------------

export async function listModels(db: Db, keyword?: string): Promise<RecorderModel[]> {
  const [rows, counts] = await Promise.all([repo.listModels(db, keyword || undefined), repo.modelDeviceCounts(db)]);
  return rows.map((r) => presentModel(r, counts.get(r.id) ?? 0));
}

const modelTaken = (name: string) => () => Errors.conflict('errors.device.modelTaken', { name });

export async function addModel(db: Db, input: RecorderModelAddRequest): Promise<number> {
  if (await repo.findModelByName(db, input.name)) throw modelTaken(input.name)();
  const ts = now();
  return onUniqueViolation(() => repo.insertModel(db, { ...input, created: ts, updated: ts }), modelTaken(input.name));
}

export async function updateModel(db: Db, input: RecorderModelUpdateRequest): Promise<void> {
  if (!(await repo.findModel(db, input.id))) throw modelNotFound();
  const other = await repo.findModelByName(db, input.name);
  if (other && other.id !== input.id) throw modelTaken(input.name)();
  await onUniqueViolation(
    () =>
      repo.updateModel(db, input.id, { name: input.name, vendor: input.vendor, remark: input.remark, updated: now() }),
    modelTaken(input.name),
  );
}

export async function deleteModel(db: Db, id: number): Promise<void> {
  if (!(await repo.findModel(db, id))) throw modelNotFound();
  const n = (await repo.modelDeviceCounts(db)).get(id) ?? 0;
  if (n) throw Errors.conflict('errors.device.modelInUse', { n });
  await repo.deleteModel(db, id);
}
