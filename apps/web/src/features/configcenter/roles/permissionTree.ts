import { ACTIONS, type Action, type PermissionGrant, type PermissionNode, type UserAuth } from '@bwc/protocol';

/** The actions of one module as the distribution screen holds them. */
export type Grant = Record<Action, 0 | 1>;
/** menu id -> actions; modules without an entry hold nothing. */
export type GrantMap = ReadonlyMap<number, Grant>;
/** What the caller may distribute: menu id (as a string key) -> user_auth (`auth_get`'s `grantable`). */
export type Grantable = Record<string, UserAuth>;

/** A module of the permission tree as a table row (leaves without `subs`, so that no expander shows). */
export interface PermissionRow {
  id: number;
  bh: string;
  pid: number;
  key: string;
  path: string;
  subs?: PermissionRow[];
}

const NONE: Grant = { view: 0, edit: 0, add: 0 };

export function toRows(nodes: readonly PermissionNode[]): PermissionRow[] {
  return nodes.map(({ id, bh, pid, key, path, children }) => ({
    id,
    bh,
    pid,
    key,
    path,
    ...(children.length > 0 ? { subs: toRows(children) } : {}),
  }));
}

/** Every row, parents first (catalogue order). */
export function flattenRows(rows: readonly PermissionRow[]): PermissionRow[] {
  const out: PermissionRow[] = [];
  const visit = (row: PermissionRow) => {
    out.push(row);
    row.subs?.forEach(visit);
  };
  rows.forEach(visit);
  return out;
}

/** The role's current actions read from `auth_get`. */
export function grantsFromTree(nodes: readonly PermissionNode[]): GrantMap {
  const out = new Map<number, Grant>();
  const visit = (node: PermissionNode) => {
    if (node.view || node.edit || node.add) out.set(node.id, { view: node.view, edit: node.edit, add: node.add });
    node.children.forEach(visit);
  };
  nodes.forEach(visit);
  return out;
}

export function grantOf(map: GrantMap, id: number): Grant {
  return map.get(id) ?? NONE;
}

export function mayGrant(grantable: Grantable, id: number, action: Action): boolean {
  return grantable[String(id)]?.[action] === 1;
}

/**
 * One checkbox: edit or add bring view with them (a module cannot be changed without being seen);
 * taking view away takes edit and add too. Actions the caller may not distribute stay as they are.
 */
export function setAction(map: GrantMap, id: number, action: Action, on: boolean, grantable: Grantable): GrantMap {
  if (!mayGrant(grantable, id, action)) return map;
  const next = new Map(map);
  const grant = { ...grantOf(map, id) };
  grant[action] = on ? 1 : 0;
  if (on && action !== 'view') grant.view = 1;
  if (!on && action === 'view') {
    if (mayGrant(grantable, id, 'edit')) grant.edit = 0;
    if (mayGrant(grantable, id, 'add')) grant.add = 0;
  }
  store(next, id, grant);
  return next;
}

function store(map: Map<number, Grant>, id: number, grant: Grant): void {
  if (grant.view || grant.edit || grant.add) map.set(id, grant);
  else map.delete(id);
}

/** The row's "all" checkbox: every distributable action of the module and of everything below it. */
export function setRow(map: GrantMap, row: PermissionRow, on: boolean, grantable: Grantable): GrantMap {
  let next = map;
  for (const r of flattenRows([row])) for (const action of ACTIONS) next = setAction(next, r.id, action, on, grantable);
  return next;
}

/** A column header's checkbox: one action on every module. */
export function setColumn(
  map: GrantMap,
  rows: readonly PermissionRow[],
  action: Action,
  on: boolean,
  grantable: Grantable,
): GrantMap {
  let next = map;
  for (const r of flattenRows(rows)) next = setAction(next, r.id, action, on, grantable);
  return next;
}

export type CheckState = 'all' | 'some' | 'none';

function stateOf(values: boolean[]): CheckState {
  const on = values.filter(Boolean).length;
  return on === 0 ? 'none' : on === values.length ? 'all' : 'some';
}

/** State of a row's "all" checkbox over the module and its descendants. */
export function rowState(map: GrantMap, row: PermissionRow): CheckState {
  return stateOf(flattenRows([row]).flatMap((r) => ACTIONS.map((a) => grantOf(map, r.id)[a] === 1)));
}

/** State of a column header over every module. */
export function columnState(map: GrantMap, rows: readonly PermissionRow[], action: Action): CheckState {
  return stateOf(flattenRows(rows).map((r) => grantOf(map, r.id)[action] === 1));
}

/**
 * The `auth_update` payload: every module holding an action, in catalogue order, and view on the
 * ancestors of each (the server adds those too; sending them keeps the screen and the stored
 * state alike).
 */
export function toPayload(map: GrantMap, rows: readonly PermissionRow[]): PermissionGrant[] {
  const all = flattenRows(rows);
  const byId = new Map(all.map((r) => [r.id, r]));
  const result = new Map<number, Grant>();
  for (const row of all) {
    const grant = map.get(row.id);
    if (!grant || !(grant.view || grant.edit || grant.add)) continue;
    result.set(row.id, { ...(result.get(row.id) ?? NONE), ...grant, view: 1 });
    for (let parent = byId.get(row.pid); parent; parent = byId.get(parent.pid))
      result.set(parent.id, { ...(result.get(parent.id) ?? map.get(parent.id) ?? NONE), view: 1 });
  }
  return all.filter((r) => result.has(r.id)).map((r) => ({ module_id: r.id, ...result.get(r.id)! }));
}
