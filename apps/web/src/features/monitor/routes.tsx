import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const TrackPage = lazyPage(() => import('./TrackPage'), 'TrackPage', ['map', 'monitor', 'playback', 'video']);
const VideoPatrolPage = lazyPage(() => import('../video/VideoPatrolPage'), 'VideoPatrolPage', ['dispatch', 'video']);

/** Built pages of /monitor by menu id (placed by app/routing/moduleRoutes.tsx). */
export const monitorPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.TRACK]: (
    <Lazy>
      <TrackPage />
    </Lazy>
  ),
  [MenuId.VIDEO_PATROL]: (
    <Lazy>
      <VideoPatrolPage />
    </Lazy>
  ),
};
