import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const RecorderAdminPage = lazyPage(() => import('./RecorderAdminPage'), 'RecorderAdminPage', ['oamcenter']);
const RecorderModelPage = lazyPage(() => import('./RecorderModelPage'), 'RecorderModelPage', ['oamcenter']);
const WorkstationAdminPage = lazyPage(() => import('./workstations/WorkstationAdminPage'), 'WorkstationAdminPage', [
  'oamcenter',
]);
const MediaGatewayPage = lazyPage(() => import('./media-gateway/MediaGatewayPage'), 'MediaGatewayPage', ['oamcenter']);
const GbDeviceAdminPage = lazyPage(() => import('./gbdevices/GbDeviceAdminPage'), 'GbDeviceAdminPage', ['oamcenter']);

/** Built pages of /oamcenter by menu id (placed by app/routing/moduleRoutes.tsx). */
export const oamcenterPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.RECORDERS]: (
    <Lazy>
      <RecorderAdminPage />
    </Lazy>
  ),
  [MenuId.RECORDER_MODELS]: (
    <Lazy>
      <RecorderModelPage />
    </Lazy>
  ),
  [MenuId.WORKSTATIONS]: (
    <Lazy>
      <WorkstationAdminPage />
    </Lazy>
  ),
  [MenuId.MEDIA_GATEWAY]: (
    <Lazy>
      <MediaGatewayPage />
    </Lazy>
  ),
  [MenuId.GB_DEVICES]: (
    <Lazy>
      <GbDeviceAdminPage />
    </Lazy>
  ),
};
