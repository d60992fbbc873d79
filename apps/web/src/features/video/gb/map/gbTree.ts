import type { GbPoint, GbPointUnit } from '@bwc/protocol';
import { sortedPoints } from './gbPoints';

/** A unit of the GB map's device tree: its sub-units, then its own devices (online first). */
export interface GbUnitEntry {
  key: string;
  unit: GbPointUnit;
  /** devices of the unit and below, all of them (a search does not change the counts) */
  online: number;
  total: number;
  units: GbUnitEntry[];
  devices: GbPoint[];
}

export interface GbDeviceTree {
  units: GbUnitEntry[];
  /** devices whose unit is not in the answer's units (moved since it was read): at the top */
  loose: GbPoint[];
}

export const unitKey = (id: number): string => `unit:${id}`;

/**
 * The tree of the answer's units with the devices `shown` keeps: a unit stays while a device is
 * shown in it or below. Counts are of all the unit's devices and below.
 */
export function gbDeviceTree(
  units: readonly GbPointUnit[],
  points: readonly GbPoint[],
  shown: (p: GbPoint) => boolean = () => true,
): GbDeviceTree {
  const byUnit = new Map<number, GbPoint[]>();
  const loose: GbPoint[] = [];
  const known = new Set(units.map((u) => u.id));
  for (const p of sortedPoints(points)) {
    if (known.has(p.unit_id)) byUnit.set(p.unit_id, [...(byUnit.get(p.unit_id) ?? []), p]);
    else if (shown(p)) loose.push(p);
  }
  const children = new Map<number, GbPointUnit[]>();
  for (const u of units) children.set(u.pid, [...(children.get(u.pid) ?? []), u]);

  const build = (unit: GbPointUnit, path: ReadonlySet<number>): GbUnitEntry => {
    // a cycle in the answer (it has none) would otherwise never end
    const below = (children.get(unit.id) ?? []).filter((u) => !path.has(u.id));
    const sub = below.map((u) => build(u, new Set(path).add(u.id)));
    const own = byUnit.get(unit.id) ?? [];
    return {
      key: unitKey(unit.id),
      unit,
      online: own.filter((p) => p.lineon === 1).length + sub.reduce((n, s) => n + s.online, 0),
      total: own.length + sub.reduce((n, s) => n + s.total, 0),
      units: sub,
      devices: own,
    };
  };
  const keep = (entry: GbUnitEntry): GbUnitEntry | null => {
    const sub = entry.units.map(keep).filter((e): e is GbUnitEntry => e !== null);
    const devices = entry.devices.filter(shown);
    return sub.length || devices.length ? { ...entry, units: sub, devices } : null;
  };
  const tops = units.filter((u) => u.pid === 0 || !known.has(u.pid));
  return {
    units: tops.map((u) => keep(build(u, new Set([u.id])))).filter((e): e is GbUnitEntry => e !== null),
    loose,
  };
}

/** Every unit's key in the tree (a search expands them all). */
export function unitKeys(units: readonly GbUnitEntry[]): string[] {
  return units.flatMap((u) => [u.key, ...unitKeys(u.units)]);
}

/** The keys of the units above a device, from the top: to show it after a marker click. */
export function unitPathOf(units: readonly GbPointUnit[], unitId: number): string[] {
  const byId = new Map(units.map((u) => [u.id, u]));
  const path: string[] = [];
  for (let u = byId.get(unitId); u && path.length < units.length; u = byId.get(u.pid)) path.unshift(unitKey(u.id));
  return path;
}

/** The devices whose name or GB id contains `search` (any case); all for an empty search. */
export function matching(search: string): (p: GbPoint) => boolean {
  const q = search.trim().toLowerCase();
  return (p) => !q || p.name.toLowerCase().includes(q) || p.devgbid.includes(q);
}
