import { App } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useBellEvent, type AlarmOpenRequest } from '../alarms/bell/bellEvents';
import type { DevicePointStore } from '../../map/pointStore';

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
 * located on the map with its info window. This console has no live video yet: `isLive` says so
 * instead of pretending.
 */
export function useAlarmOpen(
  store: DevicePointStore,
  ready: boolean,
  locate: (id: number, how?: LocateHow) => void,
): void {
  const { t } = useTranslation('dispatch');
  const { message } = App.useApp();
  const location = useLocation();
  const navigate = useNavigate();

  const open = useCallback(
    ({ info, isLive, automatic }: AlarmOpenRequest) => {
      const name = info.hostNameCode || info.hostname;
      if (info.device_id === null || !store.get(info.device_id)) {
        message.info(t('alarmOpen.unknown', { name }));
        return;
      }
      locate(info.device_id, automatic ? { instant: true } : undefined);
      if (isLive) message.info(t('alarmOpen.noLive', { name }));
    },
    [store, locate, message, t],
  );

  useBellEvent('open', open);

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
