import type { Alarm } from '@bwc/protocol';
import { useEffect, useRef } from 'react';

/**
 * Events of the alarm bell for the pages it is "embedded" on (spec part 1 section 2): on the
 * Emergency page (dispatch) and the VideoPatrol page (GB) the bell's see / live actions, and the
 * live view a new critical alarm opens there by itself, arrive as `open` events instead of a
 * navigation. Elsewhere the bell navigates to that page with router state `{info, isLive}`
 * (`AlarmOpenRequest`), which the page reads from `useLocation().state`.
 *
 * - `open`: show the alarm (`isLive` false) or open its live view (`isLive` true).
 * - `stopLive`: a type 5 alarm (device offline) arrived: stop that device's live video.
 * Pages call `notifyLiveOpened()` when their live view opens: the bell's sound stops (spec part 1
 * section 4), and `requestBellRefresh()` after changing alarms elsewhere (acknowledged in the
 * history): the bell re-reads its list.
 */
export interface AlarmOpenRequest {
  info: Alarm;
  isLive: boolean;
  /** opened by the alarm's arrival (a new critical alarm on an embedded page), not by the user */
  automatic?: boolean;
}

type Events = {
  open: AlarmOpenRequest;
  stopLive: Alarm;
  liveOpened: void;
  refresh: void;
};

const listeners: { [K in keyof Events]: Set<(payload: Events[K]) => void> } = {
  open: new Set(),
  stopLive: new Set(),
  liveOpened: new Set(),
  refresh: new Set(),
};

export function emitBellEvent<K extends keyof Events>(kind: K, payload: Events[K]): void {
  for (const listener of [...listeners[kind]]) listener(payload);
}

/** Listen to one bell event; returns the unsubscribe function. */
export function onBellEvent<K extends keyof Events>(kind: K, listener: (payload: Events[K]) => void): () => void {
  listeners[kind].add(listener);
  return () => listeners[kind].delete(listener);
}

/** React: `onBellEvent` with the listener kept in a ref. */
export function useBellEvent<K extends keyof Events>(kind: K, listener: (payload: Events[K]) => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => onBellEvent(kind, (payload) => ref.current(payload)), [kind]);
}

/** The page's live view opened: silences the bell. */
export function notifyLiveOpened(): void {
  emitBellEvent('liveOpened', undefined);
}

/** Alarms changed outside the bell (acknowledged, read in the history): the bell re-reads its list. */
export function requestBellRefresh(): void {
  emitBellEvent('refresh', undefined);
}
