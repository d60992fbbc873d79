import { z } from 'zod';
import { Alarm, AlarmPicture } from './alarms';

/**
 * Session push channel (spec part 1 section 7): a websocket at user info's `wsurl`
 * (`/ws/session`). JSON text frames.
 *
 * 1. The console sends `{cmd: 'client_login', logincode, username, scode, cate}` (values from user
 *    info; the session cookie or `?token=` identifies the session, logincode must match it).
 * 2. The server answers `{cmd: 'client_login', code: 200, msg}` or `{cmd: 'client_login', code:
 *    401|403, msg}` and closes on refusal.
 * 3. Pushes carry NO code field (the console stores them as live data):
 *    `{type: 'alarm_data', data: Alarm}`, `{type: 'face_data', data: AlarmPicture, web_root}`,
 *    `{type: 'plate_data', data: AlarmPicture, web_root}`, `{type: 'device_data', data: {...}}`,
 *    `{type: 'site_data', data: SitePush[]}`. Alarms go to consoles whose user sees the device's unit and
 *    has view on 10104 or 10154; face/plate pictures to those with view on 10095. site_data (position
 *    changes, latest fix per device, at most one message per SITE_DATA_FLUSH_MS) goes to consoles
 *    whose user sees the device's unit and has view on 10101 (Emergency); none when nothing moved.
 * 4. Heartbeat: the console sends `{cmd: 'ping'}` and gets `{cmd: 'pong', time}`; the server also
 *    pings at the websocket level every SESSION_WS_PING_MS and drops sockets that miss two.
 * 5. A socket whose session ends, expires or is kicked is closed with code 4401. After a reconnect
 *    the console re-reads its snapshots (the alarm list; the map's points, whose `sos` carries
 *    the SOS state), then applies pushes (deltas).
 */

export const SESSION_WS_PATH = '/ws/session';
export const SESSION_WS_PING_MS = 25_000;
/** close code when the session is gone (logout, kicked, expired) or client_login was refused */
export const SESSION_WS_CLOSE_UNAUTHORISED = 4401;

export const ClientLogin = z.object({
  cmd: z.literal('client_login'),
  logincode: z.string().min(1).max(64),
  username: z.string().max(64),
  scode: z.string().max(64).default(''),
  cate: z.string().max(16).default(''),
});
export type ClientLogin = z.infer<typeof ClientLogin>;

export const PUSH_KINDS = ['alarm_data', 'site_data', 'device_data', 'face_data', 'plate_data'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** device state change (online / offline) */
export const DevicePush = z.object({
  device_id: z.number().int(),
  hostbody: z.string(),
  hostname: z.string(),
  unit_id: z.number().int(),
  lineon: z.union([z.literal(0), z.literal(1)]),
  time: z.string(),
});
export type DevicePush = z.infer<typeof DevicePush>;

/** site_data is sent at most this often to one console (positions merged per device in between) */
export const SITE_DATA_FLUSH_MS = 1_000;

/** latest fix of one device (WGS-84; speed km/h, course degrees, battery %, time ISO) */
export const SitePush = z.object({
  device_id: z.number().int(),
  hostbody: z.string(),
  hostname: z.string(),
  unit_id: z.number().int(),
  lng: z.number(),
  lat: z.number(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
  battery: z.number().nullable(),
  time: z.string(),
  lineon: z.union([z.literal(0), z.literal(1)]),
});
export type SitePush = z.infer<typeof SitePush>;

export const SessionPush = z.discriminatedUnion('type', [
  z.object({ type: z.literal('alarm_data'), data: Alarm }),
  z.object({ type: z.literal('face_data'), data: AlarmPicture, web_root: z.string() }),
  z.object({ type: z.literal('plate_data'), data: AlarmPicture, web_root: z.string() }),
  z.object({ type: z.literal('device_data'), data: DevicePush }),
  z.object({ type: z.literal('site_data'), data: z.array(SitePush) }),
]);
export type SessionPush = z.infer<typeof SessionPush>;

/** answers to commands (they carry a code) */
export const SessionReply = z.object({ cmd: z.string(), code: z.number().int(), msg: z.string() });
export type SessionReply = z.infer<typeof SessionReply>;
