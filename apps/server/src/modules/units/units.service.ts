import {
  rebaseUnitCode,
  ResultCode,
  unitCodeFitsParent,
  unitCodePrefix,
  type TreeNode,
  type Unit,
  type UnitAddRequest,
  type UnitInfo,
  type UnitMoveRequest,
  type UnitTreeRequest,
  type UnitUpdateRequest,
} from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { onUniqueViolation } from '../../db/unique';
import type { UnitRow } from '../../db/types';
import type { AuthUser } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { assertInScope, inScope, type UnitScope } from '../../http/scope';
import { presentDeviceNode, presentUnit, presentUnitInfo, presentUnitNode } from './units.presenter';
import * as repo from './units.repository';

/** Most nodes one unit search answers. */
const UNIT_SEARCH_MAX = 200;

/** The unit forest in memory: parents, children, subtrees. */
export class UnitIndex {
  readonly byId: Map<number, UnitRow>;
  private readonly kids = new Map<number, UnitRow[]>();

  constructor(readonly units: UnitRow[]) {
    this.byId = new Map(units.map((u) => [u.id, u]));
    for (const u of units) this.kids.set(u.pid, [...(this.kids.get(u.pid) ?? []), u]);
  }

  children(id: number): UnitRow[] {
    return this.kids.get(id) ?? [];
  }

  /** The unit and all its descendants. */
  subtree(id: number): UnitRow[] {
    const out: UnitRow[] = [];
    const stack = this.byId.has(id) ? [this.byId.get(id)!] : [];
    while (stack.length) {
      const u = stack.pop()!;
      out.push(u);
      stack.push(...this.children(u.id));
    }
    return out;
  }

  /** Ancestors from the parent up to the root. */
  ancestors(id: number): UnitRow[] {
    const out: UnitRow[] = [];
    for (
      let p = this.byId.get(id)?.pid ?? 0;
      p && this.byId.has(p) && out.length < this.units.length;
      p = this.byId.get(p)!.pid
    )
      out.push(this.byId.get(p)!);
    return out;
  }

  /** Roots of what the scope sees: the units whose parent is outside it. */
  scopeRoots(scope: UnitScope): UnitRow[] {
    return this.units.filter((u) => inScope(scope, u.id) && !(u.pid && inScope(scope, u.pid) && this.byId.has(u.pid)));
  }
}

export async function loadUnitIndex(db: Db): Promise<UnitIndex> {
  return new UnitIndex(await repo.allUnits(db));
}

async function requireUnit(db: Db, id: number): Promise<UnitRow> {
  const unit = await repo.findUnit(db, id);
  if (!unit) throw Errors.notFound('unit');
  return unit;
}

const rootAdminOnly = () => new AppError(ResultCode.FORBIDDEN, 'errors.unit.rootAdminOnly');

/** The parent a unit is created or moved under: 0 (root, administrators only) or a unit in scope. */
async function requireParent(db: Db, user: AuthUser, scope: UnitScope, pid: number): Promise<UnitRow | null> {
  if (pid === 0) {
    if (user.ifadmin !== 1) throw rootAdminOnly();
    return null;
  }
  const parent = await requireUnit(db, pid);
  assertInScope(scope, parent.id);
  return parent;
}

function assertCodeFits(parent: UnitRow | null, bh: string): void {
  if (!unitCodeFitsParent(parent?.bh, bh))
    throw Errors.invalid('errors.unit.codePrefix', { prefix: unitCodePrefix(parent!.bh) });
}

/**
 * Give a unit a new code and rebase its sub-units' codes onto it. Checks every new code against
 * the other units first; writes through temporary codes so that codes moving inside the subtree
 * never collide half-way. Call inside a transaction.
 */
async function recodeSubtree(trx: Db, index: UnitIndex, unit: UnitRow, bh: string): Promise<void> {
  if (bh === unit.bh) return;
  const subtree = index.subtree(unit.id);
  const next = new Map<number, string>([[unit.id, bh]]);
  for (const d of subtree) {
    if (d.id === unit.id) continue;
    const code = rebaseUnitCode(d.bh, unit.bh, bh);
    if (!code) throw Errors.conflict('errors.unit.codeRebase', { bh: d.bh });
    next.set(d.id, code);
  }
  const ids = [...next.keys()];
  const taken = await repo.codesTaken(trx, [...next.values()], ids);
  if (taken.length) throw Errors.conflict('errors.unit.codeTaken', { bh: taken[0]! });
  for (const id of ids) await repo.updateUnit(trx, id, { bh: `~${id}` });
  for (const [id, code] of next) await repo.updateUnit(trx, id, { bh: code });
}

/** rest/user/unit/get: the units in scope; with a keyword the matches and their ancestors in scope. */
export async function listUnits(db: Db, scope: UnitScope, keyword: string | undefined): Promise<Unit[]> {
  const index = await loadUnitIndex(db);
  let units = index.units.filter((u) => inScope(scope, u.id));
  if (keyword) {
    const needle = keyword.toLowerCase();
    const keep = new Set<number>();
    for (const u of units) {
      if (!u.name.toLowerCase().includes(needle) && !u.bh.includes(needle)) continue;
      keep.add(u.id);
      for (const a of index.ancestors(u.id)) if (inScope(scope, a.id)) keep.add(a.id);
    }
    units = units.filter((u) => keep.has(u.id));
  }
  const users = await repo.userCountsByUnit(db);
  const devices = await repo.deviceCountsByUnit(db);
  return units.map((u) =>
    presentUnit(u, {
      children: index.children(u.id).length,
      users: users.get(u.id) ?? 0,
      devices: devices.get(u.id)?.total ?? 0,
    }),
  );
}

