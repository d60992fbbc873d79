import { z } from 'zod';
import { FlagInput, PageQuery } from '../envelope';
import { AckType, Alarm, AlarmCounts, AlarmPicture } from './alarm-record';
import { DateTimeInput, numberInput, optionalId, optionalInput } from './inputs';

/**
 * Alarms (spec part 1 sections 3, 4, 7; part 2 sections 2.2, 3, 4, 7.2).
 *
 * - An alarm is one row per source event (`eid`: `sos:<device_events.id>`, `fence:<fence_events.id>`,
 *   `offline:<device_events.id>`, `ai:<engine event id>`), unique: a retried ingest answers the
 *   stored alarm and pushes nothing new.
 * - Read (`hasRead`, `status` '0' unread / '1' read) is PER CONSOLE USER: a dispatcher marking an
 *   alarm read does not change another dispatcher's bell.
 * - Acknowledgement (`sure`) is GLOBAL: who (`sure_user`), when (`sure_time`) and a note
 *   (`sure_note`); an acknowledged alarm leaves every bell (it is no longer listed as unread).
 * - Visible to users whose unit subtree holds the device's unit (administrators: all).
 */

/** Rows one alarm export may hold. */
export const ALARM_EXPORT_MAX = 10_000;
/** ids in one read / acknowledge request */
export const ALARM_IDS_MAX = 500;

/**
 * GET rest/system/alarm/get (dispatch) and GET rest/monitor/alarmhistory/alarmlight (GB): the
 * caller's unread, unacknowledged alarms. count: totals; lines: newest first, at most
 * ALARM_BELL_LINES_MAX per severity.
 */
export const AlarmListResponse = z.object({
  count: AlarmCounts,
  lines: z.object({ criticle: z.array(Alarm), middle: z.array(Alarm), normal: z.array(Alarm) }),
});
export type AlarmListResponse = z.infer<typeof AlarmListResponse>;

const alarmId = numberInput(
  z
    .number({ error: 'validation.required' })
    .int({ error: 'validation.integer' })
    .positive({ error: 'validation.range' }),
);

/** POST rest/system/alarm/read: mark alarms read for the caller; `{ids: [{id, eid}]}`. */
export const AlarmReadRequest = z.object({
  ids: z
    .array(
      z.object({
        id: alarmId,
        eid: z
          .string({ error: 'validation.required' })
          .trim()
          .min(1, { error: 'validation.required' })
          .max(64, { error: 'validation.tooLong' }),
      }),
      {
        error: 'validation.required',
      },
    )
    .min(1, { error: 'validation.required' })
    .max(ALARM_IDS_MAX, { error: 'validation.tooLong' }),
});
export type AlarmReadRequest = z.infer<typeof AlarmReadRequest>;
/** answer of read / read_all / sure_alarm / sure_all_alarm: how many rows changed */
export const AlarmChanged = z.object({ count: z.number().int() });
export type AlarmChanged = z.infer<typeof AlarmChanged>;

/** GET rest/system/alarm/is_alarm: 1 when the caller has an unread, unacknowledged alarm. */
export const IsAlarmResponse = z.object({ is_alarm: z.union([z.literal(0), z.literal(1)]) });
export type IsAlarmResponse = z.infer<typeof IsAlarmResponse>;

/** GET rest/system/alarm/setting: the bell's sound (alarmset settings). sos_alarm_time in seconds. */
export const AlarmSoundSettings = z.object({ sos_alarm_time: z.number().int(), sos_alarm_audio: z.string() });
export type AlarmSoundSettings = z.infer<typeof AlarmSoundSettings>;

/** POST rest/system/alarm/position `{hostbody: [..]}` (dispatch): last positions, list of {hostbody, lng, lat}. */
export const AlarmPositionRequest = z.object({
  hostbody: z
    .array(z.string().trim().min(1, { error: 'validation.required' }).max(64, { error: 'validation.tooLong' }), {
      error: 'validation.required',
    })
    .min(1, { error: 'validation.required' })
    .max(100, { error: 'validation.tooLong' }),
});
export type AlarmPositionRequest = z.infer<typeof AlarmPositionRequest>;
export const AlarmPosition = z.object({ hostbody: z.string(), lng: z.number().nullable(), lat: z.number().nullable() });
export type AlarmPosition = z.infer<typeof AlarmPosition>;
/** POST rest/monitor/alarmhistory/position `{gbbm: [code]}` (GB): answer `{data: [{gbbm, lng, lat}]}`. */
export const AlarmGbPositionRequest = z.object({
  gbbm: z
    .array(z.string().trim().min(1, { error: 'validation.required' }).max(64, { error: 'validation.tooLong' }), {
      error: 'validation.required',
    })
    .min(1, { error: 'validation.required' })
    .max(100, { error: 'validation.tooLong' }),
});
export type AlarmGbPositionRequest = z.infer<typeof AlarmGbPositionRequest>;
export const AlarmGbPositionResponse = z.object({
  data: z.array(z.object({ gbbm: z.string(), lng: z.number().nullable(), lat: z.number().nullable() })),
});

/** Filters of alarm history (search and export). */
const historyFilters = {
  /** alarm_time from (inclusive) */
  start: optionalInput(DateTimeInput),
  /** alarm_time to (inclusive) */
  end: optionalInput(DateTimeInput),
  /** alarm_type key (alermcate) */
  type: optionalInput(
    z
      .string()
      .trim()
      .regex(/^\d{1,4}$/, { error: 'validation.choice' }),
  ),
  /** severity tab: 0 criticle, 1 middle, 2 normal */
  alarmNavActive: optionalInput(
    z.coerce
      .number({ error: 'validation.number' })
      .pipe(z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'validation.choice' })),
  ),
  /** unit subtree */
  unit_id: optionalId,
  /** device: part of hostbody, hostname or hostcode */
  device: optionalInput(z.string().trim().max(64, { error: 'validation.tooLong' })),
  /** 0 unread / 1 read (by the caller) */
  read: optionalInput(FlagInput),
  /** 0 not acknowledged / 1 acknowledged */
  sure: optionalInput(FlagInput),
};
/**
 * POST rest/gis/alarmhis/search (dispatch, 10104) and POST rest/monitor/alarmhistory/search
 * (GB, 10154): page of alarms, newest first. Answer `Page<Alarm>`.
 */
