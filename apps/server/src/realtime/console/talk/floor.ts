import { PTT_QUEUE_MAX, type FloorReason, type FloorResult, type Talker } from '@bwc/protocol';

/**
 * Floor control of one group, as pure functions over its state (MCPTT floor control, 3GPP TS
 * 24.380, reduced to what a dispatch console needs): one talker at a time; a request is granted
 * when the floor is free, pre-empts a talker of lower priority (emergency highest), and otherwise
 * waits in a queue ordered by priority then arrival (at most PTT_QUEUE_MAX) or is denied busy.
 * A talker loses the floor when it gives it back, its maximum hold passes, a dispatcher releases
 * it, its connection closes or it leaves the group; the first in the queue then gets it.
 * The state is stored by a FloorStore (one node: memory; several: Redis) and changed only
 * through these functions, so every node applies the same rules.
 */

/** Who asks: the party and its priority. */
export interface Party {
  uid: number;
  ext_id: string;
  name: string;
  priority: number;
  emergency: 0 | 1;
}

export interface Waiting extends Party {
  /** epoch ms of the request */
  at: number;
}

export interface FloorState {
  talker: Talker | null;
  queue: Waiting[];
}

export const EMPTY_FLOOR: FloorState = { talker: null, queue: [] };

/** A change of the floor: who had it, who has it now, and why the previous one lost it. */
export interface FloorChange {
  previous: Talker | null;
  talker: Talker | null;
  reason?: FloorReason;
}

export interface Outcome {
  state: FloorState;
  /** changes of the talker, in order (an expiry then a grant, a pre-emption, ...) */
  changes: FloorChange[];
}

export interface RequestOutcome extends Outcome {
  result: FloorResult;
  reason?: FloorReason;
  /** place in the queue (1 = next) */
  position?: number;
}

export interface Clock {
  now: number;
  maxHoldMs: number;
  /** id of a new burst */
  refid: () => string;
}

function grant(party: Party, clock: Clock): Talker {
  return {
    uid: party.uid,
    ext_id: party.ext_id,
    name: party.name,
    priority: party.priority,
    emergency: party.emergency,
    since: clock.now,
    until: clock.now + clock.maxHoldMs,
    refid: clock.refid(),
  };
}

/** The talker loses the floor for `reason`; the first waiting party gets it. */
function handOver(state: FloorState, reason: FloorReason, clock: Clock): Outcome {
  const previous = state.talker;
  if (!previous) return { state, changes: [] };
  const [next, ...queue] = state.queue;
  const talker = next ? grant(next, clock) : null;
  return { state: { talker, queue }, changes: [{ previous, talker, reason }] };
}

/** The talker whose maximum hold passed loses the floor. */
export function expire(state: FloorState, clock: Clock): Outcome {
  if (!state.talker || state.talker.until > clock.now) return { state, changes: [] };
  return handOver(state, 'expired', clock);
}

const byPriority = (a: Waiting, b: Waiting) => b.priority - a.priority || a.at - b.at;

/** A party asks for the floor. */
export function request(before: FloorState, party: Party, clock: Clock): RequestOutcome {
  const expired = expire(before, clock);
  const state = expired.state;
  const changes = [...expired.changes];
  const { talker } = state;
  if (talker?.uid === party.uid) {
    // asked again while talking: an emergency raises the priority of the running turn
    if (party.emergency && !talker.emergency) {
      const raised = { ...talker, emergency: 1 as const, priority: Math.max(talker.priority, party.priority) };
      return {
        state: { ...state, talker: raised },
        changes: [...changes, { previous: talker, talker: raised }],
        result: 'granted',
      };
    }
    return { state, changes, result: 'granted' };
  }
  const queue = state.queue.filter((w) => w.uid !== party.uid);
  if (!talker) {
    const next = grant(party, clock);
    return {
      state: { talker: next, queue },
      changes: [...changes, { previous: null, talker: next }],
      result: 'granted',
    };
  }
  if (party.priority > talker.priority) {
    const next = grant(party, clock);
    return {
      state: { talker: next, queue },
      changes: [...changes, { previous: talker, talker: next, reason: 'preempted' }],
      result: 'granted',
    };
  }
  const waiting = state.queue.find((w) => w.uid === party.uid);
  if (!waiting && queue.length >= PTT_QUEUE_MAX) return { state, changes, result: 'denied', reason: 'busy' };
  const entry: Waiting = { ...party, at: waiting?.at ?? clock.now };
  const sorted = [...queue, entry].sort(byPriority);
  return {
    state: { talker, queue: sorted },
    changes,
    result: 'queued',
    position: sorted.findIndex((w) => w.uid === party.uid) + 1,
  };
}

/**
 * A party lets go: the talker gives the floor back (`released`, or `disconnected`, `left`), a
 * waiting party leaves the queue. `released` says whether it held the floor.
 */
export function release(
  before: FloorState,
  uid: number,
  reason: FloorReason,
  clock: Clock,
): Outcome & { released: boolean } {
  const expired = expire(before, clock);
  const state = { ...expired.state, queue: expired.state.queue.filter((w) => w.uid !== uid) };
  if (state.talker?.uid !== uid) return { state, changes: expired.changes, released: false };
  const out = handOver(state, reason, clock);
  return { state: out.state, changes: [...expired.changes, ...out.changes], released: true };
}

/** A dispatcher takes the floor back from whoever holds it. */
export function forceRelease(before: FloorState, clock: Clock): Outcome & { released: boolean } {
  const expired = expire(before, clock);
  if (!expired.state.talker) return { ...expired, released: false };
  const out = handOver(expired.state, 'forced', clock);
  return { state: out.state, changes: [...expired.changes, ...out.changes], released: true };
}

export const isEmpty = (s: FloorState) => !s.talker && s.queue.length === 0;
