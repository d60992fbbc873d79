import { z } from 'zod';
import { NewPassword } from '../validators';
import { maybe, numeric, RequiredText, StringLike, Text } from './fields';

/**
 * Session family: logon, logout, password, heartbeat (spec part 1 sections 3, 4 and 5).
 *
 * Who logs on:
 * - consoles (user_type 1) with the console-service account that gis info hands each console user
 *   in `group_api` (`username`, `djpwd`, `orgid`): the account is the user's own, its password is
 *   bound to the user's current HTTP session and ends with it (error notice 52001);
 * - terminals (user_type 0): devices with a cluster number (jq_hostcode), with their device
 *   credentials (logon_name: hostbody, IMEI or cluster number; passwd: the device secret).
 *
 * A second logon of an account that is logged on elsewhere takes the login over: the earlier
 * connection gets `notice_logon` with cmd_status 2 and is closed. A logon on a connection that is
 * already logged on answers 10105. The answer's `token` (with the logon's clientid) lets a new
 * connection resume the login while it is alive: `heartbeat {clientid, token}`.
 */

export const UserType = { TERMINAL: 0, CONSOLE: 1 } as const;
export type UserType = (typeof UserType)[keyof typeof UserType];
export const UserTypeField = numeric(z.union([z.literal(0), z.literal(1)], { error: 'validation.choice' }));

/**
 * group_api of gis info (spec part 2 section 3): the console-service account the server hands each
 * console user. `switch` 1 when the user's role may use the service (view on Emergency, Cluster
 * or Message push); `ip` and `port` where the console reaches it, `path` the websocket path there
 * (ours: '/' on the dedicated port, `/ws/console` on the main port); `orgid` the user's unit code;
 * `username` / `djpwd` the logon name and password (bound to the user's HTTP session); `islogin` 1
 * while the account is logged on to the service.
 */
export const GroupApi = z.object({
  switch: z.union([z.literal(0), z.literal(1)]),
  ip: z.string(),
  port: z.number().int(),
  path: z.string(),
  orgid: z.string(),
  username: z.string(),
  djpwd: z.string(),
  islogin: z.union([z.literal(0), z.literal(1)]),
});
export type GroupApi = z.infer<typeof GroupApi>;

/** heartbeat: `clientid` when known; with the logon's `token` it resumes that login on a new connection. */
export const Heartbeat = z.object({
  clientid: StringLike(64).optional(),
  token: Text(128).optional(),
});
export type Heartbeat = z.infer<typeof Heartbeat>;
/** heartbeat answer: `logged_on` 1 when the connection holds a login (after a resume too), with its uid. */
export const HeartbeatAnswer = z.object({
  logged_on: z.union([z.literal(0), z.literal(1)]),
  uid: z.number().int().optional(),
  time: z.number().int(),
});
export type HeartbeatAnswer = z.infer<typeof HeartbeatAnswer>;

/**
 * req_logon. `client_alive_time` (minutes): how long the login outlives its connection, so that a
 * reloaded console resumes it; 0 or empty becomes 0 (ends with the connection), above 120 it is
 * capped to 120 with a warning (spec part 1 section 5). `user_type` is ours (default 1, console).
 */
export const LogonRequest = z.object({
  ipaddr: Text(255).optional(),
  port: maybe(StringLike(8)),
  orgid: maybe(StringLike(64)),
  logon_name: RequiredText(64),
  passwd: RequiredText(256),
  console_name: Text(64).optional(),
  client_alive_time: z.preprocess(
    (v) =>
      v === '' || v === null || v === undefined
        ? 0
        : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v)
          ? Number(v)
          : v,
    z
      .number({ error: 'validation.number' })
      .min(0, { error: 'validation.range' })
      .max(1e6, { error: 'validation.range' }),
  ),
  clientid: maybe(StringLike(64)),
  user_type: UserTypeField.default(UserType.CONSOLE),
});
export type LogonRequest = z.infer<typeof LogonRequest>;

export const LogonAnswer = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  user_type: UserTypeField,
  display_name: z.string(),
  /** secret of this login: resumes it (heartbeat) and authorises file uploads and downloads */
  token: z.string(),
  clientid: z.string(),
  /** minutes, after the rules above */
  client_alive_time: z.number(),
  /** epoch ms */
  client_login_time: z.number().int(),
  /** set when client_alive_time was capped */
  warning: z.string().optional(),
  /** 1 when this logon took the account over from another connection */
  took_over: z.union([z.literal(0), z.literal(1)]),
});
export type LogonAnswer = z.infer<typeof LogonAnswer>;

export const LogoutRequest = z.object({});
export const LogoutAnswer = z.object({});

/**
 * notice_logon: cmd_status 2 when a second logon took this login over (the SDK clears its cache
 * and closes); cmd_status 0 to other consoles' listeners is not sent (presence travels as
 * notice_user_state).
 */
export const LogonNotice = z.object({ uid: z.number().int(), ext_id: z.string() });
/** notice_logout: the service ended this login (the account was logged out elsewhere or its alive time ran out). */
export const LogoutNotice = z.object({ uid: z.number().int(), ext_id: z.string() });
/** notice_error: cmd_status 52001 invalidates the login (the SDK clears its cache); other statuses are reported. */
export const ErrorNotice = z.object({});

/**
 * req_change_passwd: a console changes its user's password (the console's login password, with
 * the rules of part 1 section 5); terminals' secrets are renewed by provisioning, not here.
 */
export const ChangePasswdRequest = z.object({
  username: RequiredText(64),
  oldpasswd: z
    .string({ error: 'validation.password.oldRequired' })
    .min(1, { error: 'validation.password.oldRequired' })
    .max(64, { error: 'validation.tooLong' }),
  newpasswd: NewPassword,
});
export type ChangePasswdRequest = z.infer<typeof ChangePasswdRequest>;
export const ChangePasswdAnswer = z.object({});
