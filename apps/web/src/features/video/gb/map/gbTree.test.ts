import type { GbPoint, GbPointUnit } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { gbDeviceTree, matching, unitKeys, unitPathOf, type GbUnitEntry } from './gbTree';

const point = (devgbid: string, unit_id: number, over: Partial<GbPoint> = {}): GbPoint => ({
  devgbid,
  name: `cam ${devgbid.slice(-2)}`,
  unit_id,
  lineon: 1,
  lng: 114.05,
  lat: 22.54,
  position_time: '2026-11-27 10:00:00',
  channels: [],
  ...over,
});

// city bureau 1 -> branches 2 and 3 -> station 4 under 2
const UNITS: GbPointUnit[] = [
  { id: 1, pid: 0, name: 'City' },
  { id: 2, pid: 1, name: 'Branch A' },
  { id: 4, pid: 2, name: 'Station A1' },
  { id: 3, pid: 1, name: 'Branch B' },
];
const POINTS = [
  point('34020000001320000001', 4, { name: 'Gate', lineon: 0 }),
  point('34020000001320000002', 4, { name: 'Yard' }),
  point('34020000001320000003', 2, { name: 'Hall' }),
  point('34020000001320000004', 3, { name: 'Bridge', lineon: 0 }),
];

/** the tree as names, counts and devices, to compare whole */
function outline(units: GbUnitEntry[]): unknown[] {
  return units.map((u) => ({
    [`${u.unit.name} ${u.online}/${u.total}`]: [...outline(u.units), ...u.devices.map((d) => d.name)],
  }));
}

describe('gbDeviceTree', () => {
  it('nests the units by parent, sub-units before the unit’s own devices (online first), online counts from below', () => {
    const tree = gbDeviceTree(UNITS, POINTS);
    expect(outline(tree.units)).toEqual([
      {
        'City 2/4': [
          { 'Branch A 2/3': [{ 'Station A1 1/2': ['Yard', 'Gate'] }, 'Hall'] },
          { 'Branch B 0/1': ['Bridge'] },
        ],
      },
    ]);
    expect(tree.loose).toEqual([]);
    expect(unitKeys(tree.units)).toEqual(['unit:1', 'unit:2', 'unit:4', 'unit:3']);
  });

  it('keeps only the units that hold a shown device; the counts stay those of all devices', () => {
    const tree = gbDeviceTree(UNITS, POINTS, matching('gate'));
    expect(outline(tree.units)).toEqual([{ 'City 2/4': [{ 'Branch A 2/3': [{ 'Station A1 1/2': ['Gate'] }] }] }]);
    // by part of the GB id
    expect(outline(gbDeviceTree(UNITS, POINTS, matching(' 0004 ')).units)).toEqual([
      { 'City 2/4': [{ 'Branch B 0/1': ['Bridge'] }] },
    ]);
    expect(gbDeviceTree(UNITS, POINTS, matching('nothing like it'))).toEqual({ units: [], loose: [] });
  });

  it('shows a device whose unit the answer lacks at the top, and a unit whose parent it lacks as a top unit', () => {
    const moved = point('34020000001320000009', 99, { name: 'Moved' });
    const tree = gbDeviceTree(UNITS.slice(1), [...POINTS, moved]);
    expect(tree.loose.map((p) => p.name)).toEqual(['Moved']);
    expect(tree.units.map((u) => u.unit.name)).toEqual(['Branch A', 'Branch B']);
  });

  it('names the units above a device from the top', () => {
    expect(unitPathOf(UNITS, 4)).toEqual(['unit:1', 'unit:2', 'unit:4']);
    expect(unitPathOf(UNITS, 99)).toEqual([]);
  });
});
