import { MODULES, type PermissionMap, type PermissionNode, type Role, type RoleOption } from '@bwc/protocol';
import type { RoleWithUsers } from './roles.repository';

export function presentRole(row: RoleWithUsers, changeable: 0 | 1): Role {
  return {
    id: row.id,
    name: row.name,
    weight: row.weight,
    remark: row.remark,
    created: row.created,
    users: row.users,
    changeable,
  };
}

export function presentRoleOption(row: { id: number; name: string; weight: number }): RoleOption {
  return { id: row.id, name: row.name, weight: row.weight };
}

/** The module catalogue as a tree in menu order, with the role's actions as 0/1. */
export function presentPermissionTree(perms: PermissionMap): PermissionNode[] {
  const nodes = new Map<number, PermissionNode>();
  const roots: PermissionNode[] = [];
  for (const m of MODULES) {
    const auth = perms[m.id] ?? {};
    const node: PermissionNode = {
      id: m.id,
      bh: m.bh,
      pid: m.pid,
      key: m.key,
      path: m.path,
      view: auth.view === 1 ? 1 : 0,
      edit: auth.edit === 1 ? 1 : 0,
      add: auth.add === 1 ? 1 : 0,
      children: [],
    };
    nodes.set(m.id, node);
    (nodes.get(m.pid)?.children ?? roots).push(node);
  }
  return roots;
}
