import { TYPECATE_DEFAULT, type Device, type DevicePoint, type DeviceStatus, type RecorderModel } from '@bwc/protocol';
import type { DeviceRow } from '../../db/types';

/** typecate as stored (JSON text); a damaged value reads as the default. */
export function parseTypecate(text: string): number[] {
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value) && value.length === 4 && value.every((n) => Number.isInteger(n))) return value as number[];
  } catch {
    // fall through
  }
  return [...TYPECATE_DEFAULT];
}

const num = (v: number | null): number | null => (v === null || v === undefined ? null : Number(v));

export interface DeviceJoined extends DeviceRow {
  unitname: string | null;
  dwbh: string | null;
  model_name: string | null;
  owner_name: string | null;
}

export function presentDevice(row: DeviceJoined): Device {
  return {
    id: row.id,
    did: row.hostbody,
    hostbody: row.hostbody,
    imei: row.imei,
    hostcode: row.hostcode,
    hostid: row.id,
    hostname: row.hostname,
    lineon: row.lineon,
    remote_kill: row.remote_kill,
    typecate: parseTypecate(row.typecate),
    lat: num(row.lat),
    lng: num(row.lng),
    jq_hostcode: row.jq_hostcode,
    unit_id: row.unit_id,
    unitname: row.unitname ?? '',
    dwbh: row.dwbh ?? '',
    model_id: row.model_id,
    model_name: row.model_name ?? '',
    owner_id: row.owner_id,
    owner_name: row.owner_name ?? '',
    remark: row.remark,
    speed: num(row.speed),
    course: num(row.course),
    battery: num(row.battery),
    gps_time: row.gps_time,
    last_seen: row.last_seen,
    created: row.created,
    updated: row.updated,
  };
}

export type PointRow = Pick<
  DeviceRow,
  | 'id'
  | 'hostbody'
  | 'imei'
  | 'hostname'
  | 'hostcode'
  | 'jq_hostcode'
  | 'unit_id'
  | 'lineon'
  | 'remote_kill'
  | 'typecate'
  | 'lat'
  | 'lng'
  | 'speed'
  | 'course'
  | 'battery'
  | 'gps_time'
>;

/** A device on the map; `sos`: it is in the SOS state for the caller. */
export function presentPoint(row: PointRow, sos = false): DevicePoint {
  return {
    id: row.id,
    did: row.hostbody,
    hostbody: row.hostbody,
    imei: row.imei,
    hostname: row.hostname,
    hostcode: row.hostcode,
    jq_hostcode: row.jq_hostcode,
    unit_id: row.unit_id,
    lineon: row.lineon,
    remote_kill: row.remote_kill,
    typecate: parseTypecate(row.typecate),
    lat: num(row.lat),
    lng: num(row.lng),
    speed: num(row.speed),
    course: num(row.course),
    battery: num(row.battery),
    gps_time: row.gps_time,
    sos: sos ? 1 : 0,
  };
}

export function presentStatus(row: DeviceRow, pending: number): DeviceStatus {
  return {
    id: row.id,
    imei: row.imei,
    hostbody: row.hostbody,
    lineon: row.lineon,
    remote_kill: row.remote_kill,
    typecate: parseTypecate(row.typecate),
    battery: num(row.battery),
    last_seen: row.last_seen,
    gps_time: row.gps_time,
    pending_commands: pending,
  };
}

export function presentModel(
  row: { id: number; name: string; vendor: string; remark: string; created: string; updated: string },
  devices: number,
): RecorderModel {
  return {
    id: row.id,
    name: row.name,
    vendor: row.vendor,
    remark: row.remark,
    devices,
    created: row.created,
    updated: row.updated,
  };
}
