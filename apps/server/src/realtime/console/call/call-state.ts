import { CALL_ENDED, CallStatus, type CallNotice, type CallReason } from '@bwc/protocol';

/**
 * The state machine of one voice call, as pure functions: the store applies them under
 * compare-and-set (call-store.ts), so two nodes changing one call at once cannot both win.
 *
 * ringing -> answered (callee) | rejected (callee) | hangup/cancelled (caller) | timeout
 * answered -> hangup (either party)
 * ringing or answered -> hangup/disconnected (a party's connection closed)
 */

export interface CallParty {
  uid: number;
  ext_id: string;
  name: string;
}

export interface CallState {
  callid: number;
  caller: CallParty;
  callee: CallParty;
  call_type: number;
  priority: number;
  /** epoch ms it was placed, answered */
  start: number;
  answered: number | null;
  status: CallStatus;
  reason?: CallReason;
  /** who ended it */
  by?: number;
  /** the unit its records belong to (the callee terminal's) */
  unit_id: number;
}

export type CallAct =
  { kind: 'answer' | 'reject' | 'hangup' | 'disconnect'; uid: number; now: number } | { kind: 'timeout'; now: number };

/** The next state, null when the act changes nothing (a timeout after the answer), or the error key. */
export type Transition = { state: CallState } | { state: null } | { error: string };

export const isParty = (s: Pick<CallState, 'caller' | 'callee'>, uid: number): boolean =>
  s.caller.uid === uid || s.callee.uid === uid;
export const peerOf = (s: Pick<CallState, 'caller' | 'callee'>, uid: number): CallParty =>
  s.caller.uid === uid ? s.callee : s.caller;
export const isEnded = (s: Pick<CallState, 'status'>): boolean => CALL_ENDED.includes(s.status);

const end = (s: CallState, status: CallStatus, reason: CallReason, by?: number): Transition => ({
  state: { ...s, status, reason, ...(by !== undefined ? { by } : {}) },
});

export function next(s: CallState, act: CallAct): Transition {
  const ringing = s.status === CallStatus.RINGING;
  switch (act.kind) {
    case 'timeout':
      return ringing ? end(s, CallStatus.TIMEOUT, 'no_answer') : { state: null };
    case 'disconnect':
      return end(s, CallStatus.HANGUP, 'disconnected', act.uid);
    case 'answer':
      if (!ringing || act.uid !== s.callee.uid) return { error: 'console.call.notAnswerable' };
      return { state: { ...s, status: CallStatus.ANSWERED, answered: act.now } };
    case 'reject':
      if (!ringing || act.uid !== s.callee.uid) return { error: 'console.call.notAnswerable' };
      return end(s, CallStatus.REJECTED, 'declined', act.uid);
    case 'hangup':
      // the callee hanging up a ringing call declines it
      if (ringing && act.uid === s.callee.uid) return end(s, CallStatus.REJECTED, 'declined', act.uid);
      return end(s, CallStatus.HANGUP, ringing ? 'cancelled' : 'hangup', act.uid);
  }
}

/** The call as its parties are told (notice_call_status, and the answers of req_call, req_call_status). */
export function presentCall(s: CallState): CallNotice {
  return {
    callid: s.callid,
    demander: s.caller.uid,
    extdemander: s.caller.ext_id,
    demander_name: s.caller.name,
    target: s.callee.uid,
    exttarget: s.callee.ext_id,
    target_name: s.callee.name,
    call_type: s.call_type,
    priority: s.priority,
    start: s.start,
    answered: s.answered,
    status: s.status,
    ...(s.reason ? { reason: s.reason } : {}),
    ...(s.by !== undefined ? { by: s.by } : {}),
  };
}
