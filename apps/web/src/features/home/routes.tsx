import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../app/routing/lazyPage';

const HomePage = lazyPage(() => import('./HomePage'), 'HomePage', []);
const EmergencyNoticePage = lazyPage(() => import('./EmergencyNoticePage'), 'EmergencyNoticePage', []);
const DownloadCenterPage = lazyPage(() => import('./DownloadCenterPage'), 'DownloadCenterPage', []);

/**
 * Pages of the shell outside the areas, for every logged-in user: /menu (home), /emegencyNotice,
 * /downloadCenter (child download).
 */
export const homeRoutes: RouteObject[] = [
  { path: 'menu', element: <HomePage /> },
  { path: 'emegencyNotice', element: <EmergencyNoticePage /> },
  {
    path: 'downloadCenter',
    children: [
      { index: true, element: <Navigate to="download" replace /> },
      { path: 'download', element: <DownloadCenterPage /> },
    ],
  },
];