export async function addUnit(db: Db, user: AuthUser, scope: UnitScope, body: UnitAddRequest): Promise<number> {
  const taken = () => Errors.conflict('errors.unit.codeTaken', { bh: body.bh });
  return onUniqueViolation(
    () =>
      db.transaction().execute(async (trx) => {
        const parent = await requireParent(trx, user, scope, body.pid);
        assertCodeFits(parent, body.bh);
        if ((await repo.codesTaken(trx, [body.bh])).length) throw taken();
        return repo.insertUnit(trx, { pid: body.pid, bh: body.bh, name: body.name, sort: body.sort });
      }),
    taken,
  );
}

export async function updateUnit(db: Db, scope: UnitScope, body: UnitUpdateRequest): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const unit = await requireUnit(trx, body.id);
    assertInScope(scope, unit.id);
    if (body.bh !== undefined && body.bh !== unit.bh) {
      const parent = unit.pid ? ((await repo.findUnit(trx, unit.pid)) ?? null) : null;
      assertCodeFits(parent, body.bh);
      await recodeSubtree(trx, await loadUnitIndex(trx), unit, body.bh);
    }
    await repo.updateUnit(trx, unit.id, { name: body.name, ...(body.sort === undefined ? {} : { sort: body.sort }) });
  });
}

export async function moveUnit(db: Db, user: AuthUser, scope: UnitScope, body: UnitMoveRequest): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const unit = await requireUnit(trx, body.id);
    assertInScope(scope, unit.id);
    const index = await loadUnitIndex(trx);
    if (body.pid !== 0 && index.subtree(unit.id).some((u) => u.id === body.pid))
      throw Errors.invalid('errors.unit.cycle');
    const parent = await requireParent(trx, user, scope, body.pid);
    const bh = body.bh ?? unit.bh;
    if (!unitCodeFitsParent(parent?.bh, bh)) {
      if (body.bh === undefined) throw Errors.invalid('errors.unit.codeNeeded');
      assertCodeFits(parent, bh);
    }
    await recodeSubtree(trx, index, unit, bh);
    await repo.updateUnit(trx, unit.id, { pid: body.pid });
  });
}

export async function deleteUnit(db: Db, scope: UnitScope, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const unit = await requireUnit(trx, id);
    assertInScope(scope, unit.id);
    const children = await repo.countChildUnits(trx, id);
    if (children) throw Errors.conflict('errors.unit.hasChildren', { n: children });
    const users = await repo.countUnitUsers(trx, id);
    if (users) throw Errors.conflict('errors.unit.hasUsers', { n: users });
    const devices = (await repo.deviceCountsByUnit(trx)).get(id)?.total ?? 0;
    if (devices) throw Errors.conflict('errors.unit.hasDevices', { n: devices });
    await repo.deleteUnit(trx, id);
  });
}

/** rest/user/unit/edit {bh}: the unit with that code, within scope. */
export async function unitByCode(db: Db, scope: UnitScope, bh: string): Promise<UnitInfo> {
  const unit = await repo.findUnitByCode(db, bh);
  if (!unit) throw Errors.notFound('unit');
  assertInScope(scope, unit.id);
  const parent = unit.pid ? await repo.findUnit(db, unit.pid) : undefined;
  return presentUnitInfo(unit, parent?.name ?? '');
}

/** The unit a tree request names (`id` or `bh`), null for the roots. */
async function treeParent(db: Db, scope: UnitScope, req: UnitTreeRequest): Promise<UnitRow | null> {
  let unit: UnitRow | undefined;
  if (req.id) unit = await repo.findUnit(db, req.id);
  else if (req.bh) unit = await repo.findUnitByCode(db, req.bh);
  else return null;
  if (!unit) throw Errors.notFound('unit');
  assertInScope(scope, unit.id);
  return unit;
}

/**
 * other/unitjson/gdlist and gdlist_dv: one level of the unit tree, lazily. Without id/bh the
 * roots of the caller's scope. The device variant counts online devices below each unit
 * (lion_count) and lists the unit's own devices as leaves after its sub-units.
 */
export async function unitTreeLevel(
  db: Db,
  scope: UnitScope,
  req: UnitTreeRequest,
  withDevices: boolean,
): Promise<TreeNode[]> {
  const parent = await treeParent(db, scope, req);
  const index = await loadUnitIndex(db);
  const units = parent ? index.children(parent.id) : index.scopeRoots(scope);
  if (!withDevices) return units.map((u) => presentUnitNode(u, index.children(u.id).length > 0));
  const counts = await repo.deviceCountsByUnit(db);
  const below = (id: number) => index.subtree(id).reduce((n, u) => n + (counts.get(u.id)?.online ?? 0), 0);
  const hasDevices = (id: number) => (counts.get(id)?.total ?? 0) > 0;
  const nodes = units.map((u) => presentUnitNode(u, index.children(u.id).length > 0 || hasDevices(u.id), below(u.id)));
  if (parent) nodes.push(...(await repo.unitDevices(db, parent.id)).map(presentDeviceNode));
  return nodes;
}

/** other/unitjson/dweilist: units in scope whose name or code contains `text` (or `key`), flat. */
export async function searchUnits(db: Db, scope: UnitScope, req: UnitTreeRequest): Promise<TreeNode[]> {
  const needle = (req.text || req.key || '').trim().toLowerCase();
  const index = await loadUnitIndex(db);
  return index.units
    .filter((u) => inScope(scope, u.id) && (!needle || u.name.toLowerCase().includes(needle) || u.bh.includes(needle)))
    .slice(0, UNIT_SEARCH_MAX)
    .map((u) => presentUnitNode(u, index.children(u.id).length > 0));
}
