import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../../app/routing/guards';
import { lazyPage } from '../../../app/routing/lazyPage';

const SensitiveWordAdminPage = lazyPage(() => import('./SensitiveWordAdminPage'), 'SensitiveWordAdminPage', [
  'retention',
]);

/** /configcenter/Admin/SensitiveWordAdmin (10462), a lazy chunk placed by app/routing/moduleRoutes.tsx. */
export const sensitiveWordPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.SENSITIVE_WORDS]: (
    <Lazy>
      <SensitiveWordAdminPage />
    </Lazy>
  ),
};
