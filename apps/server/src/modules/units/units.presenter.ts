import type { TreeNode, Unit, UnitInfo } from '@bwc/protocol';
import type { UnitRow } from '../../db/types';
import type { DeviceLeaf } from './units.repository';

export const UNIT_TREECATE = 'unit';
export const DEVICE_TREECATE = 'device';

export function presentUnit(row: UnitRow, counts: { children: number; users: number; devices: number }): Unit {
  return { id: row.id, pid: row.pid, bh: row.bh, name: row.name, sort: row.sort, created: row.created, ...counts };
}

export function presentUnitInfo(row: UnitRow, parentName: string): UnitInfo {
  return { id: row.id, pid: row.pid, bh: row.bh, dname: row.name, parent_name: parentName, sort: row.sort };
}

/** A unit node of the unit tree selector; `lion_count` (online devices below) only on device trees. */
export function presentUnitNode(row: UnitRow, hasChildren: boolean, onlineBelow?: number): TreeNode {
  return {
    id: row.id,
    unitname: row.name,
    bh: row.bh,
    sub: hasChildren ? 1 : 0,
    last: hasChildren ? 0 : 1,
    treecate: UNIT_TREECATE,
    ...(onlineBelow === undefined ? {} : { lion_count: onlineBelow }),
  };
}

export function presentDeviceNode(device: DeviceLeaf): TreeNode {
  return {
    id: device.id,
    unitname: device.hostname,
    hostname: device.hostname,
    display_name: device.hostname,
    sub: 0,
    last: 1,
    treecate: DEVICE_TREECATE,
    lineon: device.lineon,
    did: device.did,
    jq_hostcode: device.jq_hostcode,
  };
}
