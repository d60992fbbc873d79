import { randomInt } from 'node:crypto';
import type { SharedState } from '../../../cluster/cluster';
import { isEnded, type CallState } from './call-state';

/** A call's entries outlive its last change by at most this long (a node that died mid-call). */
const CALL_TTL_MS = 24 * 3_600_000;
/** Attempts of one change when other nodes keep changing the same call. */
const ATTEMPTS = 50;

const callKey = (callid: number) => `call:${callid}`;
const partyKey = (uid: number) => `call.party:${uid}`;

/** Why a call could not be placed. */
export type Refusal = 'busy' | 'caller_busy';

/**
 * The calls of the cluster in its shared state (one node: memory; several: Redis): `call:<id>`
 * holds a call, `call.party:<uid>` the call a user is in. Every write is a compare-and-set, so a
 * user is in one call at most even when two nodes call it at once, and two nodes answering and
 * hanging up one call at once agree on which came first.
 */
export class CallStore {
  constructor(private readonly shared: SharedState) {}

  async read(callid: number): Promise<CallState | null> {
    const text = await this.shared.get(callKey(callid));
    return text ? (JSON.parse(text) as CallState) : null;
  }

  /** The call `uid` is in, if any. */
  async callOf(uid: number): Promise<number | null> {
    const text = await this.shared.get(partyKey(uid));
    return text ? Number(text) : null;
  }

  /** Make `uid` a party of `callid`, unless it is in a call that still exists. */
  private async claim(uid: number, callid: number): Promise<boolean> {
    const held = await this.shared.get(partyKey(uid));
    // a call that is gone (its node died before it ended) does not keep its parties busy
    if (held !== null && (await this.read(Number(held)))) return false;
    return this.shared.compareAndSet(partyKey(uid), held, String(callid), CALL_TTL_MS);
  }

  private async free(uid: number, callid: number): Promise<void> {
    await this.shared.compareAndSet(partyKey(uid), String(callid), null, CALL_TTL_MS);
  }

  /** Store a new ringing call under a fresh id, both parties free; else why not. */
  async open(call: Omit<CallState, 'callid'>): Promise<CallState | Refusal> {
    for (let i = 0; i < ATTEMPTS; i += 1) {
      const callid = randomInt(1, 2_147_483_647);
      if (!(await this.claim(call.caller.uid, callid))) return 'caller_busy';
      if (!(await this.claim(call.callee.uid, callid))) {
        await this.free(call.caller.uid, callid);
        return 'busy';
      }
      const state: CallState = { ...call, callid };
      if (await this.shared.compareAndSet(callKey(callid), null, JSON.stringify(state), CALL_TTL_MS)) return state;
      // the id is taken (a call of another node): another one
      await this.free(call.caller.uid, callid);
      await this.free(call.callee.uid, callid);
    }
    throw new Error('no free call id');
  }

  /**
   * Apply `change` to the call (null: no change) and write the result; an ended call is removed
   * with its parties' entries. Null when the call does not exist (any more).
   */
  async update(callid: number, change: (call: CallState) => CallState | null): Promise<CallState | null> {
    const key = callKey(callid);
    for (let i = 0; i < ATTEMPTS; i += 1) {
      const text = await this.shared.get(key);
      if (!text) return null;
      const before = JSON.parse(text) as CallState;
      const after = change(before);
      if (!after) return null;
      const ended = isEnded(after);
      if (!(await this.shared.compareAndSet(key, text, ended ? null : JSON.stringify(after), CALL_TTL_MS))) continue;
      if (ended) {
        await this.free(after.caller.uid, callid);
        await this.free(after.callee.uid, callid);
      }
      return after;
    }
    throw new Error(`call ${callid}: too many concurrent changes`);
  }
}
