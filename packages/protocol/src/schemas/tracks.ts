import { z } from 'zod';
import { DateTimeInput, numberInput } from './inputs';

/**
 * History track (monitor/track, menu 10153) and the `gismoni` history calls (spec part 2 section
 * 7.2): positions of several devices over a time range (WGS-84), with stops and gaps computed by
 * the server, marks (stops, gaps, SOS, online/offline, fence crossings) and GPX 1.1 / KML 2.2
 * exports. Unit scope applies to the devices: an id outside the caller's scope is refused.
 */

/** Longest time range of one call. */
export const TRACK_RANGE_MAX_DAYS = 31;
/** Most devices of one call. */
export const TRACK_DEVICES_MAX = 50;
/** Points per device per answer; more -> `truncated` with `next_start` (ask again from there). */
export const TRACK_POINTS_PAGE = 20_000;
/** Points per device in one export; more is refused (narrow the range). */
export const TRACK_EXPORT_POINTS_MAX = 200_000;
/** A stop: the device stays within STOP_RADIUS_M metres for at least STOP_MIN_S seconds. */
export const TRACK_STOP_RADIUS_M = 50;
export const TRACK_STOP_MIN_S = 120;
/** A gap: no position for more than this many seconds between two consecutive fixes. */
export const TRACK_GAP_MIN_S = 300;
export const TRACK_EXPORT_FORMATS = ['gpx', 'kml'] as const;
export type TrackExportFormat = (typeof TRACK_EXPORT_FORMATS)[number];

/** device ids as an array or a comma-separated string (query strings) */
const idsInput = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? [] : v.split(',')) : typeof v === 'number' ? [v] : v),
  z
    .array(
      numberInput(
        z
          .number({ error: 'validation.number' })
          .int({ error: 'validation.integer' })
          .positive({ error: 'validation.range' }),
      ),
      { error: 'validation.required' },
    )
    .min(1, { error: 'validation.required' })
    .max(TRACK_DEVICES_MAX, { error: 'validation.track.tooManyDevices' }),
);

const rangeFields = {
  ids: idsInput,
  /** from (inclusive), ISO or `YYYY-MM-DD HH:mm:ss` (UTC) */
  start: DateTimeInput,
  /** to (inclusive) */
  end: DateTimeInput,
};
type Range = { start: string; end: string };
const ordered = (q: Range) => q.start <= q.end;
const notTooLong = (q: Range) => Date.parse(q.end) - Date.parse(q.start) <= TRACK_RANGE_MAX_DAYS * 86_400_000;

/** POST rest/gis/gismoni/history `{ids, start, end}` */
export const TrackQuery = z
  .object(rangeFields)
  .refine(ordered, { error: 'validation.timeRange', path: ['end'] })
  .refine(notTooLong, { error: 'validation.track.rangeTooLong', path: ['end'] });
export type TrackQuery = z.infer<typeof TrackQuery>;

export const TrackPoint = z.object({
  time: z.string(),
  lat: z.number(),
  lng: z.number(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
});
export type TrackPoint = z.infer<typeof TrackPoint>;

export const TrackStop = z.object({
  start: z.string(),
  end: z.string(),
  duration_s: z.number().int(),
  /** centre of the stop */
  lat: z.number(),
  lng: z.number(),
  /** index of the first and last point of the stop in `points` */
  from_index: z.number().int(),
  to_index: z.number().int(),
});
export type TrackStop = z.infer<typeof TrackStop>;

export const TrackGap = z.object({
  /** time of the last fix before the gap and of the first after it */
  start: z.string(),
  end: z.string(),
  duration_s: z.number().int(),
  from: z.object({ lat: z.number(), lng: z.number() }),
  to: z.object({ lat: z.number(), lng: z.number() }),
  /** index in `points` of the fix after the gap */
  index: z.number().int(),
});
export type TrackGap = z.infer<typeof TrackGap>;

export const DeviceTrack = z.object({
  device_id: z.number().int(),
  hostbody: z.string(),
  hostname: z.string(),
  hostcode: z.string(),
  points: z.array(TrackPoint),
  stops: z.array(TrackStop),
  gaps: z.array(TrackGap),
  /** metres along the returned points */
  distance_m: z.number(),
  /** more points exist after the last one returned: ask again with start = next_start */
  truncated: z.boolean(),
  next_start: z.string().nullable(),
});
export type DeviceTrack = z.infer<typeof DeviceTrack>;
export const TrackAnswer = z.object({
  start: z.string(),
  end: z.string(),
  tracks: z.array(DeviceTrack),
  /** points per device per answer */
  page_size: z.number().int(),
});
export type TrackAnswer = z.infer<typeof TrackAnswer>;

/** POST rest/gis/gismoni/history_mark `{ids, start, end}`: what to mark on the timeline, oldest first. */
export const TrackMarkQuery = TrackQuery;
export const TRACK_MARK_TYPES = [
  'stop',
  'gap',
  'sos',
  'online',
  'offline',
  'remote_kill',
  'remote_wakeon',
  'fence_enter',
  'fence_exit',
] as const;
export const TrackMark = z.object({
  device_id: z.number().int(),
  type: z.enum(TRACK_MARK_TYPES),
  time: z.string(),
  /** end of a stop or a gap, else null */
  end: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** fence name of fence marks, SOS message, offline reason; else '' */
  label: z.string(),
});
export type TrackMark = z.infer<typeof TrackMark>;
export const TrackMarkAnswer = z.object({ marks: z.array(TrackMark), truncated: z.boolean() });
export type TrackMarkAnswer = z.infer<typeof TrackMarkAnswer>;

/**
 * GET rest/gis/track/export?ids=1,2&start=&end=&format=gpx|kml: a GPX 1.1 (one <trk> per device)
 * or KML 2.2 (one Placemark with a LineString per device, stops as Points) file, content-disposition
 * `track-<start>.gpx|kml`. Errors come as envelopes.
 */
export const TrackExportQuery = z
  .object({ ...rangeFields, format: z.enum(TRACK_EXPORT_FORMATS, { error: 'validation.track.format' }).default('gpx') })
  .refine(ordered, { error: 'validation.timeRange', path: ['end'] })
  .refine(notTooLong, { error: 'validation.track.rangeTooLong', path: ['end'] });
export type TrackExportQuery = z.infer<typeof TrackExportQuery>;
