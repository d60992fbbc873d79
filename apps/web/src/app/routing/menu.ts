import { MODULES, MODULE_BY_ID, MenuId, type ModuleDef, type UserContext } from '@bwc/protocol';
import { modeHasMenu } from '../session/gbMode';
import { allowedModules } from '../session/permissions';

/** One entry of a menu: a catalogue module or a fixed page, label `menu:<key>`. */
export interface MenuNode {
  id: number;
  key: string;
  path: string;
  children: MenuNode[];
}

function toTree(modules: readonly ModuleDef[], pid: number): MenuNode[] {
  return modules
    .filter((m) => m.pid === pid)
    .map((m) => ({ id: m.id, key: m.key, path: m.path, children: toTree(modules, m.id) }));
}

/**
 * The menu of a user: catalogue modules whose bh the server's context returns, as a tree. The
 * parents of an allowed module are kept so that it stays reachable. `byMode`: without the modules
 * the current mode does not have (GB-only ones outside GB mode, app/session/gbMode.ts).
 */
export function buildMenuTree(context: UserContext | undefined, { byMode = false } = {}): MenuNode[] {
  const ids = new Set<number>();
  for (const m of allowedModules(context)) {
    if (byMode && !modeHasMenu(context, m.id)) continue;
    for (let cur: ModuleDef | undefined = m; cur && !ids.has(cur.id); cur = MODULE_BY_ID.get(cur.pid)) ids.add(cur.id);
  }
  return toTree(
    MODULES.filter((m) => ids.has(m.id)),
    0,
  );
}

/** Areas of the navigation bar (the system area lives in the settings dropdown). */
export function navigationAreas(context: UserContext | undefined): MenuNode[] {
  return buildMenuTree(context, { byMode: true }).filter((node) => node.id !== MenuId.SYSTEM);
}

export function findNode(nodes: MenuNode[], id: number): MenuNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** Path of the first child of `menuId` the user may open (a route with children goes to its first child). */
export function firstAllowedChildPath(context: UserContext | undefined, menuId: number): string | null {
  const node = findNode(buildMenuTree(context, { byMode: true }), menuId);
  return node?.children[0]?.path ?? null;
}

/**
 * Fixed pages below the system modules (spec part 1 section 2). They are not modules of their
 * own: they share the permission of their parent (systemset: systerm_auth, player: replay_auth).
 */
export const SYSTEM_SUBPAGES: Readonly<Record<number, readonly string[]>> = {
  [MenuId.SYSTEM_SETTINGS]: ['titleset', 'backset', 'filestorage', 'statisticset', 'normalset'],
  [MenuId.DISPATCH_CONFIG]: ['digitailmap', 'cloudstorage', 'gbconfig'],
};

/** Side menu of an area: its allowed modules plus, under /system, the fixed settings pages. */
export function areaMenu(context: UserContext | undefined, areaId: number): MenuNode[] {
  const area = findNode(buildMenuTree(context, { byMode: true }), areaId);
  if (!area) return [];
  const withSubpages = (node: MenuNode): MenuNode => {
    const subpages = SYSTEM_SUBPAGES[node.id];
    if (!subpages) return { ...node, children: node.children.map(withSubpages) };
    return {
      ...node,
      children: subpages.map((key, i) => ({ id: node.id * 100 + i, key, path: `${node.path}/${key}`, children: [] })),
    };
  };
  return area.children.map(withSubpages);
}

/** The root area a path belongs to, if any. */
export function areaOfPath(path: string): ModuleDef | undefined {
  return MODULES.find((m) => m.pid === 0 && (path === m.path || path.startsWith(`${m.path}/`)));
}
