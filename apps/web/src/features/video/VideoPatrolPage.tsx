import { SOS_LIVE_DELAY_MS } from '@bwc/protocol';
import { App } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyLiveOpened, useBellEvent, type AlarmOpenRequest } from '../alarms/bell/bellEvents';
import { useAlarmFromRoute } from '../dispatch/useAlarmOpen';
import { useGbMode } from '../../app/session/useGbMode';
import { gbWallDeps, liveDeviceOfGbAlarm } from './gb/gbLive';
import { GbPatrolScreen } from './gb/GbPatrolScreen';
import { liveDeviceOfAlarm } from './liveSource';
import { useVideoWall, type VideoWallHandle } from './VideoWall';
import { VideoScreen } from './VideoScreen';

/**
 * The bell on the patrol page (it is "embedded" here: see bellRoutes.ts): its see / live and a new
 * critical alarm open the alarm's device on the wall, a new one SOS_LIVE_DELAY_MS after it arrived
 * (spec part 2 section 9); opening live silences the bell. A device-offline alarm closes its tile.
 * An alarm brought by navigation from another page (router state) is taken once.
 */
export function useAlarmLive(wall: VideoWallHandle): void {
  const { t } = useTranslation('video');
  const { message } = App.useApp();
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  const open = useCallback(
    ({ info, automatic }: AlarmOpenRequest) => {
      // a GB device's alarm opens the channel it came from
      const device = liveDeviceOfAlarm(info) ?? liveDeviceOfGbAlarm(info);
      if (!device) return void message.info(t('alarm.noDevice', { name: info.hostname }));
      const now = () => {
        if (wall.open(device)) notifyLiveOpened();
      };
      if (!automatic) return now();
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        now();
      }, SOS_LIVE_DELAY_MS);
      timers.current.add(timer);
    },
    [wall, message, t],
  );
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  useBellEvent('open', open);
  useBellEvent('stopLive', (alarm) => {
    if (alarm.device_id !== null) wall.model.closeDevice(alarm.device_id);
  });
  useAlarmFromRoute(true, open);
}

/**
 * Video patrol (/monitor/patrol, menu 10151): the video wall, fed by the alarm bell as well; in GB
 * mode beside the GB player's init steps and the GB equipment tree.
 */
export function VideoPatrolPage() {
  const { t } = useTranslation('video');
  const { gb } = useGbMode();
  const wall = useVideoWall(gbWallDeps);
  useAlarmLive(wall);
  return gb ? (
    <GbPatrolScreen title={t('page.patrolTitle')} wall={wall} />
  ) : (
    <VideoScreen title={t('page.patrolTitle')} testId="video-patrol-page" wall={wall} />
  );
}
