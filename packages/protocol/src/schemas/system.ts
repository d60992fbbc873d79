import { z } from 'zod';
import { GroupApi } from '../console/session';
import {
  DEFAULT_VIDEO_LIVE_NUM,
  LOGIN_FAIL_LIMIT_DEFAULT,
  LOGIN_LOCK_MINUTES_DEFAULT,
  RECORDING_DURATIONS_MIN,
  SYSTEM_TITLE_DEFAULT,
} from '../limits';
import { between, NewPassword, SystemTitle } from '../validators';
import { GB_SETTINGS_DEFAULTS, GbSettings } from './gb28181';

const int = (min: number, max: number) => between(z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }), min, max);
const text = (max: number) => z.string({ error: 'validation.required' }).trim().max(max, { error: 'validation.tooLong' });
const path = text(255).refine((p) => !p.includes('..'), { error: 'validation.path' });
const longitude = z.coerce.number({ error: 'validation.number' }).min(-180, { error: 'validation.longitude' }).max(180, { error: 'validation.longitude' });
const latitude = z.coerce.number({ error: 'validation.number' }).min(-90, { error: 'validation.latitude' }).max(90, { error: 'validation.latitude' });

/** Each settings screen under /system has one type (`system_get?type=`). */
export const SettingsSchemas = {
  /** title config */
  titleset: z.object({ title: SystemTitle, support_text: text(100) }),
  /** login background; the image itself is uploaded with rest/system/config/upload_background */
  backset: z.object({ background_path: text(255) }),
  /** file storage */
  filestorage: z.object({
    storage_path: path.pipe(z.string().min(1, { error: 'validation.required' })),
    keep_days: int(1, 3650),
    disk_warn_percent: int(50, 99),
  }),
  /** statistics config */
  statisticset: z.object({ stat_day_start: int(0, 23), stat_cycle_days: int(1, 31), count_offline_devices: z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)])) }),
  /** login security */
  normalset: z.object({
    login_fail_limit: int(1, 20),
    login_lock_minutes: int(1, 1440),
    default_password: NewPassword,
    session_timeout_minutes: int(5, 1440),
  }),
  /** electronic map: mapinfo 1 online, 0 offline */
  digitailmap: z.object({
    mapinfo: z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)])),
    gpscenter_lon: longitude,
    gpscenter_lat: latitude,
    map_url: text(500),
    map_crs: z.enum(['WGS84', 'GCJ02'], { error: 'validation.choice' }),
    /**
     * Live video of alarms (spec part 1 section 3 map config "video"; meanings are ours, the spec
     * names only the fields): getvideo_switch 1 = an SOS opens its device's live view in the
     * consoles and the platform records it; getvideo_time = seconds recorded; getvideo_num = how
     * many SOS live views a console opens at most at once; getvideo_path / getpic_path = folders
     * under the data directory for the recordings and their first-frame pictures.
     */
    getvideo_switch: z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)], { error: 'validation.choice' })).default(1),
    getvideo_time: int(10, 3600).default(60),
    getvideo_num: int(1, 9).default(4),
    getvideo_path: path.default('sos/video'),
    getpic_path: path.default('sos/picture'),
  }),
  /** recording storage */
  cloudstorage: z.object({
    record_path: path.pipe(z.string().min(1, { error: 'validation.required' })),
    record_minutes: z.coerce.number().pipe(z.union(RECORDING_DURATIONS_MIN.map((m) => z.literal(m)) as unknown as [z.ZodLiteral<20>, z.ZodLiteral<30>, z.ZodLiteral<60>], { error: 'validation.choice' })),
    keep_days: int(1, 3650),
    /**
     * Recording of live streams (issue 15 section 1d): 0 off, 1 every stream the gateway receives
     * is recorded while it is published, in record_minutes segments, each stored as evidence.
     */
    record_live: z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)], { error: 'validation.choice' })).default(0),
  }),
  /** alarm bell sound and type -> severity: sos_alarm_time seconds, sos_alarm_audio sound path or URL ('' built-in) */
  alarmset: z.object({
    sos_alarm_time: int(1, 600),
    sos_alarm_audio: text(255),
    /** alarm type key -> criticle | middle | normal; types not listed use DEFAULT_ALARM_TYPE_LEVELS */
    type_levels: z.record(
      z.string().regex(/^\d{1,4}$/, { error: 'validation.choice' }),
      z.enum(['criticle', 'middle', 'normal'], { error: 'validation.choice' }),
    ),
    /** face-alarm pictures in the emergency screen's right column (spec part 2: gis info alerm_face); 1 on */
    alerm_face: z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)], { error: 'validation.choice' })).default(0),
  }),
  /** GB/T 28181 platform and the GB mode flag (schemas/gb28181.ts) */
  gbconfig: GbSettings,
} as const;
export type SettingsType = keyof typeof SettingsSchemas;
export const SETTINGS_TYPES = Object.keys(SettingsSchemas) as SettingsType[];
export const SettingsTypeInput = z.object({ type: z.enum(SETTINGS_TYPES as [SettingsType, ...SettingsType[]], { error: 'validation.settingsType' }) });
export type Settings<T extends SettingsType> = z.infer<(typeof SettingsSchemas)[T]>;

