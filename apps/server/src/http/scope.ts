import type { Db } from '../db/connection';
import type { AuthUser } from './auth';
import { Errors } from './errors';

/** Units a user may see: every unit for an administrator, else his unit and its descendants. */
export type UnitScope = { all: true } | { all: false; ids: number[] };

/** Collects a unit and its descendants into a set (the tree as read once by `loadUnitTree`). */
export type SubtreeOf = (rootId: number, into?: Set<number>) => Set<number>;

/** The unit tree, read once: answers the subtree of any unit. */
export async function loadUnitTree(db: Db): Promise<SubtreeOf> {
  const units = await db.selectFrom('units').select(['id', 'pid']).execute();
  const children = new Map<number, number[]>();
  for (const u of units) children.set(u.pid, [...(children.get(u.pid) ?? []), u.id]);
  return (rootId, into = new Set<number>()) => {
    const stack = [rootId];
    while (stack.length) {
      const id = stack.pop()!;
      if (into.has(id)) continue;
      into.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    return into;
  };
}

export async function unitSubtree(db: Db, rootId: number): Promise<number[]> {
  return [...(await loadUnitTree(db))(rootId)];
}

export async function unitScope(db: Db, user: Pick<AuthUser, 'ifadmin' | 'unit_id'>): Promise<UnitScope> {
  if (user.ifadmin === 1) return { all: true };
  return { all: false, ids: await unitSubtree(db, user.unit_id) };
}

export function inScope(scope: UnitScope, unitId: number): boolean {
  return scope.all || scope.ids.includes(unitId);
}

/** Throw 403 outOfScope unless every unit id is inside the scope (bulk id check). */
export function assertInScope(scope: UnitScope, ...unitIds: number[]): void {
  if (!unitIds.every((id) => inScope(scope, id))) throw Errors.outOfScope();
}
