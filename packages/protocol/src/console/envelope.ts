import { z } from 'zod';

/**
 * The console service's message envelope (spec part 1 sections 3 and 7): every message is one
 * JSON text frame carrying `msg_code`, `cmd_type` (0 request, 1 response, 2 notice), `session`
 * and `cbid`; responses add `cmd_status` (0 success) and `error_reason`. Payload fields sit beside
 * the envelope fields at the top level, with the spec's spellings.
 *
 * Codes: a request `req_x` is answered by `rsp_x` (same cbid and session); pushes are `notice_x`;
 * the heartbeat is `heartbeat` both ways. `session` is the media session a request concerns
 * (video play, switch camera, ...), echoed on its response; the login is bound to the connection.
 */
export const CmdType = { REQUEST: 0, RESPONSE: 1, NOTICE: 2 } as const;
export type CmdType = (typeof CmdType)[keyof typeof CmdType];

/**
 * cmd_status values. 0 is success. 2 and 3 are the spec's transform-video answers, 2 is also the
 * logon notice that ends a login taken over by a second logon, 10104 and 10105 the SDK's "not
 * logged in" and "already logged in", 52001 the error notice that invalidates a login. The other
 * values are ours, grouped like HTTP statuses (4xxxx the caller's fault, 5xxxx the service's).
 */
export const CmdStatus = {
  OK: 0,
  /** notice_logon: this login was taken over by a second logon of the same account */
  LOGON_TAKEN_OVER: 2,
  /** rsp_transform_video: videoid is empty ('videoId empty') */
  VIDEO_ID_EMPTY: 2,
  /** rsp_transform_video: videourl is empty ('videoUrl empty') */
  VIDEO_URL_EMPTY: 3,
  /** the request needs a login on this connection */
  NOT_LOGGED_ON: 10104,
  /** req_logon on a connection already logged on */
  ALREADY_LOGGED_ON: 10105,
  /** the message is not valid JSON (or not a JSON object) */
  BAD_JSON: 40001,
  /** msg_code is missing or names no request the service knows */
  UNKNOWN_CODE: 40002,
  /** the message is larger than CONSOLE_MESSAGE_MAX_BYTES */
  TOO_LARGE: 40003,
  /** a field fails its schema; error_reason names the field */
  BAD_PAYLOAD: 40004,
  /** cmd_type of a message sent to the service must be 0 (request) */
  BAD_CMD_TYPE: 40005,
  /** logon refused: unknown account or wrong password (the same answer for both) */
  BAD_CREDENTIALS: 40101,
  /** the caller's role lacks the right, or the target is outside its unit scope */
  FORBIDDEN: 40301,
  /** the code is for the other kind of client (a terminal-only code from a console, ...) */
  WRONG_CLIENT: 40302,
  /** a named user, group, message or file does not exist (or is not visible) */
  NOT_FOUND: 40401,
  /** the request conflicts with the stored state (an external group, an incomplete file, ...) */
  CONFLICT: 40901,
  /** unexpected failure in the service; logged with an id, which error_reason carries */
  SERVER_ERROR: 50001,
  /** the code is known and valid, but its media (call, talk, video) is not available yet */
  NOT_AVAILABLE: 50101,
  /** error notice: a server-side change invalidated the login (session ended, account disabled, device killed) */
  LOGIN_INVALID: 52001,
} as const;
export type CmdStatus = (typeof CmdStatus)[keyof typeof CmdStatus];

/** cbid as the SDK sends it (a string, or a number); answered unchanged. */
export const Cbid = z.union([z.string().max(64), z.number()]);
/** session as the wire carries it (a media session id, string or number). */
export const SessionId = z.union([z.string().max(64), z.number()]);

/** The envelope of a message sent to the service; the dispatcher reads it before any payload. */
export const RequestEnvelope = z.object({
  msg_code: z
    .string({ error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(64, { error: 'validation.tooLong' }),
  cmd_type: z.literal(CmdType.REQUEST, { error: 'validation.choice' }).default(CmdType.REQUEST),
  session: SessionId.optional(),
  cbid: Cbid.optional(),
});
export type RequestEnvelope = z.infer<typeof RequestEnvelope>;

/** Fields every response carries besides its payload. */
export const ResponseFields = {
  cmd_type: z.literal(CmdType.RESPONSE),
  session: SessionId.optional(),
  cbid: Cbid.optional(),
  cmd_status: z.number().int(),
  error_reason: z.string(),
};

/** Fields every notice carries besides its payload (a notice's cmd_status is 0 unless it says otherwise). */
export const NoticeFields = {
  cmd_type: z.literal(CmdType.NOTICE),
  session: SessionId.optional(),
  cbid: Cbid.optional(),
  cmd_status: z.number().int().optional(),
  error_reason: z.string().optional(),
};

/** `req_x` -> `rsp_x`; `heartbeat` answers `heartbeat`; anything else answers `rsp_error`. */
export function responseCodeOf(requestCode: string | undefined): string {
  if (requestCode === 'heartbeat') return 'heartbeat';
  if (requestCode && /^req_[a-z0-9_]{1,60}$/.test(requestCode)) return `rsp_${requestCode.slice(4)}`;
  return 'rsp_error';
}