/** Settings under /system/player (dispatch config) need replay_auth; the rest need systerm_auth. */
export const DISPATCH_CONFIG_TYPES: readonly SettingsType[] = ['digitailmap', 'cloudstorage', 'alarmset', 'gbconfig'];

export const SETTINGS_DEFAULTS: { [T in SettingsType]: Settings<T> } = {
  titleset: { title: SYSTEM_TITLE_DEFAULT, support_text: '' },
  backset: { background_path: '' },
  filestorage: { storage_path: 'evidence', keep_days: 365, disk_warn_percent: 90 },
  statisticset: { stat_day_start: 0, stat_cycle_days: 7, count_offline_devices: 1 },
  normalset: { login_fail_limit: LOGIN_FAIL_LIMIT_DEFAULT, login_lock_minutes: LOGIN_LOCK_MINUTES_DEFAULT, default_password: 'Bwc@2024', session_timeout_minutes: 120 },
  digitailmap: {
    mapinfo: 0,
    gpscenter_lon: 114.0579,
    gpscenter_lat: 22.5431,
    map_url: '',
    map_crs: 'WGS84',
    getvideo_switch: 1,
    getvideo_time: 60,
    getvideo_num: 4,
    getvideo_path: 'sos/video',
    getpic_path: 'sos/picture',
  },
  cloudstorage: { record_path: 'recordings', record_minutes: 30, keep_days: 180, record_live: 0 },
  alarmset: { sos_alarm_time: 30, sos_alarm_audio: '', type_levels: {}, alerm_face: 0 },
  gbconfig: GB_SETTINGS_DEFAULTS,
};

/**
 * What system_get and system_update answer: the stored settings of the type asked. normalset's
 * default_password (gbconfig's DevicePassword) is '' for a caller who may not edit the type, so its answer is any text.
 */
export const SettingsAnswerSchemas = {
  ...SettingsSchemas,
  normalset: SettingsSchemas.normalset.extend({ default_password: z.string() }),
  gbconfig: SettingsSchemas.gbconfig.extend({ DevicePassword: z.string() }),
} as const;
export type SettingsAnswerOf<T extends SettingsType> = z.output<(typeof SettingsAnswerSchemas)[T]>;
/** One strict object per type (their fields differ), so an answer matches exactly one. */
export const SettingsAnswer = z.union([
  SettingsAnswerSchemas.titleset.strict(),
  SettingsAnswerSchemas.backset.strict(),
  SettingsAnswerSchemas.filestorage.strict(),
  SettingsAnswerSchemas.statisticset.strict(),
  SettingsAnswerSchemas.normalset.strict(),
  SettingsAnswerSchemas.digitailmap.strict(),
  SettingsAnswerSchemas.cloudstorage.strict(),
  SettingsAnswerSchemas.alarmset.strict(),
  SettingsAnswerSchemas.gbconfig.strict(),
]);

/** The settings of `type` from a system_get / system_update answer, checked against that type. */
export function settingsOfType<T extends SettingsType>(type: T, answer: unknown): SettingsAnswerOf<T> {
  return SettingsAnswerSchemas[type].parse(answer) as SettingsAnswerOf<T>;
}

/** POST system_update: `{type, ...fields}`. */
export const SettingsUpdateRequest = z.discriminatedUnion(
  'type',
  SETTINGS_TYPES.map((t) => SettingsSchemas[t].extend({ type: z.literal(t) })) as unknown as [z.ZodObject, ...z.ZodObject[]],
  { error: 'validation.settingsType' },
);

/** play_get / play_update: video_live_num, split count of live video. */
export const PlayConfig = z.object({ video_live_num: int(1, 16).default(DEFAULT_VIDEO_LIVE_NUM) });
export type PlayConfig = z.infer<typeof PlayConfig>;

/** Map config (spec part 1 section 3). Also the public part of gis info. */
export const MapConfig = z.object({
  mapinfo: z.number().int(),
  gpscenter_lon: z.number(),
  gpscenter_lat: z.number(),
  map_url: z.string(),
  map_crs: z.string(),
  live_num: z.number().int(),
  sos_alarm_audio: z.string(),
  /** face-alarm pictures column on the emergency screen (alarmset.alerm_face); 1 on */
  alerm_face: z.number().int().optional(),
  /** the caller's console-service account (console/session.ts) */
  group_api: GroupApi.optional(),
  datas_area: z.array(z.unknown()).optional(),
  /** the live-video settings of digitailmap (getvideo_*) */
  video: z
    .object({
      getvideo_switch: z.number().int(),
      getvideo_time: z.number().int(),
      getvideo_num: z.number().int(),
      getvideo_path: z.string(),
      getpic_path: z.string(),
    })
    .optional(),
});
export type MapConfig = z.infer<typeof MapConfig>;
