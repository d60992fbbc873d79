import { useTranslation } from 'react-i18next';
import { useVideoWall } from './VideoWall';
import { VideoScreen } from './VideoScreen';

/** Video wall (/dispatch/video, menu 10106): live pictures of devices picked from the tree. */
export function VideoWallPage() {
  const { t } = useTranslation('video');
  const wall = useVideoWall();
  return <VideoScreen title={t('page.wallTitle')} testId="video-wall-page" wall={wall} />;
}
