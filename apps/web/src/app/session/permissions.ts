import { MODULE_BY_BH, can, type Action, type ModuleDef, type PermissionMap, type UserContext } from '@bwc/protocol';

/** menu id -> user_auth, from the context's modules matched against the catalogue by bh. */
export function permissionMap(context: UserContext | undefined): PermissionMap {
  const map: PermissionMap = {};
  for (const module of context?.modules ?? []) {
    const def = MODULE_BY_BH.get(module.bh);
    if (def) map[def.id] = module.user_auth;
  }
  return map;
}

/** Catalogue modules the context allows (any action), in catalogue order. */
export function allowedModules(context: UserContext | undefined): ModuleDef[] {
  const bhs = new Set((context?.modules ?? []).map((m) => m.bh));
  const out: ModuleDef[] = [];
  for (const def of MODULE_BY_BH.values()) if (bhs.has(def.bh)) out.push(def);
  return out;
}

export function isAllowed(context: UserContext | undefined, menuId: number, action: Action = 'view'): boolean {
  return can(permissionMap(context), menuId, action);
}
