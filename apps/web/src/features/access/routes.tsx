import { MenuId } from '@bwc/protocol';
import type { RouteObject } from 'react-router';
import { Lazy, ModuleGate } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const AccessPage = lazyPage(() => import('./AccessPage'), 'AccessPage', ['access', 'data', 'review']);
const SharePage = lazyPage(() => import('./SharePage'), 'SharePage', ['access']);

/** /data/access (placed under the /data area by app/routing/moduleRoutes.tsx): a lazy chunk. */
export const accessRoutes: RouteObject[] = [
  {
    path: 'access',
    element: (
      <ModuleGate menuId={MenuId.LAW_MEDIA}>
        <Lazy>
          <AccessPage />
        </Lazy>
      </ModuleGate>
    ),
    handle: { menuId: MenuId.LAW_MEDIA },
  },
];

/** /share/<token>: the public page of an external share link (outside the login, app/routing/routes.tsx). */
export const shareRoute: RouteObject = {
  path: 'share/:token',
  element: (
    <Lazy>
      <SharePage />
    </Lazy>
  ),
};
