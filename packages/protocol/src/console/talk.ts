import { z } from 'zod';
import { Flag01, intIn, maybe, StringLike, Tgid } from './fields';

/**
 * Group talk (issue 14): floor control of push-to-talk, the audio frames, the recorded bursts.
 * The spec names the codes (req_ptt_on, req_ptt_off, req_ptt_replay; notice_ptt_status,
 * notice_ptt_replay) and the fields tgid, refid, state; the rest is ours and follows MCPTT floor
 * control (3GPP TS 24.380): one talker per group, requests granted, queued or denied with a reason,
 * a maximum hold, priorities with emergency highest that pre-empt a lower talker.
 */

/** Talk priorities: a terminal, a dispatcher console, an emergency talker (any client, `emergency` 1). */
export const TalkPriority = { TERMINAL: 1, CONSOLE: 2, EMERGENCY: 3 } as const;
export type TalkPriority = (typeof TalkPriority)[keyof typeof TalkPriority];

/** Default longest hold of the floor before it is taken back (seconds; setting `ptt_max_hold_s`, 5-600). */
export const PTT_MAX_HOLD_S_DEFAULT = 60;
export const PTT_MAX_HOLD_S_MIN = 5;
export const PTT_MAX_HOLD_S_MAX = 600;
/** How many may wait for the floor of one group. */
export const PTT_QUEUE_MAX = 16;

/** req_ptt_on: ask for the floor of a group the caller is attached to with speak (req_enter_group). */
export const PttOnRequest = z.object({
  tgid: Tgid,
  /** ours: 1 = an emergency talk (highest priority, pre-empts anyone) */
  emergency: Flag01.default(0),
  refid: maybe(StringLike(64)),
  state: maybe(intIn(0, 9)),
});
export type PttOnRequest = z.infer<typeof PttOnRequest>;
/** req_ptt_off: give the floor back, or leave the queue. */
export const PttOffRequest = z.object({ tgid: Tgid, refid: maybe(StringLike(64)), state: maybe(intIn(0, 9)) });
export type PttOffRequest = z.infer<typeof PttOffRequest>;
/** req_ptt_release (ours): a dispatcher takes the floor back from whoever holds it (edit on the talk screens). */
export const PttReleaseRequest = z.object({ tgid: Tgid });

/** What became of a floor request. */
export const FloorResult = z.enum(['granted', 'queued', 'denied']);
export type FloorResult = z.infer<typeof FloorResult>;
/** Why a request was denied or a talker lost the floor. */
export const FloorReason = z.enum([
  /** requested: somebody of equal or higher priority talks and the queue is full */
  'busy',
  /** requested: the caller is not attached to the group with speak */
  'not_attached',
  /** lost: a higher priority talker took it */
  'preempted',
  /** lost: the maximum hold passed */
  'expired',
  /** lost: a dispatcher released it */
  'forced',
  /** lost: the talker's connection closed */
  'disconnected',
  /** lost: the talker gave it back */
  'released',
  /** lost: the talker left the group */
  'left',
]);
export type FloorReason = z.infer<typeof FloorReason>;

/** The talker holding a group's floor. */
export const Talker = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  name: z.string(),
  priority: z.number().int(),
  emergency: z.union([z.literal(0), z.literal(1)]),
  /** epoch ms of the grant */
  since: z.number().int(),
  /** epoch ms when the maximum hold takes it back */
  until: z.number().int(),
  /** the burst being recorded (req_ptt_replay's refid) */
  refid: z.string(),
});
export type Talker = z.infer<typeof Talker>;

/** Answer of req_ptt_on (the SDK calls back at once; the outcome also comes as notice_ptt_status). */
export const PttOnAnswer = z.object({
  tgid: z.number().int(),
  result: FloorResult,
  reason: FloorReason.optional(),
  /** queued: place in the queue, 1 = next */
  position: z.number().int().optional(),
  talker: Talker.nullable(),
  max_hold_s: z.number().int(),
});
export const PttOffAnswer = z.object({ tgid: z.number().int(), released: Flag01 });

/**
 * notice_ptt_status: the floor of a group changed; to its members, the users attached to it and
 * the consoles of its unit. `state` 1 = somebody talks (`talker`), 0 = idle. `reason` says why the
 * previous talker lost it (with `previous`), `queue` lists who waits, in order.
 */
export const PttStatusNotice = z.object({
  tgid: z.number().int(),
  state: z.union([z.literal(0), z.literal(1)]),
  talker: Talker.nullable(),
  previous: Talker.nullable(),
  reason: FloorReason.optional(),
  queue: z.array(z.number().int()),
  /** ours: to one requester whose request was queued or denied */
  result: FloorResult.optional(),
});
export type PttStatusNotice = z.infer<typeof PttStatusNotice>;

/** What a record is: a burst of group talk, or one direction of a voice call (call.ts). */
export const TalkRecordKind = z.enum(['group', 'call']);
export type TalkRecordKind = z.infer<typeof TalkRecordKind>;

