import { UNIT_CODE_LENGTH, unitCodePrefix, type Unit } from '@bwc/protocol';

/** A unit with its sub-units, as the UnitAdmin table and the unit pickers show it. */
export interface UnitRow extends Unit {
  /** sub-units in the caller's view; absent for a leaf (so that the table shows no expander) */
  subunits?: UnitRow[];
  /** depth below the view's roots, 0 for a root */
  depth: number;
}

/**
 * The flat, ordered list of `unit/get` as a tree: a unit whose parent is not in the list is a root
 * of the caller's view (a unit administrator's own unit). The server's order is kept among siblings.
 */
export function buildUnitTree(units: readonly Unit[]): UnitRow[] {
  const byId = new Map<number, UnitRow>();
  for (const unit of units) byId.set(unit.id, { ...unit, depth: 0 });
  const roots: UnitRow[] = [];
  for (const unit of units) {
    const row = byId.get(unit.id)!;
    const parent = unit.pid === unit.id ? undefined : byId.get(unit.pid);
    if (parent) (parent.subunits ??= []).push(row);
    else roots.push(row);
  }
  const setDepth = (rows: UnitRow[], depth: number) => {
    for (const row of rows) {
      row.depth = depth;
      if (row.subunits) setDepth(row.subunits, depth + 1);
    }
  };
  setDepth(roots, 0);
  return roots;
}

/** Ids of a unit and every unit below it in the tree. */
export function subtreeIds(row: UnitRow): Set<number> {
  const out = new Set<number>();
  const visit = (r: UnitRow) => {
    out.add(r.id);
    r.subunits?.forEach(visit);
  };
  visit(row);
  return out;
}

/** Every row of the tree, parents first. */
export function flattenUnitTree(rows: readonly UnitRow[]): UnitRow[] {
  const out: UnitRow[] = [];
  const visit = (r: UnitRow) => {
    out.push(r);
    r.subunits?.forEach(visit);
  };
  rows.forEach(visit);
  return out;
}

/**
 * A free code for a new child of `parentBh` following the code rule (unitCodeFitsParent): the
 * parent's significant prefix plus the first unused two-digit level 01..99, padded to 12 digits.
 * Null when the parent has no room left (all 99 taken or the prefix already 12 digits) or when
 * there is no parent (a root's code is free text).
 */
export function suggestChildCode(parentBh: string | null | undefined, taken: Iterable<string>): string | null {
  if (!parentBh) return null;
  const prefix = unitCodePrefix(parentBh);
  if (prefix.length + 2 > UNIT_CODE_LENGTH) return null;
  const used = new Set(taken);
  for (let level = 1; level <= 99; level++) {
    const code = (prefix + String(level).padStart(2, '0')).padEnd(UNIT_CODE_LENGTH, '0');
    if (!used.has(code)) return code;
  }
  return null;
}
