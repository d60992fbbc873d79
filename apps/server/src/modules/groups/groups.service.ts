import { randomInt } from 'node:crypto';
import {
  GROUP_EXTERNAL_PREFIX,
  GROUP_TEMP_TTL_H,
  ResultCode,
  type GroupAddAnswer,
  type GroupAddRequest,
  type GroupEditRequest,
  type GroupFromDevicesAnswer,
  type GroupFromDevicesRequest,
  type GroupListRequest,
  type TalkGroup,
} from '@bwc/protocol';
import { now, type Db } from '../../db/connection';
import type { ServerDeps } from '../../deps';
import './groups.events';
import type { AuthUser } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { assertInScope, unitScope, type UnitScope } from '../../http/scope';
import * as repo from './groups.repository';
import type { DeviceBrief } from './groups.repository';
import type { TalkGroupRow } from './groups.tables';

const notFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.group.notFound');
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `<prefix><YYYYMMDDHHmmss><one random digit>` in the server's local time (spec part 2 section 9). */
export function temporaryGroupName(prefix: string, at = new Date(), digit = randomInt(10)): string {
  const stamp = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `${prefix}${stamp}${digit}`;
}

const expiryFromNow = () => new Date(Date.now() + GROUP_TEMP_TTL_H * 3600_000).toISOString();

/** What the group service uses: the database, and the bus its changes go on (`group.changed`). */
export type GroupDeps = Pick<ServerDeps, 'db' | 'bus'>;

/** Delete temporary groups past their life (each told on the bus); answers how many. */
export async function sweepExpired({ db, bus }: GroupDeps): Promise<number> {
  const gone = await repo.deleteExpiredGroups(db);
  for (const g of gone)
    bus.emit('group.changed', { kind: 'deleted', tgid: g.id, unit_id: g.unit_id, members: g.members });
  return gone.length;
}

async function unitOfCode(db: Db, scope: UnitScope, bh: string): Promise<{ id: number; bh: string }> {
  const unit = await repo.findUnitByCode(db, bh);
  if (!unit) throw Errors.notFound('unit');
  assertInScope(scope, unit.id);
  return unit;
}

type Brief = DeviceBrief;

async function devicesOfIds(db: Db, scope: UnitScope, ids: number[], field: string): Promise<Brief[]> {
  const unique = [...new Set(ids)];
  const rows = await repo.devicesByIds(db, unique);
  const missing = unique.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length) throw Errors.field(field, 'errors.group.unknownDevices', { ids: missing.join(', ') });
  assertInScope(scope, ...rows.map((r) => r.unit_id));
  return unique.map((id) => rows.find((r) => r.id === id)!);
}

async function createGroup(
  db: Db,
  user: AuthUser,
  g: { name: string; preconfig: number; unitId: number; remark: string; deviceIds: number[] },
): Promise<{ id: number; expires: string | null }> {
  const expires = g.preconfig === 1 ? null : expiryFromNow();
  const id = await repo.insertGroup(
    db,
    { name: g.name, preconfig: g.preconfig, unit_id: g.unitId, remark: g.remark, created_by: user.id, expires },
    g.deviceIds,
  );
  return { id, expires };
}

/** Spec "create group": members by cluster number (jq_hostcode). */
export async function addGroup(
  deps: GroupDeps,
  user: AuthUser,
  input: GroupAddRequest,
  tempPrefix: string,
): Promise<GroupAddAnswer> {
  const { db, bus } = deps;
  await sweepExpired(deps);
  const scope = await unitScope(db, user);
  const unit = await unitOfCode(db, scope, input.bh);
  const codes = [...new Set(input.device)];
  const rows = await repo.devicesByClusterCodes(db, codes, scope.all ? null : scope.ids);
  const unknown = codes.filter((c) => !rows.some((r) => r.jq_hostcode === c));
  if (unknown.length) throw Errors.field('device', 'errors.group.unknownCodes', { codes: unknown.join(', ') });
  const name = input.channel_name || temporaryGroupName(tempPrefix);
  const preconfig = input.cate === '1' ? 1 : 0;
  const { id, expires } = await createGroup(db, user, {
    name,
    preconfig,
    unitId: unit.id,
    remark: input.remark,
    deviceIds: rows.map((r) => r.id),
  });
  bus.emit('group.changed', { kind: 'created', tgid: id, unit_id: unit.id });
  return { groupid: id, tg_name: name, expires };
}

