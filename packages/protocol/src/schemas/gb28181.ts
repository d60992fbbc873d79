import { z } from 'zod';
import { GB_PLAYBACK_MAX_S, GB_PLAYBACK_SCALES } from '../limits';
import { between } from '../validators';

const int = (min: number, max: number) =>
  between(z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }), min, max);
const flag = z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)], { error: 'validation.choice' }));
const port = int(1024, 65535);

/**
 * GB/T 28181 settings of the platform (settings type `gbconfig`, page /system/player/gbconfig,
 * menu 10003), read by the SIP platform once it runs (GbSipPlatformOptions) and by gbconfig/get.
 * Names of the spec's GB player config are kept (SipDomain, LocalIp, ...); the rest are ours.
 */
export const GbSettings = z.object({
  /** the application-wide mode flag (spec part 1 section 1): 1 GB monitoring, 0 GIS dispatch */
  gb_mode: flag,
  /** SIP domain: the 10-digit centre code (GB/T 28181-2016 Appendix D: province to grass-roots unit) */
  SipDomain: z
    .string({ error: 'validation.required' })
    .trim()
    .regex(/^\d{10}$/, { error: 'validation.gb.sipDomain' }),
  /** the platform's 20-digit SIP id (centre code + type 200 + serial) */
  SipId: z
    .string({ error: 'validation.required' })
    .trim()
    .regex(/^\d{20}$/, { error: 'validation.gb.sipId' }),
  /** address the SIP platform listens on and gives devices; '' = every interface */
  LocalIp: z.union([z.literal(''), z.ipv4({ error: 'validation.ip' })], { error: 'validation.ip' }),
  /** SIP port, UDP and TCP */
  LocalPort: port,
  /** longest registration the platform grants, seconds (a device asking for more gets this) */
  RegExpires: int(60, 86_400),
  /** keepalive period expected of devices, seconds */
  AliveInterval: int(5, 600),
  /** missed keepalives before a device is offline */
  AliveTimeoutCnt: int(1, 10),
  /** first port of the RTP range receiving device video (PS over RTP) */
  VideoPort: port,
  /** first port of the RTP range sending audio to devices (voice broadcast) */
  AudioPort: port,
  /** ports in each of the two ranges */
  PortCount: int(2, 10_000),
  /** digest password of devices that register (one for all devices) */
  DevicePassword: z
    .string({ error: 'validation.required' })
    .regex(/^[\x21-\x7e]{1,32}$/, { error: 'validation.gb.password' }),
});
export type GbSettings = z.infer<typeof GbSettings>;

export const GB_SETTINGS_DEFAULTS: GbSettings = {
  gb_mode: 0,
  SipDomain: '3402000000',
  SipId: '34020000002000000001',
  LocalIp: '',
  LocalPort: 5060,
  RegExpires: 3600,
  AliveInterval: 60,
  AliveTimeoutCnt: 3,
  VideoPort: 30000,
  AudioPort: 31000,
  PortCount: 500,
  DevicePassword: '12345678',
};

/** GB/T 28181-2016 Appendix D type code of a centre user: a console user's GB id is SipDomain + 300 + 7-digit user id. */
export const GB_USER_TYPE = '300';
export const GB_USER_SERIAL_MAX = 9_999_999;

/** The console user's GB id, or null when the user id does not fit the 7-digit serial. */
export function gbUserId(sipDomain: string, userId: number): string | null {
  if (!Number.isInteger(userId) || userId < 1 || userId > GB_USER_SERIAL_MAX) return null;
  return `${sipDomain}${GB_USER_TYPE}${String(userId).padStart(7, '0')}`;
}

/** A username the GB registration can carry: a SIP user part without escaping. */
export const GB_USERNAME = /^[A-Za-z0-9_.-]{1,32}$/;

/**
 * GET gbconfig/get (spec part 2 section 7.2; its answer fields `status` and `ocx_config`): what
 * the console's GB player needs. `status` is the GB mode flag; `running` 1 only while the SIP
 * platform serves devices (0 until it is part of the server). ocx_config: the signed-in user
 * (userid, username, ocxID: their GB id, '' when they have none) and the platform it plays from
 * (ocxSip its id, ocxIp / ocxPort its address: LocalIp, or the address the console reached the
 * server at when LocalIp is every interface). The spec's player also had the client's LocalIp /
 * LocalPort, a password and play_port (receive ports per window): our console plays GB video
 * through the live gateway, receives no RTP and registers nowhere, so they are not answered.
 */
