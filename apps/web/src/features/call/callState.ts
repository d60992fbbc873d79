import { CALL_ENDED, CallStatus, type CallNotice, type CallReason } from '@bwc/protocol';

/**
 * What the call panel shows of its one call, from the service's notice_call_status (req_call and
 * req_call_status are fire-and-forget: every outcome comes as a notice). `placing`: asked, no
 * notice yet; `ringing`: the terminal rings; `incoming`: a call rings for this console.
 */
export type CallPhase = 'placing' | 'ringing' | 'incoming' | 'answered' | 'ended';

export interface CallView {
  phase: CallPhase;
  /** 0 until the service names it (a call refused at once never gets one) */
  callid: number;
  peer: { uid: number; name: string };
  /** epoch ms it was answered */
  answeredAt: number | null;
  /** how it ended (CallStatus), null while it is not over */
  outcome: number | null;
  reason?: CallReason;
  /** who ended it */
  by?: number;
}

export function placing(peer: { uid: number; name: string }): CallView {
  return { phase: 'placing', callid: 0, peer, answeredAt: null, outcome: null };
}

/** A call that rings for this console (`me`). */
export function incoming(notice: CallNotice): CallView {
  return {
    phase: 'incoming',
    callid: notice.callid,
    peer: { uid: notice.demander, name: notice.demander_name },
    answeredAt: null,
    outcome: null,
  };
}

/**
 * The view after a notice; the same view when the notice is not of this call. A call this console
 * places is known by its callee until the first notice names its id (a refusal keeps id 0).
 */
export function nextCall(view: CallView, notice: CallNotice, me: number): CallView {
  if (notice.demander !== me && notice.target !== me) return view;
  const ours = view.callid ? notice.callid === view.callid : notice.demander === me && notice.target === view.peer.uid;
  if (!ours || view.phase === 'ended') return view;
  const callid = notice.callid || view.callid;
  if (CALL_ENDED.includes(notice.status))
    return { ...view, callid, phase: 'ended', outcome: notice.status, reason: notice.reason, by: notice.by };
  if (notice.status === CallStatus.ANSWERED)
    return { ...view, callid, phase: 'answered', answeredAt: notice.answered ?? Date.now() };
  if (notice.status === CallStatus.RINGING && view.phase === 'placing') return { ...view, callid, phase: 'ringing' };
  return view;
}

/**
 * This console's connection started over (a language switch, a new address): the service ends the
 * call of a party whose connection closes, and the new connection is never told.
 */
export function disconnected(view: CallView): CallView {
  return isLive(view) ? { ...view, phase: 'ended', outcome: CallStatus.HANGUP, reason: 'disconnected' } : view;
}

/** The call is up or on its way: closing the panel hangs it up. */
export const isLive = (view: CallView) => view.phase !== 'ended';