export const AlarmSearchRequest = PageQuery.extend(historyFilters);
export type AlarmSearchRequest = z.infer<typeof AlarmSearchRequest>;
/** GET rest/gis/alarmhis/export (and rest/monitor/alarmhistory/export): the same filters, .xlsx file. */
export const AlarmExportQuery = z.object(historyFilters);
export type AlarmExportQuery = z.infer<typeof AlarmExportQuery>;

/** GET rest/gis/alarmhis/alermcate: alarm types to filter by (enabled dictionary entries, caller's language). */
export const AlarmCategory = z.object({ key: z.string(), label: z.string() });
export type AlarmCategory = z.infer<typeof AlarmCategory>;

const ackTypeInput = numberInput(
  z
    .number({ error: 'validation.number' })
    .int({ error: 'validation.integer' })
    .min(AckType.HANDLED, { error: 'validation.range' })
    .max(AckType.TRANSFERRED, { error: 'validation.range' }),
).default(AckType.HANDLED);

/**
 * POST rest/system/alarm/sure_alarm (dispatch, 10104 edit) and POST
 * rest/monitor/alarmhistory/sure_alarm (GB, 10154 edit): acknowledge alarms with an optional note.
 * Already acknowledged ones keep their first handler.
 */
export const AlarmSureRequest = z.object({
  ids: z
    .array(alarmId, { error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(ALARM_IDS_MAX, { error: 'validation.tooLong' }),
  note: z.string().trim().max(200, { error: 'validation.tooLong' }).default(''),
  /** how (ours; absent: handled) */
  ack_type: ackTypeInput,
});
export type AlarmSureRequest = z.infer<typeof AlarmSureRequest>;
/** GET rest/system/alarm/sure_all_alarm?note=: acknowledge every visible unacknowledged alarm. */
export const AlarmSureAllQuery = z.object({
  note: z.string().trim().max(200, { error: 'validation.tooLong' }).default(''),
  ack_type: ackTypeInput,
});
export type AlarmSureAllQuery = z.infer<typeof AlarmSureAllQuery>;

/** GET rest/mini/rtcapt/alarm_pic?limit=: newest face alarm pictures (10095 view). */
export const AlarmPicQuery = z.object({
  limit: z.coerce
    .number({ error: 'validation.number' })
    .int({ error: 'validation.integer' })
    .min(1, { error: 'validation.range' })
    .max(100, { error: 'validation.range' })
    .default(20),
});
export type AlarmPicQuery = z.infer<typeof AlarmPicQuery>;
export const AlarmPicResponse = z.object({ alarm_pic: z.array(AlarmPicture), web_root: z.string() });
export type AlarmPicResponse = z.infer<typeof AlarmPicResponse>;

/** A base64 picture (optionally a data: URL) of at most ~4 MB, JPEG or PNG. */
const base64Picture = z
  .string({ error: 'validation.required' })
  .trim()
  .max(6_000_000, { error: 'validation.tooLong' })
  .regex(/^(data:image\/(jpeg|png);base64,)?[A-Za-z0-9+/=\s]+$/, { error: 'validation.alarm.picture' });

/**
 * POST rest/ai/engine/alarm (AI engine; `Authorization: Bearer <AI engine token>`, no session):
 * a face or plate result. Idempotent on event_id. Answer `{id, eid, created}` (created 0 on a retry).
 */
export const AiAlarmRequest = z.object({
  /** the engine's own id of this result (unique per engine) */
  event_id: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(48, { error: 'validation.tooLong' }),
  kind: z.enum(['face', 'plate'], { error: 'validation.choice' }),
  /** device key (hostbody) that shot the picture */
  deviceid: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(64, { error: 'validation.tooLong' }),
  hostname: z.string().trim().max(64, { error: 'validation.tooLong' }).default(''),
  shottime: DateTimeInput,
  lat: optionalInput(
    z.coerce
      .number({ error: 'validation.number' })
      .min(-90, { error: 'validation.latitude' })
      .max(90, { error: 'validation.latitude' }),
  ),
  lng: optionalInput(
    z.coerce
      .number({ error: 'validation.number' })
      .min(-180, { error: 'validation.longitude' })
      .max(180, { error: 'validation.longitude' }),
  ),
  /** scene picture */
  imgfile: base64Picture,
  imgfile_big: optionalInput(base64Picture),
  imgfile_small: optionalInput(base64Picture),
  compare_result: z
    .array(
      z.object({
        name: z.string().trim().max(64, { error: 'validation.tooLong' }).default(''),
        comparison: z.string().trim().max(64, { error: 'validation.tooLong' }).default(''),
        similarity: z.coerce
          .number({ error: 'validation.number' })
          .min(0, { error: 'validation.range' })
          .max(100, { error: 'validation.range' }),
        face_image: optionalInput(base64Picture),
      }),
    )
    .max(20, { error: 'validation.tooLong' })
    .default([]),
});
export type AiAlarmRequest = z.input<typeof AiAlarmRequest>;
export const AiAlarmResponse = z.object({
  id: z.number().int(),
  eid: z.string(),
  created: z.union([z.literal(0), z.literal(1)]),
});
export type AiAlarmResponse = z.infer<typeof AiAlarmResponse>;
