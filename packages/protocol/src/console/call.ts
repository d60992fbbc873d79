import { z } from 'zod';
import { intIn, maybe, numeric, OptionalExtId, OptionalUid, StringLike } from './fields';

/**
 * Voice calls between two users (issue 14 section 4): a console calls a terminal, full duplex Opus
 * over the console-service websocket (binary frames of kind AudioKind.CALL, talk.ts). The spec
 * names the codes (req_call, req_call_status, req_dtmf; notice_call_status) and the fields
 * (demander, extdemander, target, exttarget, channel, call_type, priority, start, telno, status;
 * DTMF: telno, value); `callid`, `reason`, `by` and the names are ours. The codes are
 * fire-and-forget in the SDK: every outcome also reaches the caller as notice_call_status.
 */

/** `status` of a call: ringing, answered, and the ways it ends. */
export const CallStatus = {
  RINGING: 1,
  ANSWERED: 2,
  HANGUP: 3,
  BUSY: 4,
  REJECTED: 5,
  TIMEOUT: 6,
  /** the callee is not logged on */
  UNREACHABLE: 7,
} as const;
export type CallStatus = (typeof CallStatus)[keyof typeof CallStatus];
/** Statuses after which the call is over. */
export const CALL_ENDED: readonly number[] = [
  CallStatus.HANGUP,
  CallStatus.BUSY,
  CallStatus.REJECTED,
  CallStatus.TIMEOUT,
  CallStatus.UNREACHABLE,
];

/** `call_type`: voice works; video calls come later (answered NOT_AVAILABLE). */
export const CallType = { VOICE: 0, VIDEO: 1 } as const;

/** Why a call ended (keys `console.call.reason.<reason>` of the console catalogue say it in words). */
export const CallReason = z.enum([
  /** unreachable: the callee is not logged on */
  'offline',
  /** busy: the callee is in another call */
  'busy',
  /** busy: the caller is in another call */
  'caller_busy',
  /** rejected by the callee */
  'declined',
  /** timeout: nobody answered while it rang */
  'no_answer',
  /** hangup: the caller gave up while it rang */
  'cancelled',
  /** hangup: a party hung up (`by`) */
  'hangup',
  /** hangup: a party's connection closed (`by`) */
  'disconnected',
]);
export type CallReason = z.infer<typeof CallReason>;

/** Default time a call rings before it times out (seconds). */
export const CALL_RING_TIMEOUT_S_DEFAULT = 30;
export const CALL_RING_TIMEOUT_S_MIN = 5;
export const CALL_RING_TIMEOUT_S_MAX = 120;

/** A call id (uint32 in the audio frame header's tgid field; never 0). */
export const CallId = intIn(1, 2_147_483_647);

const small = intIn(0, 9_999);
const optionalSmall = maybe(small);

/** req_call: call a terminal (by target, or exttarget its cluster number). */
export const CallRequest = z
  .object({
    demander: OptionalUid,
    extdemander: OptionalExtId,
    target: OptionalUid,
    exttarget: OptionalExtId,
    channel: optionalSmall,
    call_type: maybe(intIn(0, 1)).default(CallType.VOICE),
    priority: maybe(intIn(0, 15)).default(0),
    start: optionalSmall,
    telno: maybe(StringLike(32)),
    status: optionalSmall,
  })
  .refine((c) => c.target !== undefined || c.exttarget !== undefined, {
    error: 'validation.required',
    path: ['target'],
  });
export type CallRequest = z.infer<typeof CallRequest>;

/**
 * req_call_status: answer or reject (the callee, while it rings), hang up (either party) a call, by `callid` (absent: the sender's call; a
 * user is in one call at a time). The party fields are accepted as the SDK sends them.
 */
export const CallStatusRequest = z.object({
  callid: maybe(CallId),
  demander: OptionalUid,
  extdemander: OptionalExtId,
  target: OptionalUid,
  exttarget: OptionalExtId,
  channel: optionalSmall,
  call_type: optionalSmall,
  priority: optionalSmall,
  start: optionalSmall,
  telno: maybe(StringLike(32)),
  status: numeric(
    z.union([z.literal(CallStatus.ANSWERED), z.literal(CallStatus.HANGUP), z.literal(CallStatus.REJECTED)], {
      error: 'validation.choice',
    }),
  ),
});
export type CallStatusRequest = z.infer<typeof CallStatusRequest>;

/** req_dtmf: digits to the other party of the sender's answered call (`callid` absent: its call). */
export const DtmfRequest = z.object({
  callid: maybe(CallId),
  telno: maybe(StringLike(32)),
  value: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z.string({ error: 'validation.required' }).regex(/^[0-9*#A-Da-d]{1,16}$/, { error: 'validation.invalid' }),
  ),
});

const CallParty = {
  demander: z.number().int(),
  extdemander: z.string(),
  demander_name: z.string(),
  target: z.number().int(),
  exttarget: z.string(),
  target_name: z.string(),
};

/**
 * notice_call_status, to both parties of every change (also the answer of req_call and
 * req_call_status): the call, its `status` and, once over, why (`reason`, `by` who ended it).
 */
export const CallNotice = z.object({
  callid: z.number().int(),
  ...CallParty,
  call_type: z.number().int(),
  priority: z.number().int(),
  /** epoch ms the call was placed */
  start: z.number().int(),
  /** epoch ms it was answered */
  answered: z.number().int().nullable(),
  status: z.number().int(),
  reason: CallReason.optional(),
  by: z.number().int().optional(),
});
export type CallNotice = z.infer<typeof CallNotice>;
export const CallAnswer = CallNotice;

/** Answer of req_dtmf. */
export const DtmfAnswer = z.object({ callid: z.number().int(), value: z.string() });
/** notice_dtmf (ours): digits the other party of a call keyed. */
export const DtmfNotice = z.object({
  callid: z.number().int(),
  from: z.number().int(),
  extfrom: z.string(),
  telno: z.string().optional(),
  value: z.string(),
});
