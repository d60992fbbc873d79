import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const EmergencyPage = lazyPage(() => import('./EmergencyPage'), 'EmergencyPage');

/** Built pages of /dispatch by menu id (placed by app/routing/moduleRoutes.tsx). */
export const dispatchPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.EMERGENCY]: (
    <Lazy>
      <EmergencyPage />
    </Lazy>
  ),
};
