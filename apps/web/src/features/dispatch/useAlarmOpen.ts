import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SOS_LIVE_DELAY_MS, type MapConfig } from '@bwc/protocol';
import { useLocation, useNavigate } from 'react-router';
import { notifyLiveOpened, useBellEvent, type AlarmOpenRequest } from '../alarms/bell/bellEvents';
import type { DevicePointStore } from '../../map/pointStore';
import { liveDeviceOfAlarm } from '../video/liveSource';
import { openLive, openSosLives } from '../video/openLive';

/** How the map moves to a located device; `instant` for a locate the user did not ask for (see `moveCamera`). */
export interface LocateHow {
  instant?: boolean;
}

export function isAlarmOpenRequest(state: unknown): state is AlarmOpenRequest {
  if (!state || typeof state !== 'object') return false;
  const info = (state as { info?: unknown }).info;
  return !!info && typeof info === 'object' && typeof (info as { id?: unknown }).id === 'number';
}

/**
 * The bell's see / live on the Emergency page (spec part 1 section 2): an alarm arrives as router
 * state `{info, isLive}` (navigation from elsewhere: taken and dropped from the history entry at
 * once, so that a reload does not repeat it and a slow device load never navigates after the user
 * went elsewhere; applied once the devices are loaded) or as the bell's `open`
 * event while this page is shown (see, live, and a new critical alarm). The alarm's device is
 * located on the map with its info window; `isLive` opens its live view in a floating player,
 * which silences the bell. The arrival of a critical alarm (`automatic`) opens live only for an
 * SOS, SOS_LIVE_DELAY_MS after it came (spec part 2 section 9), following the map config's video
 * settings: only with getvideo_switch on, and not beyond getvideo_num such views at once.
 */
export function useAlarmOpen(
  store: DevicePointStore,
  ready: boolean,
  locate: (id: number, how?: LocateHow) => void,
  video?: MapConfig['video'],
): void {
  const { t } = useTranslation('dispatch');
  const { message } = App.useApp();
  // an SOS's delayed live view is not opened once the page is gone
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const open = useCallback(
    ({ info, isLive, automatic }: AlarmOpenRequest) => {
      const name = info.hostNameCode || info.hostname;
      if (info.device_id === null || !store.get(info.device_id)) {
        message.info(t('alarmOpen.unknown', { name }));
        return;
      }
      locate(info.device_id, automatic ? { instant: true } : undefined);
      const device = isLive ? liveDeviceOfAlarm(info) : null;
      if (!device) return;
      if (!automatic) {
        if (openLive(device)) notifyLiveOpened();
        return;
      }
      // by itself only for an SOS (a fence crossing or a device going offline is located, not filmed),
      // and only with the dispatch config's getvideo_switch on
      if (!device.sos?.isSos || (video && video.getvideo_switch !== 1)) return;
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        if (video && openSosLives() >= video.getvideo_num) {
          message.info(t('alarmOpen.sosLiveLimit', { name, max: video.getvideo_num }));
          return;
        }
        if (openLive(device)) notifyLiveOpened();
      }, SOS_LIVE_DELAY_MS);
      timers.current.add(timer);
    },
    [store, locate, message, t, video],
  );

  useBellEvent('open', open);
  useAlarmFromRoute(ready, open);
}

/**
 * An alarm brought by navigation from another page (router state `{info, isLive}`): taken and
 * dropped from the history entry at once, so that a reload does not repeat it and a slow load
 * never navigates after the user went elsewhere; handed to `open` once the page is `ready`.
 */
export function useAlarmFromRoute(ready: boolean, open: (request: AlarmOpenRequest) => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const state: unknown = location.state;
  const [pending, setPending] = useState<AlarmOpenRequest | null>(null);
  useEffect(() => {
    if (!isAlarmOpenRequest(state)) return;
    setPending(state);
    void navigate(location.pathname + location.search, { replace: true, state: null });
  }, [state, navigate, location.pathname, location.search]);
  useEffect(() => {
    if (!ready || !pending) return;
    setPending(null);
    open(pending);
  }, [ready, pending, open]);
}
