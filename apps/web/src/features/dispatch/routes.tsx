import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';
import { useGbMode } from '../../app/session/useGbMode';

const EmergencyPage = lazyPage(() => import('./EmergencyPage'), 'EmergencyPage', [
  'conference',
  'dispatch',
  'map',
  'playback',
  'talk',
  'video',
]);
const GbMapPage = lazyPage(() => import('../video/gb/map/GbMapPage'), 'GbMapPage', ['map', 'video']);
const TrackPage = lazyPage(() => import('../monitor/TrackPage'), 'TrackPage', ['map', 'monitor', 'playback', 'video']);
const MsgManagePage = lazyPage(() => import('./msg-manage/MsgManagePage'), 'MsgManagePage', ['msgpush']);
const VideoWallPage = lazyPage(() => import('../video/VideoWallPage'), 'VideoWallPage', ['video']);
const VoiceManagePage = lazyPage(() => import('./voice-manage/VoiceManagePage'), 'VoiceManagePage', [
  'conference',
  'dispatch',
  'talk',
]);
const ClusterPage = lazyPage(() => import('./cluster/ClusterPage'), 'ClusterPage', [
  'conference',
  'dispatch',
  'map',
  'talk',
]);

/** The emergency map: GB devices in GB mode (spec part 1 section 4), body cameras otherwise. */
function EmergencyByMode() {
  const { gb, isPending } = useGbMode();
  if (isPending) return null;
  return gb ? <GbMapPage /> : <EmergencyPage />;
}

/** Built pages of /dispatch by menu id (placed by app/routing/moduleRoutes.tsx). */
export const dispatchPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.EMERGENCY]: (
    <Lazy>
      <EmergencyByMode />
    </Lazy>
  ),
  // history track (历史轨迹): the same page as /monitor/track, under the dispatch menu
  [MenuId.CLUSTER]: (
    <Lazy>
      <ClusterPage />
    </Lazy>
  ),
  [MenuId.HISTORY]: (
    <Lazy>
      <TrackPage />
    </Lazy>
  ),
  [MenuId.MSG_MANAGE]: (
    <Lazy>
      <MsgManagePage />
    </Lazy>
  ),
  [MenuId.DISPATCH_VIDEO]: (
    <Lazy>
      <VideoWallPage />
    </Lazy>
  ),
  [MenuId.VOICE_MANAGE]: (
    <Lazy>
      <VoiceManagePage />
    </Lazy>
  ),
};