export const GbPlayerConfig = z.object({
  status: z.union([z.literal(0), z.literal(1)]),
  running: z.union([z.literal(0), z.literal(1)]),
  ocx_config: z.object({
    userid: z.number().int(),
    username: z.string(),
    ocxID: z.string(),
    SipDomain: z.string(),
    ocxSip: z.string(),
    ocxIp: z.string(),
    ocxPort: z.number().int(),
    RegExpires: z.number().int(),
    AliveInterval: z.number().int(),
    AliveTimeoutCnt: z.number().int(),
    VideoPort: z.number().int(),
    AudioPort: z.number().int(),
    PortCount: z.number().int(),
  }),
  /** split count of the live wall (play config) */
  video_live_num: z.number().int(),
});
export type GbPlayerConfig = z.infer<typeof GbPlayerConfig>;

/** Why a user cannot be used for GB: GB mode off, a username a SIP user part cannot carry, or no GB id for the user id. */
export const GB_USER_REFUSALS = ['gb_off', 'username', 'id_range'] as const;
export type GbUserRefusal = (typeof GB_USER_REFUSALS)[number];

/**
 * POST checkgbuser (spec part 2 section 5: the GB registration needs a username): whether the
 * signed-in user can be used for GB. usable 0 comes with the reason; the console then says
 * "initialisation failed, please synchronise users first".
 */
export const GbUserCheck = z.object({
  usable: z.union([z.literal(0), z.literal(1)]),
  reason: z.enum(GB_USER_REFUSALS).nullable(),
  username: z.string(),
  /** the user's GB id ('' without one) */
  gbid: z.string(),
});
export type GbUserCheck = z.infer<typeof GbUserCheck>;

// ---------------------------------------------------------------------------------------------
// GB devices, channels, PTZ and record search (issue 16). The SIP platform fills gb_devices and
// gb_channels from the devices' registrations, DeviceInfo and Catalog answers; these are the
// console's and the admins' views of them.

const gbId = z
  .string({ error: 'validation.required' })
  .trim()
  .regex(/^\d{20}$/, { error: 'validation.gb.gbId' });

/**
 * A row of the GB equipment tree (spec part 1 section 2 'equipment tree, GB variant'; part 2
 * section 2.4 Tree: devgbid as row key, itemtype, name, children, hasChildren). Devices are
 * itemtype '1' with their channels as `children`; channels are itemtype '5' (the camera icon).
 * `device` is the device's GB id (the channel's own for a device row), which a PTZ, RecordInfo or
 * live request names together with the channel's devgbid.
 */
export const GbTreeNode = z.object({
  /** the 20-digit GB id (device or channel), the row key */
  devgbid: z.string(),
  /** '1' device, '5' channel */
  itemtype: z.enum(['1', '5']),
  name: z.string(),
  /** the GB id of the device this row belongs to */
  device: z.string(),
  /** 1 online (device registered and, for a channel, its Catalog Status ON), 0 offline */
  lineon: z.union([z.literal(0), z.literal(1)]),
  /** owning unit of the device */
  unit_id: z.number().int(),
  /** GB/T 28181-2016 A.2.6.4 PTZType of a channel: 1 dome, 2 half-dome, 3 fixed, 4 remote; 0 unknown; devices 0 */
  ptztype: z.number().int(),
  /** last position (device: its MobilePosition; channel: its Catalog Longitude/Latitude); null unknown */
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  hasChildren: z.boolean(),
  /** a device row's channels (always given, possibly empty); absent on channel rows */
  get children() {
    return z.array(GbTreeNode).optional();
  },
});
export type GbTreeNode = z.infer<typeof GbTreeNode>;

/**
 * POST videopatrols/getdevice {unit, key} (spec part 2 section 7.2): the GB devices of unit `unit`
 * and its sub-units (omitted: every unit of the caller's scope; a unit outside it is refused 403),
 * each with its channels. `key` filters by a substring of the name or GB id of the device or of a
 * channel (a device matching by a channel keeps only the matching channels). Ordered by name.
 */
export const GbDeviceTreeRequest = z.object({
  unit: z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }).min(1).optional(),
  key: z.string().trim().max(100).optional(),
});
export type GbDeviceTreeRequest = z.infer<typeof GbDeviceTreeRequest>;

/** POST videopatrols/detaildevice {devgbid}: a device (or the device of a channel) in detail. */
export const GbDetailRequest = z.object({ devgbid: gbId });
export type GbDetailRequest = z.infer<typeof GbDetailRequest>;

/** A GB channel as stored from the device's Catalog (A.2.6.4). */
export const GbChannel = z.object({
  devgbid: z.string(),
  device: z.string(),
  name: z.string(),
  /** ParentID of the Catalog item ('' none) */
  parent: z.string(),
  /** Catalog Status: 1 ON, 0 OFF/absent */
  status: z.union([z.literal(0), z.literal(1)]),
  ptztype: z.number().int(),
  manufacturer: z.string(),
  model: z.string(),
  lng: z.number().nullable(),
  lat: z.number().nullable(),
});
export type GbChannel = z.infer<typeof GbChannel>;

