import { call } from '../../api/http';
import { MAP_REFRESH_MS, type DevicePoint } from '@bwc/protocol';
import { useCallback, useEffect, useRef } from 'react';
import type { DevicePointStore } from '../../map/pointStore';

export interface RefreshOptions {
  /** locating mode: only the tracked ids are refreshed (get_point); otherwise a full refresh */
  locating: boolean;
  tracked: ReadonlySet<number>;
  /** true while an info box is open or a shape is being drawn: the timer skips its turn */
  paused: boolean;
  /** every points answer, with whether it holds every device and when it was requested (ms) */
  onPoints?: (points: DevicePoint[], full: boolean, asked: number) => void;
}

/**
 * Keeps the store fed: a full load at once, then every MAP_REFRESH_MS (20 s) a full refresh
 * (getUnitDevicePoint) or, in locating mode, a refresh of the tracked ids (get_point). A turn is
 * skipped while paused. `refreshIds` refreshes some devices now (after a command). Each answer
 * also carries the devices' SOS state (`onPoints`). Between turns the live pushes (useLivePoints)
 * keep positions and states current.
 */
export function usePointRefresh(store: DevicePointStore, options: RefreshOptions) {
  const latest = useRef(options);
  latest.current = options;

  const full = useCallback(async () => {
    const asked = Date.now();
    const points = await call('gisUnitDevicePoint', {}, { silent: true });
    store.push(points, true);
    latest.current.onPoints?.(points, true, asked);
  }, [store]);

  const refreshIds = useCallback(
    async (ids: number[]) => {
      if (ids.length === 0) return;
      const asked = Date.now();
      const points = await call('gisGetPoint', { ids }, { silent: true });
      store.push(points, false);
      latest.current.onPoints?.(points, false, asked);
    },
    [store],
  );

  useEffect(() => {
    void full().catch(() => undefined);
    const timer = setInterval(() => {
      const { locating, tracked, paused } = latest.current;
      if (paused) return;
      const turn = locating ? refreshIds([...tracked]) : full();
      void turn.catch(() => undefined);
    }, MAP_REFRESH_MS);
    return () => clearInterval(timer);
  }, [full, refreshIds]);

  return { refreshAll: full, refreshIds };
}
