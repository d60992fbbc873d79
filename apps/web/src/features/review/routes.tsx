import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const CheckRandomPage = lazyPage(() => import('./CheckPages'), 'CheckRandomPage', ['data', 'review']);
const CheckRecordPage = lazyPage(() => import('./CheckPages'), 'CheckRecordPage', ['data', 'review']);
const PeerReviewPage = lazyPage(() => import('./PeerReviewPage'), 'PeerReviewPage', ['data', 'review']);

/** /data/check and /data/peerreview/review pages by menu id (placed by app/routing/moduleRoutes.tsx); each a lazy chunk. */
export const reviewPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.CHECK_RANDOM]: (
    <Lazy>
      <CheckRandomPage />
    </Lazy>
  ),
  [MenuId.CHECK_RECORD]: (
    <Lazy>
      <CheckRecordPage />
    </Lazy>
  ),
  [MenuId.PEER_REVIEW]: (
    <Lazy>
      <PeerReviewPage />
    </Lazy>
  ),
};
