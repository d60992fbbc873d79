import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const LawMediaPage = lazyPage(() => import('./LibraryPage'), 'LawMediaPage', ['access', 'data', 'review']);
const SensitiveMediaPage = lazyPage(() => import('./LibraryPage'), 'SensitiveMediaPage', ['access', 'data', 'review']);
const OutsideMediaPage = lazyPage(() => import('./LibraryPage'), 'OutsideMediaPage', ['access', 'data', 'review']);
const DeletedMediaPage = lazyPage(() => import('./DeletedPage'), 'DeletedMediaPage', [
  'access',
  'data',
  'retention',
  'review',
]);
const EditRecordPage = lazyPage(() => import('./EditRecordPage'), 'EditRecordPage', [
  'access',
  'data',
  'retention',
  'review',
]);

/** Evidence pages by menu id (placed by app/routing/moduleRoutes.tsx); each a lazy chunk. */
export const dataPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.LAW_MEDIA]: (
    <Lazy>
      <LawMediaPage />
    </Lazy>
  ),
  [MenuId.SENSITIVE_MEDIA]: (
    <Lazy>
      <SensitiveMediaPage />
    </Lazy>
  ),
  [MenuId.OUTSIDE_MEDIA]: (
    <Lazy>
      <OutsideMediaPage />
    </Lazy>
  ),
  [MenuId.DELETED_MEDIA]: (
    <Lazy>
      <DeletedMediaPage />
    </Lazy>
  ),
  [MenuId.EDIT_RECORD]: (
    <Lazy>
      <EditRecordPage />
    </Lazy>
  ),
};
