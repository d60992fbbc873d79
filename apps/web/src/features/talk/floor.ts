import type { FloorReason, PttStatusNotice, Talker } from '@bwc/protocol';
import { useSyncExternalStore } from 'react';
import type { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';

/** The floor of one group as this console last heard it (notice_ptt_status). */
export interface FloorView {
  talker: Talker | null;
  /** uids waiting, in order */
  queue: number[];
}

/**
 * Who holds the floor of each group, from the console service's notices (it sends them to the
 * consoles of the group's unit, attached or not). One store per connection, listening from its
 * first use on, so that the group tab and the talk panel read the same answer; a group gets a new
 * view object only when its floor changes (a row re-renders only then).
 */
export class FloorStore {
  private readonly floors = new Map<number, FloorView>();
  private readonly listeners = new Set<() => void>();

  constructor(sdk: Pick<RealtimeSdk, 'on'>) {
    sdk.on('notice_ptt_status', (notice) => this.apply(notice));
  }

  apply(notice: Pick<PttStatusNotice, 'tgid' | 'talker' | 'queue'>): void {
    this.floors.set(notice.tgid, { talker: notice.talker, queue: notice.queue });
    for (const listener of [...this.listeners]) listener();
  }

  get(tgid: number): FloorView | undefined {
    return this.floors.get(tgid);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const stores = new WeakMap<object, FloorStore>();

/** The floor store of a connection (made on first use). */
export function floorsOf(sdk: Pick<RealtimeSdk, 'on'>): FloorStore {
  let store = stores.get(sdk);
  if (!store) stores.set(sdk, (store = new FloorStore(sdk)));
  return store;
}

/** The floor of group `tgid`, re-rendering when it changes. */
export function useFloor(sdk: Pick<RealtimeSdk, 'on'>, tgid: number): FloorView | undefined {
  const store = floorsOf(sdk);
  return useSyncExternalStore(store.subscribe, () => store.get(tgid));
}

/**
 * This console's own turn in a group: pressed and waiting for an answer, holding the floor,
 * queued, refused, or back to idle (with why its last turn ended, when it did not end it itself).
 * The service answers req_ptt_on only with notices (the SDK does not wait for its response): the
 * grant is a floor notice naming this console, queued and denied come to it alone with `result`.
 */
export type TalkTurn =
  | { kind: 'idle'; lost?: FloorReason }
  | { kind: 'requesting' }
  /** `hold_ms`: the longest hold; `granted_at`: local ms of the grant notice (no clock skew) */
  | { kind: 'granted'; hold_ms: number; granted_at: number }
  | { kind: 'queued'; position: number }
  | { kind: 'denied'; reason: FloorReason | 'noAnswer' };

export type TurnEvent =
  | { type: 'press' }
  | { type: 'release' }
  /** no notice came for a request in time */
  | { type: 'timeout' }
  | { type: 'notice'; notice: PttStatusNotice; me: number; now: number };

const waiting = (turn: TalkTurn) => turn.kind === 'requesting' || turn.kind === 'queued';

export function nextTurn(turn: TalkTurn, event: TurnEvent): TalkTurn {
  switch (event.type) {
    case 'press':
      return turn.kind === 'idle' || turn.kind === 'denied' ? { kind: 'requesting' } : turn;
    case 'release':
      return turn.kind === 'idle' ? turn : { kind: 'idle' };
    case 'timeout':
      return turn.kind === 'requesting' ? { kind: 'denied', reason: 'noAnswer' } : turn;
    case 'notice': {
      const { notice, me, now } = event;
      if (notice.talker?.uid === me) {
        if (turn.kind === 'granted') return turn;
        // a grant for a request given up meanwhile is followed by the release already sent
        return waiting(turn)
          ? { kind: 'granted', hold_ms: notice.talker.until - notice.talker.since, granted_at: now }
          : turn;
      }
      if (turn.kind === 'granted')
        return notice.previous?.uid === me
          ? { kind: 'idle', ...(notice.reason && notice.reason !== 'released' ? { lost: notice.reason } : {}) }
          : turn;
      if (!waiting(turn)) return turn;
      if (notice.result === 'denied') return { kind: 'denied', reason: notice.reason ?? 'busy' };
      const place = notice.queue.indexOf(me) + 1;
      if (notice.result === 'queued' || (turn.kind === 'queued' && place > 0))
        return { kind: 'queued', position: place || 1 };
      return turn;
    }
  }
}
