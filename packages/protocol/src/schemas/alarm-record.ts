import { z } from 'zod';

/**
 * The alarm record (spec part 1 section 3; see schemas/alarms.ts for the rules of reading and
 * acknowledging): what the bell lists and the session channel pushes, its severities, types and
 * acknowledgement kinds. A module of its own, apart from the alarm endpoints' requests, so that the
 * push channel and the console service's messages bring in only the record.
 */

/** Severities as the wire spells them. `alarmNavActive` 0/1/2 is their index. */
export const ALARM_LEVELS = ['criticle', 'middle', 'normal'] as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[number];

/** Alarm type keys (data dictionary `alarm_type`). 0 is the electric-fence alarm; 5 stops live video. */
export const ALARM_TYPE = {
  FENCE: '0',
  SOS: '1',
  LOW_BATTERY: '2',
  STORAGE: '3',
  OVERSPEED: '4',
  OFFLINE: '5',
  FACE: '6',
  PLATE: '7',
  /** an evidence original no longer matches its SHA-256 (download refused, issue 15) */
  EVIDENCE_TAMPER: '8',
  /** an Alarm a GB/T 28181 device reported (issue 16; no devices row: hostbody is its GB id) */
  GB_DEVICE: '9',
} as const;

/** Default type -> severity (settings `alarmset.type_levels` overrides; unknown types are normal). */
export const DEFAULT_ALARM_TYPE_LEVELS: Record<string, AlarmLevel> = {
  '0': 'middle',
  '1': 'criticle',
  '2': 'normal',
  '3': 'normal',
  '4': 'middle',
  '5': 'middle',
  '6': 'criticle',
  '7': 'middle',
  '8': 'criticle',
  '9': 'middle',
};

/** Bell list: unread alarms per severity, newest first, at most this many per severity. */
export const ALARM_BELL_LINES_MAX = 100;

/** One face (or plate) comparison hit of an AI result. */
export const CompareResult = z.object({
  name: z.string(),
  /** the compared library item (person id, plate number) */
  comparison: z.string(),
  /** 0..100 */
  similarity: z.number(),
  /** stored picture of the library face, relative to web_root ('' when none) */
  face_image_uri: z.string(),
});
export type CompareResult = z.infer<typeof CompareResult>;

/** Alarm picture (part 2 section 3); picture paths are relative to `web_root`. */
export const AlarmPicture = z.object({
  /** alarm id */
  id: z.number().int(),
  eid: z.string(),
  type: z.string(),
  imgfile: z.string(),
  imgfile_big: z.string(),
  imgfile_small: z.string(),
  compare_result: z.array(CompareResult),
  hostname: z.string(),
  /** device key (hostbody) */
  deviceid: z.string(),
  /** ISO */
  shottime: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
});
export type AlarmPicture = z.infer<typeof AlarmPicture>;

/** Alarm row (spec part 1 section 3) with the server-derived display fields. */
export const Alarm = z.object({
  id: z.number().int(),
  /** source event id, unique (see top of file) */
  eid: z.string(),
  /** numeric string, alarm_type dictionary key */
  type: z.string(),
  alerm_level: z.enum(ALARM_LEVELS),
  hostname: z.string(),
  hostcode: z.string(),
  /** dispatch-mode device key */
  hostbody: z.string(),
  /** GB-mode device code (the device's hostbody on this installation) */
  gbbm: z.string(),
  unitname: z.string(),
  unit_id: z.number().int(),
  device_id: z.number().int().nullable(),
  /** when it happened (source time), ISO */
  alarm_time: z.string(),
  /** per caller: '0' unread, '1' read */
  status: z.enum(['0', '1']),
  /** when it was stored, ISO */
  insert_time: z.string(),
  /** type 0: fence name and direction label, e.g. `校园 (进入)`; '' otherwise */
  boutefence: z.string(),
  /** type 0: enter | exit; '' otherwise */
  fence_direction: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** device message (SOS text) or AI summary */
  message: z.string(),
  /** per caller: 1 read */
  hasRead: z.union([z.literal(0), z.literal(1)]),
  /** acknowledged (global) */
  sure: z.union([z.literal(0), z.literal(1)]),
  sure_user: z.string(),
  sure_note: z.string(),
  /** ISO or '' */
  sure_time: z.string(),
  /** AckType; null while open or when acknowledged before the type was recorded */
  sure_type: z.number().int().nullable(),
  /** two-digit row number within the answered list ('01') */
  index: z.string(),
  /** `hostname(hostcode)` */
  hostNameCode: z.string(),
  /** type name in the caller's language (type 0: boutefence) */
  typeName_cur: z.string(),
  /** unit name (GB) */
  dname: z.string(),
  /** face / plate alarms: the pictures, else null */
  picture: AlarmPicture.nullable(),
});
export type Alarm = z.infer<typeof Alarm>;

export const AlarmCounts = z.object({
  total: z.number().int(),
  criticle: z.number().int(),
  middle: z.number().int(),
  normal: z.number().int(),
});
export type AlarmCounts = z.infer<typeof AlarmCounts>;

/**
 * How an alarm was acknowledged: handled, a false alarm, or transferred to another unit (ours: the
 * spec lists emergency_handled's ack_type only). Stored with the alarm (`sure_type`).
 */
export const AckType = { HANDLED: 0, FALSE_ALARM: 1, TRANSFERRED: 2 } as const;
export type AckType = (typeof AckType)[keyof typeof AckType];
export const ACK_TYPES: readonly AckType[] = Object.values(AckType);
