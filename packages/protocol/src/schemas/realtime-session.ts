import { z } from 'zod';
import { Alarm, AlarmPicture } from './alarm-record';
import { GbSitePush } from './gb28181-points';

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
 *    A console may narrow its site_data at any time with `{cmd: 'site_filter', view, ids}`:
 *    `view` 'all' (the default after client_login) sends every permitted device's changes, a box
 *    `[west, south, east, north]` (WGS-84 degrees) only those of devices whose new fix lies in
 *    it, 'none' none; the devices in `ids` (tracked ones, an open info window) are sent wherever
 *    they are. Answered `{cmd: 'site_filter', code: 200, msg}`; a malformed one is answered with
 *    code 400 and changes nothing. The filter lasts until the next one or the end of the socket
 *    (a reconnected console sends it again). Unit scoping and rights apply as before; device_data
 *    and alarm_data are never filtered. A console whose filter leaves devices out knows their
 *    positions only from its point snapshots (the 20 s refresh).
 *    In GB mode `{type: 'gb_site_data', data: GbSitePush[]}` carries GB28181 devices' new
 *    positions and online changes (schemas/gb28181-points.ts) to the same consoles (view on 10101,
 *    the device's unit in scope); site_filter does not narrow it.
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

/** devices named in a site_filter at most */
export const SITE_FILTER_MAX_IDS = 1_000;

const Longitude = z.number().min(-360).max(360);
const Latitude = z.number().min(-90).max(90);

/** Which devices' position changes (site_data) this console wants: see point 3 above. */
export const SiteFilter = z.object({
  cmd: z.literal('site_filter'),
  view: z.union([
    z.literal('all'),
    z.literal('none'),
    z
      .tuple([Longitude, Latitude, Longitude, Latitude])
      .refine(([west, south, east, north]) => west <= east && south <= north, {
        message: 'the box is [west, south, east, north] with west <= east and south <= north',
      }),
  ]),
  ids: z.array(z.number().int().positive()).max(SITE_FILTER_MAX_IDS).default([]),
});
export type SiteFilter = z.infer<typeof SiteFilter>;

export const PUSH_KINDS = [
  'alarm_data',
  'site_data',
  'device_data',
  'face_data',
  'plate_data',
  'gb_site_data',
] as const;
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
  z.object({ type: z.literal('gb_site_data'), data: z.array(GbSitePush) }),
]);
export type SessionPush = z.infer<typeof SessionPush>;

/** answers to commands (they carry a code) */
export const SessionReply = z.object({ cmd: z.string(), code: z.number().int(), msg: z.string() });
export type SessionReply = z.infer<typeof SessionReply>;
