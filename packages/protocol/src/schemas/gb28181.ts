import { z } from 'zod';
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