/**
 * A GB device (admin list row and detaildevice). name: DeviceInfo DeviceName, else the GB id.
 * transport 'udp' | 'tcp' of its registration; address 'ip:port' it registered from.
 * registered_at / keepalive_at: 'YYYY-MM-DD HH:mm:ss' server local time, '' never;
 * position_time: the device's MobilePosition Time as it sent it (GB local time).
 */
export const GbDevice = z.object({
  id: z.number().int(),
  devgbid: z.string(),
  name: z.string(),
  manufacturer: z.string(),
  model: z.string(),
  firmware: z.string(),
  transport: z.string(),
  address: z.string(),
  lineon: z.union([z.literal(0), z.literal(1)]),
  registered_at: z.string(),
  keepalive_at: z.string(),
  channel_count: z.number().int(),
  unit_id: z.number().int(),
  unit_name: z.string(),
  /** last MobilePosition; null unknown */
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  position_time: z.string(),
});
export type GbDevice = z.infer<typeof GbDevice>;

export const GbDeviceDetail = GbDevice.extend({ channels: z.array(GbChannel) });
export type GbDeviceDetail = z.infer<typeof GbDeviceDetail>;

/**
 * GET gbdevice/list (menu 10343 downAdmin, unit-scoped): page, limit, key (name or GB id), lineon,
 * unit_id (that unit and its subunits; inside the caller's scope).
 */
export const GbDeviceListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  key: z.string().trim().max(100).optional(),
  lineon: z.coerce
    .number()
    .pipe(z.union([z.literal(0), z.literal(1)]))
    .optional(),
  unit_id: z.coerce.number().int().min(1).optional(),
});
export type GbDeviceListQuery = z.infer<typeof GbDeviceListQuery>;

/**
 * PTZ actions (GB/T 28181-2016 A.3; the same list as @bwc/gb28181/manscdp PTZ_ACTIONS, a server
 * test checks it): pan/tilt/zoom/focus/iris moves, `stop`, and the presets preset_set (store the
 * current position), preset_call (go to it), preset_del (remove it).
 */
export const GB_PTZ_ACTIONS = [
  'stop',
  'right',
  'left',
  'down',
  'up',
  'downright',
  'downleft',
  'upright',
  'upleft',
  'zoomin',
  'zoomout',
  'focusfar',
  'focusnear',
  'irisopen',
  'irisclose',
  'preset_set',
  'preset_call',
  'preset_del',
] as const;
export type GbPtzAction = (typeof GB_PTZ_ACTIONS)[number];

/**
 * POST videopatrols/ptz {device, channel, action, speed, preset} (video patrol edit, audited):
 * `speed` 0-255 pan/tilt (default 128; zoom uses speed >> 4); `preset` 1-255, required for the
 * preset actions. Answers null once the device accepted the DeviceControl (its SIP 200); a device
 * that is offline is 409 `errors.gb.offline`, one that does not answer 504 `errors.gb.timeout`.
 */
export const GbPtzRequest = z
  .object({
    device: gbId,
    channel: gbId,
    action: z.enum(GB_PTZ_ACTIONS, { error: 'validation.choice' }),
    speed: between(
      z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }),
      0,
      255,
    ).optional(),
    preset: between(
      z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }),
      1,
      255,
    ).optional(),
  })
  .refine((r) => !r.action.startsWith('preset_') || r.preset !== undefined, {
    error: 'validation.gb.preset',
    path: ['preset'],
  });
export type GbPtzRequest = z.infer<typeof GbPtzRequest>;

/**
 * POST videoreplay/gbsearch {device, channel, start, end} (history replay view): the channel's
 * recordings on the device (GB/T 28181-2016 9.7 RecordInfo), times 'YYYY-MM-DD HH:mm:ss' in GB
 * local time (A.2.1: the platform's zone, +08:00, as the devices keep it); end after start, at
 * most 7 days apart (else 400 naming `end`). Offline 409 errors.gb.offline, no answer 504.
 */
export const GbRecordSearchRequest = z.object({
  device: gbId,
  channel: gbId,
  start: z.string().regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/, { error: 'validation.datetime' }),
  end: z.string().regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/, { error: 'validation.datetime' }),
});
export type GbRecordSearchRequest = z.infer<typeof GbRecordSearchRequest>;

/** A recording the device holds (RecordInfo RecordList Item); times as the device wrote them, 'T' made a space. */
export const GbRecording = z.object({
  channel: z.string(),
  name: z.string(),
  start: z.string(),
  end: z.string(),
  /** time | alarm | manual | all | '' */
  type: z.string(),
  file_path: z.string(),
  /** bytes; null not given */
  file_size: z.number().nullable(),
  recorder_id: z.string(),
});
export type GbRecording = z.infer<typeof GbRecording>;

