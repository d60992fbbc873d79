import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { ModuleGate } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';
import { SYSTEM_SUBPAGES } from '../../app/routing/menu';

const TitleSetPage = lazyPage(() => import('./settings/TitleSetPage'), 'TitleSetPage', ['system']);
const BackSetPage = lazyPage(() => import('./settings/BackSetPage'), 'BackSetPage', ['system']);
const FileStoragePage = lazyPage(() => import('./settings/FileStoragePage'), 'FileStoragePage', ['system']);
const StatisticSetPage = lazyPage(() => import('./settings/StatisticSetPage'), 'StatisticSetPage', ['system']);
const NormalSetPage = lazyPage(() => import('./settings/NormalSetPage'), 'NormalSetPage', ['system']);
const DigitailMapPage = lazyPage(() => import('./settings/DigitailMapPage'), 'DigitailMapPage', ['system']);
const CloudStoragePage = lazyPage(() => import('./settings/CloudStoragePage'), 'CloudStoragePage', ['system']);
const GbConfigPage = lazyPage(() => import('./settings/GbConfigPage'), 'GbConfigPage', ['system']);
const NoticeEditPage = lazyPage(() => import('./notice/NoticeEditPage'), 'NoticeEditPage', ['system']);
const DownloadAdminPage = lazyPage(() => import('./download/DownloadAdminPage'), 'DownloadAdminPage', ['system']);

/** The page of each fixed settings path (spec part 1 section 2). */
const SETTINGS_PAGES: Record<string, ReactNode> = {
  titleset: <TitleSetPage />,
  backset: <BackSetPage />,
  filestorage: <FileStoragePage />,
  statisticset: <StatisticSetPage />,
  normalset: <NormalSetPage />,
  digitailmap: <DigitailMapPage />,
  cloudstorage: <CloudStoragePage />,
  gbconfig: <GbConfigPage />,
};

/** systemset and player: index goes to the first page, each page gated by its parent module. */
function subpages(menuId: number): RouteObject[] {
  const keys = SYSTEM_SUBPAGES[menuId] ?? [];
  return [
    { index: true, element: <Navigate to={keys[0] ?? ''} replace /> },
    ...keys.map((key) => ({ path: key, element: SETTINGS_PAGES[key] })),
  ];
}

/** Children of /system; /system's index goes to the first allowed child (app/routing/routes.tsx). */
export const systemRoutes: RouteObject[] = [
  {
    path: 'systemset',
    element: <ModuleGate menuId={MenuId.SYSTEM_SETTINGS} />,
    handle: { menuId: MenuId.SYSTEM_SETTINGS },
    children: subpages(MenuId.SYSTEM_SETTINGS),
  },
  {
    path: 'player',
    element: <ModuleGate menuId={MenuId.DISPATCH_CONFIG} />,
    handle: { menuId: MenuId.DISPATCH_CONFIG },
    children: subpages(MenuId.DISPATCH_CONFIG),
  },
  {
    path: 'noticeEdit',
    element: (
      <ModuleGate menuId={MenuId.ANNOUNCEMENTS}>
        <NoticeEditPage />
      </ModuleGate>
    ),
    handle: { menuId: MenuId.ANNOUNCEMENTS },
  },
  {
    path: 'download_2',
    element: (
      <ModuleGate menuId={MenuId.DOWNLOADS}>
        <DownloadAdminPage />
      </ModuleGate>
    ),
    handle: { menuId: MenuId.DOWNLOADS },
  },
];
