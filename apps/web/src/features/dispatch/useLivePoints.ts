import { callAs } from './callAs';
import { ALARM_TYPE, type Alarm, type DevicePush, type Page, type SitePush } from '@bwc/protocol';
import { useCallback, useEffect, useRef } from 'react';
import { usePush, usePushReconnect } from '../../realtime/session/pushChannel';
import type { DevicePointStore, PointPatch } from '../../map/pointStore';
import { MAP_SOS_WINDOW_MS } from './constants';

/** New devices named by pushes are read (get_point) at most this often, together. */
const UNKNOWN_READ_MS = 2_000;
/** pages of 100 unacknowledged SOS alarms read for the map at most */
const SOS_PAGES_MAX = 5;

export function sitePatch(site: SitePush): PointPatch {
  return {
    id: site.device_id,
    lat: site.lat,
    lng: site.lng,
    speed: site.speed,
    course: site.course,
    battery: site.battery,
    gps_time: site.time,
    lineon: site.lineon,
  };
}

export function devicePatch(device: DevicePush): PointPatch {
  return { id: device.device_id, lineon: device.lineon };
}

/** An alarm that puts its device into the SOS state on the map. */
export function isActiveSos(alarm: Pick<Alarm, 'type' | 'device_id' | 'sure' | 'alarm_time'>, nowMs: number): boolean {
  return (
    alarm.type === ALARM_TYPE.SOS &&
    alarm.device_id !== null &&
    alarm.sure === 0 &&
    !(Date.parse(alarm.alarm_time) < nowMs - MAP_SOS_WINDOW_MS)
  );
}

/**
 * Devices with an active SOS: SOS alarms (type 1) not acknowledged and raised within
 * MAP_SOS_WINDOW_MS, read from alarm history (the user needs view on 10104, as for the bell).
 */
async function readActiveSos(): Promise<Set<number>> {
  const nowMs = Date.now();
  const start = new Date(nowMs - MAP_SOS_WINDOW_MS).toISOString();
  const ids = new Set<number>();
  for (let page = 1; page <= SOS_PAGES_MAX; page++) {
    const answer = await callAs<Page<Alarm>>(
      'alarmSearch',
      { type: ALARM_TYPE.SOS, sure: 0, start, page, limit: 100 },
      { silent: true },
    );
    for (const alarm of answer.list) if (isActiveSos(alarm, nowMs)) ids.add(alarm.device_id as number);
    if (page * answer.limit >= answer.total) break;
  }
  return ids;
}

export interface LivePointsOptions {
  /** the user may read alarms (view on 10104): SOS snapshot and alarm pushes */
  alarms: boolean;
  /** read these devices now (get_point) */
  refreshIds: (ids: number[]) => Promise<void>;
  /** re-read every device (after a reconnect) */
  refreshAll: () => Promise<void>;
}

/**
 * Live pushes into the map's store: `site_data` positions and `device_data` online/offline as
 * partial updates of known devices (devices the store does not hold yet are read with get_point),
 * `alarm_data` SOS alarms switch their device to the SOS icon. After a reconnect every snapshot is
 * read again. Returns `refreshSos` (the 20 s refresh calls it: acknowledged or expired SOS end).
 */
export function useLivePoints(store: DevicePointStore, options: LivePointsOptions) {
  const latest = useRef(options);
  latest.current = options;
  // SOS pushed since a snapshot request started must survive that snapshot's answer
  const pushedSos = useRef(new Map<number, number>());

  const refreshSos = useCallback(async () => {
    if (!latest.current.alarms) return;
    const asked = Date.now();
    const ids = await readActiveSos();
    for (const [id, at] of pushedSos.current) {
      if (at >= asked) ids.add(id);
      else pushedSos.current.delete(id);
    }
    store.replaceSos(ids);
  }, [store]);

  // first snapshot as soon as the rights are known
  useEffect(() => {
    if (options.alarms) void refreshSos().catch(() => undefined);
  }, [options.alarms, refreshSos]);

  usePush('site_data', (message) => store.patch(message.data.map(sitePatch)));
  usePush('device_data', (message) => store.patch([devicePatch(message.data)]));
  usePush('alarm_data', (message) => {
    const alarm = message.data;
    if (!latest.current.alarms || !isActiveSos(alarm, Date.now())) return;
    pushedSos.current.set(alarm.device_id as number, Date.now());
    store.setSos(alarm.device_id as number, true);
  });
  usePushReconnect(() => {
    void latest.current.refreshAll().catch(() => undefined);
    void refreshSos().catch(() => undefined);
  });

  // devices a push names that the store does not know (created meanwhile): read them, batched
  useEffect(() => {
    const waiting = new Set<number>();
    const asked = new Map<number, number>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = store.onUnknown((ids) => {
      const nowMs = Date.now();
      for (const id of ids) if (!(nowMs - (asked.get(id) ?? -Infinity) < UNKNOWN_READ_MS * 5)) waiting.add(id);
      if (waiting.size === 0 || timer) return;
      timer = setTimeout(() => {
        timer = null;
        const batch = [...waiting].slice(0, 1_000);
        waiting.clear();
        const at = Date.now();
        for (const id of batch) asked.set(id, at);
        void latest.current.refreshIds(batch).catch(() => undefined);
      }, UNKNOWN_READ_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [store]);

  return { refreshSos };
}
