import { Spin } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { isLoggedIn } from '../../api/session';
import { NoPermissionPage } from '../pages/NoPermissionPage';
import { useUserContext } from '../session/queries';
import { buildMenuTree, findNode, firstAllowedChildPath } from './menu';

export function PageSpin() {
  return (
    <div style={{ padding: 48, textAlign: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

/** Without the logged-in flag in session storage, go to /login (and come back afterwards). */
export function RequireLogin({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!isLoggedIn()) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return <>{children}</>;
}

/** Renders the child routes of a module when the user's menu holds it, else a 403 result. */
export function ModuleGate({ menuId, children }: { menuId: number; children?: ReactNode }) {
  const { data: context, isPending } = useUserContext();
  if (isPending) return <PageSpin />;
  if (!findNode(buildMenuTree(context), menuId)) return <NoPermissionPage menuId={menuId} />;
  return <>{children ?? <Outlet />}</>;
}

/** Index of a route with children: go to its first child the user may open. */
export function FirstAllowedChild({ menuId }: { menuId: number }) {
  const { data: context, isPending } = useUserContext();
  if (isPending) return <PageSpin />;
  const path = firstAllowedChildPath(context, menuId);
  if (!path) return <NoPermissionPage menuId={menuId} />;
  return <Navigate to={path} replace />;
}

/** Suspense boundary for lazy pages. */
export function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageSpin />}>{children}</Suspense>;
}
