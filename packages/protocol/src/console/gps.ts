import { z } from 'zod';
import { OptionalExtId, OptionalUid, TimeInput } from './fields';
import { GPS_REPORT_MAX } from './limits';

/**
 * GPS family (spec part 1 sections 3 and 7). Terminals report positions through the service
 * (`req_report_gps`, ours: the spec names only the console side); they land in the same position
 * store, track history and fences as device API positions. Consoles receive `notice_gps` for the
 * terminals of their unit scope, merged per console at most once a second. Coordinates WGS-84.
 */

/** One fix of a terminal (notice_gps, rsp_query_gps, rsp_query_history_gps). */
export const GpsFix = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  lat: z.number(),
  lng: z.number(),
  /** km/h */
  speed: z.number().nullable(),
  /** degrees */
  course: z.number().nullable(),
  /** metres */
  accuracy: z.number().nullable(),
  /** percent */
  battery: z.number().nullable(),
  /** ISO */
  time: z.string(),
});
export type GpsFix = z.infer<typeof GpsFix>;

/**
 * req_query_gps (fire-and-forget; the SDK turns the answer into a gps notice): the latest fix of
 * `target` / `exttarget`, or of every terminal of the caller's scope when neither is given. A
 * named terminal that is logged on also gets notice_query_gps, asking it to report at once.
 */
export const QueryGpsRequest = z.object({ target: OptionalUid, exttarget: OptionalExtId });
export type QueryGpsRequest = z.infer<typeof QueryGpsRequest>;
export const GpsAnswer = z.object({ gps: z.array(GpsFix) });
export type GpsAnswer = z.infer<typeof GpsAnswer>;
/** notice_gps: changed fixes since the last notice to this console. */
export const GpsNotice = GpsAnswer;
/** notice_query_gps: to a terminal, a console asks for its position now (`demander` is the console's uid). */
export const QueryGpsNotice = z.object({ demander: z.number().int(), extdemander: z.string() });

/** req_query_history_gps: fixes of one terminal between starttime and endtime, oldest first. */
export const QueryHistoryGpsRequest = z
  .object({
    target: OptionalUid,
    exttarget: OptionalExtId,
    starttime: TimeInput,
    endtime: TimeInput,
  })
  .refine((q) => q.target !== undefined || q.exttarget !== undefined, {
    error: 'validation.required',
    path: ['target'],
  })
  .refine((q) => q.endtime >= q.starttime, { error: 'validation.timeRange', path: ['endtime'] });
export type QueryHistoryGpsRequest = z.infer<typeof QueryHistoryGpsRequest>;
export const HistoryGpsAnswer = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  gps: z.array(GpsFix),
  /** 1 when more fixes exist than HISTORY_GPS_MAX_POINTS: narrow the range */
  truncated: z.union([z.literal(0), z.literal(1)]),
});
export type HistoryGpsAnswer = z.infer<typeof HistoryGpsAnswer>;

/**
 * req_report_gps (a terminal, ours): positions in the device API's item shape
 * (`{time, lat, lng, speed?, course?, accuracy?, battery?}`); items are checked one by one like
 * the device API batch: bad items are listed in `rejected`, the others stored.
 */
export const ReportGpsRequest = z.object({
  gps: z
    .array(z.unknown(), { error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(GPS_REPORT_MAX, { error: 'validation.tooLong' }),
});
export type ReportGpsRequest = z.infer<typeof ReportGpsRequest>;
export const ReportGpsAnswer = z.object({
  accepted: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), field: z.string(), msg: z.string() })),
});
