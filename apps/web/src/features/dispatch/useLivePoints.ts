import { ALARM_TYPE, MAP_SOS_WINDOW_MS, type Alarm, type DevicePoint, type DevicePush, type SitePush } from '@bwc/protocol';
import { useCallback, useEffect, useRef } from 'react';
import { usePush, usePushReconnect } from '../../realtime/session/pushChannel';
import type { DevicePointStore, PointPatch } from '../../map/pointStore';

/** New devices named by pushes are read (get_point) at most this often, together. */
const UNKNOWN_READ_MS = 2_000;

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
 * The SOS state of a points answer requested at `asked` (ms) into the store: a full answer
 * replaces the whole set, a partial one (get_point) the state of the devices it names. `pushed`
 * (device id -> ms) holds the SOS pushed meanwhile: one pushed after the request was sent
 * survives the answer, which was read before it; older ones are forgotten once answered.
 */
export function applySnapshotSos(
  store: Pick<DevicePointStore, 'replaceSos' | 'setSos'>,
  points: readonly DevicePoint[],
  full: boolean,
  asked: number,
  pushed: Map<number, number>,
): void {
  const on = new Set(points.filter((p) => p.sos === 1).map((p) => p.id));
  const answered = full ? null : new Set(points.map((p) => p.id));
  for (const [id, at] of pushed) {
    if (at >= asked) on.add(id);
    else if (!answered || answered.has(id)) pushed.delete(id);
  }
  if (full) store.replaceSos(on);
  else for (const p of points) store.setSos(p.id, on.has(p.id));
}

export interface LivePointsOptions {
  /** the user may read the dispatch alarms (view on 10104): pushed SOS alarms switch the SOS state */
  alarms: boolean;
  /** read these devices now (get_point) */
  refreshIds: (ids: number[]) => Promise<void>;
  /** re-read every device (after a reconnect) */
  refreshAll: () => Promise<void>;
}

/**
 * Live pushes into the map's store: `site_data` positions and `device_data` online/offline as
 * partial updates of known devices (devices the store does not hold yet are read with get_point),
 * `alarm_data` SOS alarms switch their device to the SOS icon. After a reconnect every device is
 * read again. Returns `applySnapshot`, which takes the SOS state of each point read (the server
 * puts it in the point snapshot: acknowledged or expired SOS end there).
 */
export function useLivePoints(store: DevicePointStore, options: LivePointsOptions) {
  const latest = useRef(options);
  latest.current = options;
  // SOS pushed since a snapshot request started must survive that snapshot's answer
  const pushedSos = useRef(new Map<number, number>());

  const applySnapshot = useCallback(
    (points: readonly DevicePoint[], full: boolean, asked: number) =>
      applySnapshotSos(store, points, full, asked, pushedSos.current),
    [store],
  );

  usePush('site_data', (message) => store.patch(message.data.map(sitePatch)));
  usePush('device_data', (message) => store.patch([devicePatch(message.data)]));
  usePush('alarm_data', (message) => {
    const alarm = message.data;
    if (!latest.current.alarms || !isActiveSos(alarm, Date.now())) return;
    pushedSos.current.set(alarm.device_id as number, Date.now());
    store.setSos(alarm.device_id as number, true);
  });
  usePushReconnect(() => void latest.current.refreshAll().catch(() => undefined));

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

  return { applySnapshot };
}
