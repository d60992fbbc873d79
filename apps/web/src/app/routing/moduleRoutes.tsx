import { MODULES, MenuId, type ModuleDef } from '@bwc/protocol';
import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { accessRoutes } from '../../features/access/routes';
import { alarmHistoryPages } from '../../features/alarms/history/routes';
import { archivePages } from '../../features/archive/routes';
import { configcenterPages } from '../../features/configcenter/routes';
import { sensitiveWordPages } from '../../features/configcenter/sensitive-words/routes';
import { dataPages } from '../../features/data/routes';
import { dispatchPages } from '../../features/dispatch/routes';
import { mapconfigPages } from '../../features/mapconfig/routes';
import { monitorPages } from '../../features/monitor/routes';
import { oamcenterPages } from '../../features/oamcenter/routes';
import { playbackPages } from '../../features/playback/routes';
import { reviewPages } from '../../features/review/routes';
import { AreaLayout } from '../shell/AreaLayout';
import { FirstAllowedChild, Lazy, ModuleGate } from './guards';
import { lazyPage } from './lazyPage';

const NotBuiltPage = lazyPage(() => import('../pages/NotBuiltPage'), 'NotBuiltPage', []);

/** Lazy "not built yet" page naming a capability: the placeholder of every area a later issue builds. */
export function notBuilt(menuId: number): RouteObject['element'] {
  return (
    <Lazy>
      <NotBuiltPage menuId={menuId} />
    </Lazy>
  );
}

/** Placeholder for a fixed page that is not a catalogue module (`nameKey`: its label's key, `menu:<page>`). */
export function notBuiltNamed(nameKey: string): RouteObject['element'] {
  return (
    <Lazy>
      <NotBuiltPage nameKey={nameKey} />
    </Lazy>
  );
}

/** Built pages of catalogue modules by menu id; a module missing here shows "not built yet". */
const MODULE_PAGES: Readonly<Record<number, ReactNode>> = {
  ...configcenterPages,
  ...dispatchPages,
  ...monitorPages,
  ...oamcenterPages,
  ...mapconfigPages,
  ...alarmHistoryPages,
  ...archivePages,
  ...dataPages,
  ...sensitiveWordPages,
  ...playbackPages,
  ...reviewPages,
};

function segmentOf(module: ModuleDef, parent: ModuleDef): string {
  return module.path.slice(parent.path.length + 1);
}

/** A module route: gated by the user's menu; with children, its index goes to the first allowed child. */
function moduleRoute(module: ModuleDef, parent: ModuleDef): RouteObject {
  const children = MODULES.filter((m) => m.pid === module.id);
  if (children.length === 0)
    return {
      path: segmentOf(module, parent),
      element: <ModuleGate menuId={module.id}>{MODULE_PAGES[module.id] ?? notBuilt(module.id)}</ModuleGate>,
      handle: { menuId: module.id },
    };
  return {
    path: segmentOf(module, parent),
    element: <ModuleGate menuId={module.id} />,
    handle: { menuId: module.id },
    children: [
      { index: true, element: <FirstAllowedChild menuId={module.id} /> },
      ...children.map((child) => moduleRoute(child, module)),
    ],
  };
}

/**
 * Route trees of the part 2 areas (/dispatch, /monitor, /data, /ai, /oamcenter, /configcenter),
 * built from the protocol MODULES catalogue. A feature that builds a capability replaces its
 * placeholder here by importing its own routes (see src/README.md).
 */
export function areaRoutes(): RouteObject[] {
  return MODULES.filter((m) => m.pid === 0 && m.id !== MenuId.SYSTEM).map((area) => ({
    path: area.path,
    element: (
      <ModuleGate menuId={area.id}>
        <AreaLayout areaId={area.id} />
      </ModuleGate>
    ),
    handle: { menuId: area.id },
    children: [
      { index: true, element: <FirstAllowedChild menuId={area.id} /> },
      ...MODULES.filter((m) => m.pid === area.id).map((m) => moduleRoute(m, area)),
      // pages of an area that are not catalogue modules
      ...(area.path === '/data' ? accessRoutes : []),
    ],
  }));
}