/**
 * One recorded burst (a talker's turn on the floor) or one direction of a call: `uid` talks and,
 * for a call, `peer_*` hears; `tgid` is then the call id and `tg_name` empty.
 */
export const TalkRecord = z.object({
  refid: z.string(),
  /** absent: group (records of servers before calls) */
  kind: TalkRecordKind.optional(),
  tgid: z.number().int(),
  tg_name: z.string(),
  uid: z.number().int(),
  ext_id: z.string(),
  name: z.string(),
  emergency: z.union([z.literal(0), z.literal(1)]),
  /** epoch ms */
  start: z.number().int(),
  stop: z.number().int(),
  frames: z.number().int(),
  bytes: z.number().int(),
  /** a call: the other party (null for group bursts) */
  peer_uid: z.number().int().nullable().optional(),
  peer_ext_id: z.string().nullable().optional(),
  peer_name: z.string().nullable().optional(),
});
export type TalkRecord = z.infer<typeof TalkRecord>;

/**
 * req_ptt_records (ours): the recorded bursts of a group (`tgid`), or the records the caller may
 * hear (a console: of its units; a terminal: of its groups and its own calls), of one `kind` or
 * both, newest first.
 */
export const PttRecordsRequest = z.object({
  tgid: maybe(Tgid),
  kind: maybe(TalkRecordKind),
  start: intIn(0, 1_000_000).default(0),
  count: intIn(1, 200).default(50),
});
export const PttRecordsAnswer = z.object({ total: z.number().int(), records: z.array(TalkRecord) });

/** req_ptt_replay: a recorded burst, by refid; answered (and noticed) with a signed Ogg Opus address valid 10 minutes. */
export const PttReplayRequest = z.object({ tgid: Tgid, refid: StringLike(64), state: maybe(intIn(0, 9)) });
export const PttReplayAnswer = z.object({ record: TalkRecord, url: z.string(), expires: z.number().int() });
/** notice_ptt_replay: to the caller, the same as the answer. */
export const PttReplayNotice = PttReplayAnswer;

/**
 * Audio frames travel as binary websocket frames on the console-service connection (text frames
 * stay JSON), one Opus packet each, 48 kHz mono, 20 ms:
 *
 * | offset | size | field                                                          |
 * | ------ | ---- | -------------------------------------------------------------- |
 * | 0      | 1    | kind: 1 = group talk, 2 = voice call, 3 = video conference     |
 * | 1      | 1    | flags: bit 0 = emergency talk                                  |
 * | 2      | 4    | tgid (uint32, big endian); a call: the call id                 |
 * | 6      | 4    | talker uid (the server writes it; a sender puts 0)             |
 * | 10     | 2    | sequence number of the burst (uint16, wraps)                   |
 * | 12     | 4    | sender's capture clock, ms (uint32, wraps; for latency figures) |
 * | 16     | ...  | the Opus packet (1-1275 bytes)                                 |
 *
 * The server relays a group frame only from the client holding the group's floor, to every other
 * user attached to the group with hear, on every node; a call frame only from a party of an
 * answered call, to the other party alone; a conference frame from a participant of the group's
 * conference to every other participant (conference.ts); other frames are dropped and counted.
 */
export const AUDIO_HEADER_BYTES = 16;
export const AUDIO_OPUS_MAX_BYTES = 1275;
export const AudioKind = { GROUP: 1, CALL: 2, CONFERENCE: 3 } as const;
export const AUDIO_SAMPLE_RATE = 48_000;
export const AUDIO_FRAME_MS = 20;

export interface AudioFrame {
  kind: number;
  flags: number;
  tgid: number;
  uid: number;
  seq: number;
  clock: number;
  opus: Uint8Array;
}

/** Write a frame (header + packet) into a new buffer. */
export function encodeAudioFrame(f: AudioFrame): Uint8Array {
  const out = new Uint8Array(AUDIO_HEADER_BYTES + f.opus.byteLength);
  const view = new DataView(out.buffer);
  view.setUint8(0, f.kind);
  view.setUint8(1, f.flags);
  view.setUint32(2, f.tgid >>> 0);
  view.setUint32(6, f.uid >>> 0);
  view.setUint16(10, f.seq & 0xffff);
  view.setUint32(12, f.clock >>> 0);
  out.set(f.opus, AUDIO_HEADER_BYTES);
  return out;
}

/** Read a frame of `kind`; null when it is too short, too long or of another kind. */
export function decodeAudioFrame(data: Uint8Array, expected: number = AudioKind.GROUP): AudioFrame | null {
  const size = data.byteLength - AUDIO_HEADER_BYTES;
  if (size < 1 || size > AUDIO_OPUS_MAX_BYTES) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const kind = view.getUint8(0);
  if (kind !== expected) return null;
  return {
    kind,
    flags: view.getUint8(1),
    tgid: view.getUint32(2),
    uid: view.getUint32(6),
    seq: view.getUint16(10),
    clock: view.getUint32(12),
    opus: data.subarray(AUDIO_HEADER_BYTES),
  };
}
