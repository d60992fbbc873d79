import { MenuId } from '@bwc/protocol';
import { Navigate, type RouteObject } from 'react-router';
import { ModuleGate } from '../../app/routing/guards';
import { SYSTEM_SUBPAGES } from '../../app/routing/menu';
import { notBuilt, notBuiltNamed } from '../../app/routing/moduleRoutes';

/**
 * PLACEHOLDER (the system-settings engineer replaces the elements): children of /system.
 * /system's index goes to the first allowed child (app/routing/routes.tsx); each module is gated
 * by ModuleGate (menu id); systemset and player redirect to their first page.
 */
function subpages(menuId: number): RouteObject[] {
  const keys = SYSTEM_SUBPAGES[menuId] ?? [];
  return [{ index: true, element: <Navigate to={keys[0] ?? ''} replace /> }, ...keys.map((key) => ({ path: key, element: notBuiltNamed(key) }))];
}

export const systemRoutes: RouteObject[] = [
  { path: 'systemset', element: <ModuleGate menuId={MenuId.SYSTEM_SETTINGS} />, handle: { menuId: MenuId.SYSTEM_SETTINGS }, children: subpages(MenuId.SYSTEM_SETTINGS) },
  { path: 'player', element: <ModuleGate menuId={MenuId.DISPATCH_CONFIG} />, handle: { menuId: MenuId.DISPATCH_CONFIG }, children: subpages(MenuId.DISPATCH_CONFIG) },
  { path: 'noticeEdit', element: <ModuleGate menuId={MenuId.ANNOUNCEMENTS}>{notBuilt(MenuId.ANNOUNCEMENTS)}</ModuleGate>, handle: { menuId: MenuId.ANNOUNCEMENTS } },
  { path: 'download_2', element: <ModuleGate menuId={MenuId.DOWNLOADS}>{notBuilt(MenuId.DOWNLOADS)}</ModuleGate>, handle: { menuId: MenuId.DOWNLOADS } },
];
