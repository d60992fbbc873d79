import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const GeoAdminPage = lazyPage(() => import('./GeoAdminPage'), 'GeoAdminPage', ['map']);

/** Fence and zone screens of /configcenter/MapConfig by menu id (placed by app/routing/moduleRoutes.tsx). */
export const mapconfigPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.ELECTRONIC_FENCE]: (
    <Lazy>
      <GeoAdminPage kind="fence" />
    </Lazy>
  ),
  [MenuId.ZONES]: (
    <Lazy>
      <GeoAdminPage kind="zone" />
    </Lazy>
  ),
};
