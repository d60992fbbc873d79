import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const PlaybackPage = lazyPage(() => import('./PlaybackPage'), 'PlaybackPage', ['playback', 'video']);

/** History replay by menu id (placed by app/routing/moduleRoutes.tsx); a lazy chunk. */
export const playbackPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.PLAYBACK]: (
    <Lazy>
      <PlaybackPage />
    </Lazy>
  ),
};