/** A temporary group from devices selected on the map (spec part 2 section 5). */
export async function groupFromDevices(
  deps: GroupDeps,
  user: AuthUser,
  input: GroupFromDevicesRequest,
  tempPrefix: string,
): Promise<GroupFromDevicesAnswer> {
  const { db, bus } = deps;
  await sweepExpired(deps);
  const scope = await unitScope(db, user);
  const devices = await devicesOfIds(db, scope, input.ids, 'ids');
  const strip = ({ unit_id: _, ...d }: Brief) => d;
  const included = devices.filter((d) => d.jq_hostcode !== '');
  const missing = devices.filter((d) => d.jq_hostcode === '');
  if (!included.length)
    throw Errors.invalid('errors.group.noTrunkCode', {
      names: missing.map((d) => `${d.hostname} (${d.hostbody})`).join(', '),
    });
  if (missing.length && input.confirm !== 1)
    return { groupid: null, tg_name: '', expires: null, included: included.map(strip), missing: missing.map(strip) };
  const unitId = input.bh ? (await unitOfCode(db, scope, input.bh)).id : user.unit_id;
  const name = input.channel_name || temporaryGroupName(tempPrefix);
  const { id, expires } = await createGroup(db, user, {
    name,
    preconfig: 0,
    unitId,
    remark: input.remark,
    deviceIds: included.map((d) => d.id),
  });
  bus.emit('group.changed', { kind: 'created', tgid: id, unit_id: unitId });
  return { groupid: id, tg_name: name, expires, included: included.map(strip), missing: missing.map(strip) };
}

async function loadGroup(db: Db, scope: UnitScope, id: number): Promise<TalkGroupRow> {
  const row = await repo.findGroup(db, id);
  if (!row || (row.expires !== null && row.expires <= now())) throw notFound();
  assertInScope(scope, row.unit_id);
  return row;
}

/** Spec "edit group": members by hostid (Device.id). */
export async function editGroup(deps: GroupDeps, user: AuthUser, input: GroupEditRequest): Promise<void> {
  const { db, bus } = deps;
  await sweepExpired(deps);
  const scope = await unitScope(db, user);
  const row = await loadGroup(db, scope, input.channel_id);
  if (row.ext_tgid.startsWith(GROUP_EXTERNAL_PREFIX)) throw new AppError(ResultCode.FORBIDDEN, 'errors.group.external');
  const unit = await unitOfCode(db, scope, input.bh);
  const devices = await devicesOfIds(db, scope, input.device, 'device');
  const preconfig = input.cate === '1' ? 1 : 0;
  const expires = preconfig === 1 ? null : row.preconfig === 0 && row.expires ? row.expires : expiryFromNow();
  await repo.updateGroup(
    db,
    row.id,
    { name: input.channel_name, preconfig, unit_id: unit.id, remark: input.remark, expires },
    devices.map((d) => d.id),
  );
  bus.emit('group.changed', { kind: 'updated', tgid: row.id, unit_id: unit.id, previous_unit_id: row.unit_id });
}

export async function deleteGroup({ db, bus }: GroupDeps, user: AuthUser, id: number): Promise<void> {
  const scope = await unitScope(db, user);
  const row = await loadGroup(db, scope, id);
  if (row.ext_tgid.startsWith(GROUP_EXTERNAL_PREFIX)) throw new AppError(ResultCode.FORBIDDEN, 'errors.group.external');
  const members = await repo.memberDeviceIds(db, id);
  await repo.deleteGroupRow(db, id);
  bus.emit('group.changed', { kind: 'deleted', tgid: id, unit_id: row.unit_id, members });
}

async function present(db: Db, rows: TalkGroupRow[], onlineOnly: boolean): Promise<TalkGroup[]> {
  if (!rows.length) return [];
  const members = await repo.membersOf(
    db,
    rows.map((r) => r.id),
  );
  const units = await repo.unitCodes(db, [...new Set(rows.map((r) => r.unit_id))]);
  return rows.map((r) => {
    const own = members.filter((m) => m.group_id === r.id);
    const shown = onlineOnly ? own.filter((m) => m.lineon === 1) : own;
    return {
      tgid: r.id,
      ext_tgid: r.ext_tgid,
      tg_name: r.name,
      preconfig: r.preconfig,
      uids: own.map((m) => m.id),
      treecate: '1' as const,
      lineonNum: own.filter((m) => m.lineon === 1).length,
      total: own.length,
      speak: false,
      hear: false,
      unit_id: r.unit_id,
      bh: units.find((u) => u.id === r.unit_id)?.bh ?? '',
      remark: r.remark,
      expires: r.expires,
      created: r.created,
      children: shown.map((m) => ({
        uid: m.id,
        ext_id: m.jq_hostcode,
        display_name: m.hostcode ? `${m.hostname}(${m.hostcode})` : m.hostname,
        hostbody: m.hostbody,
        hostcode: m.hostcode,
        jq_hostcode: m.jq_hostcode,
        lineon: m.lineon,
        attachg: 0,
        speaking: 0,
        treecate: '0' as const,
      })),
    };
  });
}

export async function getGroup(deps: GroupDeps, user: AuthUser, id: number): Promise<TalkGroup> {
  const { db } = deps;
  await sweepExpired(deps);
  const row = await loadGroup(db, await unitScope(db, user), id);
  return (await present(db, [row], false))[0]!;
}

/** Groups of the caller's scope: fixed ones first, then temporary ones, newest first. */
export async function listGroups(deps: GroupDeps, user: AuthUser, q: GroupListRequest): Promise<TalkGroup[]> {
  const { db } = deps;
  await sweepExpired(deps);
  const scope = await unitScope(db, user);
  let rows = await repo.listGroupRows(db, scope.all ? null : scope.ids);
  if (q.keyword) rows = rows.filter((r) => r.name.toLowerCase().includes(q.keyword!.toLowerCase()));
  return present(db, rows, q.online === 1);
}