/**
 * POST videopatrols/gbplay {channel, device, transport, start, end} (live view on 10101/10106/10151): the
 * channel's live video (INVITE, GB/T 28181-2016 9.2), or with start and end (GB local time, at
 * most 7 days apart) its playback from the device's recordings (9.8). The answer's `flv` / `ws`
 * paths carry a 60 s play token (open `ws` as ws:// or wss://). `transport` is how the device
 * sends RTP: udp (default), tcp-passive (it connects to us), tcp-active (we connect to it).
 */
export const GbPlayRequest = z.object({
  channel: gbId,
  /** the channel's device: devices may repeat each other's channel ids; without it the online one that has the channel */
  device: gbId.optional(),
  transport: z.enum(['udp', 'tcp-passive', 'tcp-active'], { error: 'validation.choice' }).optional(),
  start: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/, { error: 'validation.datetime' })
    .optional(),
  end: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/, { error: 'validation.datetime' })
    .optional(),
});
export type GbPlayRequest = z.infer<typeof GbPlayRequest>;

/**
 * POST videoreplay/gbcontrol {key, action, offset, scale} (the same menus as a playback): control a
 * device playback started by gbplay (`key` from its answer, gbpb:...) by MANSRTSP in an INFO of its
 * dialog (GB/T 28181-2016 9.8.2, Appendix B): `pause`, `resume`, `seek` to `offset` seconds past the
 * playback's start (an integer within its span, else 400 `validation.gb.seekOffset` naming the span)
 * or `speed` at `scale` times real time (one of GB_PLAYBACK_SCALES). A seek or a speed is a PLAY, so
 * it also ends a pause (as WVP, the reference platform, sends them). Answers null once the device
 * accepted it; a key that is not a running playback is 404 `errors.gb.noPlayback`, a device that
 * refuses or does not answer 409/504.
 */
export const GbPlaybackControlRequest = z
  .object({
    key: z
      .string()
      .max(80, { error: 'validation.maxLength' })
      .regex(/^gbpb:\d{20}_\d{20}_\d{1,12}_\d{1,12}$/, { error: 'validation.gb.playbackKey' }),
    action: z.enum(['pause', 'resume', 'seek', 'speed'], { error: 'validation.choice' }),
    offset: between(
      z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }),
      0,
      GB_PLAYBACK_MAX_S,
    ).optional(),
    scale: z.literal(GB_PLAYBACK_SCALES, { error: 'validation.gb.scale' }).optional(),
  })
  .refine((r) => r.action !== 'seek' || r.offset !== undefined, {
    error: 'validation.gb.seekNeedsOffset',
    path: ['offset'],
  })
  .refine((r) => r.action !== 'speed' || r.scale !== undefined, {
    error: 'validation.gb.speedNeedsScale',
    path: ['scale'],
  });
export type GbPlaybackControlRequest = z.infer<typeof GbPlaybackControlRequest>;

export const GbPlayAnswer = z.object({
  channel_id: z.string(),
  /** the gateway's stream key (gb:<device>_<channel> or gbpb:<device>_<channel>_<start>_<end>) */
  key: z.string(),
  transport: z.string(),
  ssrc: z.string(),
  flv: z.string(),
  ws: z.string(),
  /** epoch ms after which the token no longer admits a viewer */
  expires: z.number().int(),
  /** 1 when the device's stream carries audio (its PS stream map lists one): the FLV then has AAC */
  has_audio: z.union([z.literal(0), z.literal(1)]),
});
export type GbPlayAnswer = z.infer<typeof GbPlayAnswer>;

/**
 * POST oamcenter/gbdevice/update {id, unit_id, name} (edit on 10343, audited): move a GB device
 * to a unit (both its current and the new unit inside the caller's scope) and rename it ('' keeps
 * the name DeviceInfo gave). New devices start in the root unit.
 */
export const GbDeviceUpdateRequest = z.object({
  id: z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }).min(1),
  unit_id: z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }).min(1),
  name: z.string().trim().max(64, { error: 'validation.tooLong' }).optional(),
});
export type GbDeviceUpdateRequest = z.infer<typeof GbDeviceUpdateRequest>;

/**
 * POST oamcenter/gbdevice/refresh {id} (edit on 10343, audited): ask the online device again for its
 * DeviceInfo and Catalog (the channels become the Catalog's) and answer the stored device.
 */
export const GbDeviceRefreshRequest = z.object({
  id: z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }).min(1),
});
export type GbDeviceRefreshRequest = z.infer<typeof GbDeviceRefreshRequest>;
