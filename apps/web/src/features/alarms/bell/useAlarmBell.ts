import { ALARM_TYPE, type Alarm, type AlarmLevel } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { call } from '../../../api/http';
import { usePush, usePushReconnect } from '../../../realtime/session/pushChannel';
import { AlarmRinger, soundDurationMs, type RingerState } from './alarmRinger';
import { AlarmSoundPlayer, type SoundStatus } from './alarmSound';
import { emitBellEvent, useBellEvent, type AlarmOpenRequest } from './bellEvents';
import { isEmbeddedOn, type BellMode } from './bellRoutes';
import { bellReducer, EMPTY_BELL, navActiveOf } from './bellState';

/** until the player exists (first effect) nothing is known: no banner yet */
const NO_PLAYER_YET: SoundStatus = { access: 'enabled', missed: false };
const noSubscription = () => () => {};

const bellKeys = {
  settings: ['alarms', 'bell', 'settings'] as const,
};

interface Sound {
  player: AlarmSoundPlayer;
  ringer: AlarmRinger;
}

/**
 * The bell's behaviour (spec part 1 sections 2 and 4): the unread list as a REST snapshot (on
 * mount and after every push-channel login) plus `alarm_data` deltas, the sound of critical
 * alarms, read actions and the way to the history and live pages. Mounted only for users with
 * the bell's view permission.
 */
export function useAlarmBell(mode: BellMode) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const embedded = isEmbeddedOn(pathname);
  const [state, dispatch] = useReducer(bellReducer, EMPTY_BELL);
  const [loading, setLoading] = useState(false);
  const [ringing, setRinging] = useState<RingerState>('idle');
  const [sound, setSound] = useState<Sound | null>(null);

  const settings = useQuery({
    queryKey: bellKeys.settings,
    queryFn: ({ signal }) => call('alarmSettings', undefined, { signal }),
    staleTime: 60_000,
  });

  useEffect(() => {
    const player = new AlarmSoundPlayer();
    const ringer = new AlarmRinger(player, setRinging);
    setSound({ player, ringer });
    return () => {
      ringer.dispose();
      player.dispose();
      setSound(null);
    };
  }, []);

  useEffect(() => {
    sound?.player.setSource(settings.data?.sos_alarm_audio ?? '');
  }, [sound, settings.data?.sos_alarm_audio]);

  const soundStatus = useSyncExternalStore(
    sound?.player.subscribe ?? noSubscription,
    sound?.player.status ?? (() => NO_PLAYER_YET),
  );

  // Snapshot then deltas: pushes that arrive while the snapshot is on its way are replayed on top
  // of it (the reducer ignores the ones the snapshot already holds).
  const loadSeq = useRef(0);
  const pendingPushes = useRef<Alarm[] | null>(null);
  const loadSnapshot = useCallback(async () => {
    const seq = ++loadSeq.current;
    pendingPushes.current = [];
    setLoading(true);
    try {
      const data = await call(mode.gb ? 'alarmLight' : 'alarmList');
      if (seq !== loadSeq.current) return;
      dispatch({ type: 'snapshot', data });
      for (const alarm of pendingPushes.current ?? []) dispatch({ type: 'pushed', alarm });
    } catch {
      // the http layer showed the error; the bell keeps what it had
    } finally {
      if (seq === loadSeq.current) {
        pendingPushes.current = null;
        setLoading(false);
      }
    }
  }, [mode.gb]);

  useEffect(() => {
    void loadSnapshot();
    return () => {
      loadSeq.current += 1;
      pendingPushes.current = null;
    };
  }, [loadSnapshot]);

  usePushReconnect(() => void loadSnapshot());
  useBellEvent('refresh', () => void loadSnapshot());

  const soundRef = useRef(sound);
  soundRef.current = sound;
  const durationMs = soundDurationMs(settings.data?.sos_alarm_time);

  usePush('alarm_data', ({ data: alarm }) => {
    pendingPushes.current?.push(alarm);
    dispatch({ type: 'pushed', alarm });
    if (alarm.type === ALARM_TYPE.OFFLINE) emitBellEvent('stopLive', alarm);
    if (alarm.alerm_level !== 'criticle') return;
    soundRef.current?.ringer.trigger(durationMs);
    if (embedded) emitBellEvent('open', { info: alarm, isLive: true, automatic: true });
  });

  useBellEvent('liveOpened', () => soundRef.current?.ringer.liveOpened());

  const readOne = useCallback(async (alarm: Alarm) => {
    await call('alarmRead', { ids: [{ id: alarm.id, eid: alarm.eid }] });
    dispatch({ type: 'read', id: alarm.id });
  }, []);

  const readAll = useCallback(async () => {
    if (state.counts.total === 0) return;
    await call('alarmReadAll');
    dispatch({ type: 'readAll' });
  }, [state.counts.total]);

  const viewAll = useCallback(
    (level: AlarmLevel) => navigate(`${mode.historyPath}?alarmNavActive=${navActiveOf(level)}`),
    [mode.historyPath, navigate],
  );

  /** see (isLive false) or live (isLive true) */
  const open = useCallback(
    (alarm: Alarm, isLive: boolean) => {
      const request: AlarmOpenRequest = { info: alarm, isLive };
      if (isLive) soundRef.current?.ringer.liveOpened();
      if (embedded) emitBellEvent('open', request);
      else navigate(mode.livePath, { state: request });
    },
    [embedded, mode.livePath, navigate],
  );

  const enableSound = useCallback(() => void soundRef.current?.player.enable(), []);

  return { state, loading, ringing, soundStatus, readOne, readAll, viewAll, open, enableSound };
}
