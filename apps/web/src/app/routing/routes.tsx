import { MenuId } from '@bwc/protocol';
import { Navigate, type RouteObject } from 'react-router';
import { shareRoute } from '../../features/access/routes';
import { LoginPage } from '../../features/auth/LoginPage';
import { homeRoutes } from '../../features/home/routes';
import { systemRoutes } from '../../features/system/routes';
import { NotAcceptablePage, NotFoundPage, ServerErrorPage } from '../pages/ErrorPages';
import { NotSupportPage } from '../pages/NotSupportPage';
import { AreaLayout } from '../shell/AreaLayout';
import { ShellLayout } from '../shell/ShellLayout';
import { FirstAllowedChild, ModuleGate, RequireLogin } from './guards';
import { areaRoutes } from './moduleRoutes';
import { RouteError } from './RouteError';

/** Route handle: the menu id whose permission the route needs. */
export interface RouteHandle {
  menuId?: number;
}

/** The console's routes (spec part 1 section 2, part 2 section 2.1). */
export function appRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      errorElement: <RouteError />,
      children: [
        { path: 'login', element: <LoginPage /> },
        // an external share link's page (issue 15 section 4): public, no login
        shareRoute,
        { path: '406', element: <NotAcceptablePage /> },
        { path: 'not-support', element: <NotSupportPage /> },
        { path: '404', element: <NotFoundPage /> },
        { path: '500', element: <ServerErrorPage /> },
        {
          element: (
            <RequireLogin>
              <ShellLayout />
            </RequireLogin>
          ),
          children: [
            {
              // errors of a page render inside the shell, below the navigation bar
              errorElement: <RouteError />,
              children: [
                { index: true, element: <Navigate to="/menu" replace /> },
                ...homeRoutes,
                {
                  path: 'system',
                  element: (
                    <ModuleGate menuId={MenuId.SYSTEM}>
                      <AreaLayout areaId={MenuId.SYSTEM} />
                    </ModuleGate>
                  ),
                  handle: { menuId: MenuId.SYSTEM },
                  children: [{ index: true, element: <FirstAllowedChild menuId={MenuId.SYSTEM} /> }, ...systemRoutes],
                },
                ...areaRoutes(),
              ],
            },
          ],
        },
        { path: '*', element: <Navigate to="/404" replace /> },
      ],
    },
  ];
}
