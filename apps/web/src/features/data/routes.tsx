import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const LawMediaPage = lazyPage(() => import('./LibraryPage'), 'LawMediaPage');
const SensitiveMediaPage = lazyPage(() => import('./LibraryPage'), 'SensitiveMediaPage');
const OutsideMediaPage = lazyPage(() => import('./LibraryPage'), 'OutsideMediaPage');
const DeletedMediaPage = lazyPage(() => import('./DeletedPage'), 'DeletedMediaPage');
const EditRecordPage = lazyPage(() => import('./EditRecordPage'), 'EditRecordPage');

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
