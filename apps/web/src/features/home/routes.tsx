import { Navigate, type RouteObject } from 'react-router';
import { notBuiltNamed } from '../../app/routing/moduleRoutes';

/**
 * PLACEHOLDER (the home engineer replaces the elements): pages of the shell outside the areas,
 * for every logged-in user: /menu (home), /emegencyNotice, /downloadCenter (child download).
 */
export const homeRoutes: RouteObject[] = [
  { path: 'menu', element: notBuiltNamed('home') },
  { path: 'emegencyNotice', element: notBuiltNamed('emegencyNotice') },
  {
    path: 'downloadCenter',
    children: [
      { index: true, element: <Navigate to="download" replace /> },
      { path: 'download', element: notBuiltNamed('downloadCenter') },
    ],
  },
];
