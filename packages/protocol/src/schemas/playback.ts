import { z } from 'zod';
import {
  EVIDENCE_DESCRIPTION_MAX,
  EVIDENCE_REASON_MAX,
  EVIDENCE_TITLE_MAX,
  MediaIdRequest,
  MediaItem,
} from './evidence';
import { DateTimeInput, numberInput } from './inputs';

/**
 * History replay (issue 15 section 2; spec part 2 section 7.2): a device's recordings found on a
 * timeline by time and played. Two doors to the same evidence library:
 * - /monitor/playback (menu 10152): rest/monitor/videoreplay get, search, getinfo, saveinfo, mediadown;
 * - the dispatch mode's playback (emergency 10101 or history 10103): rest/gis/mediafile search,
 *   history_mark, media_down and rest/gis/playback info_play, mediaflg_edit.
 * Unit scope applies to devices and items: another unit's device or item answers not found.
 * Views, plays, marks, revisions and downloads go through the library, so they are on the item's
 * chain of custody like the library's own.
 */

/** Most devices of one search. */
export const PLAYBACK_DEVICES_MAX = 20;
/** Longest time range of one search. */
export const PLAYBACK_RANGE_MAX_DAYS = 31;
/** Most recordings (and, separately, alarm marks) of one answer; more -> `truncated`. */
export const PLAYBACK_RESULTS_MAX = 5_000;
/**
 * Longest recording the search looks back for: a recording that began up to this long before
 * `start` and still runs at `start` is found.
 */
export const PLAYBACK_LOOKBACK_H = 24;

const id = numberInput(z.number({ error: 'validation.number' }).int().positive({ error: 'validation.range' }));

/** POST rest/monitor/videoreplay/get `{keyword?, limit?}`: devices in the caller's units, by name, code or body number. */
export const PlaybackDeviceQuery = z.object({
  keyword: z.string().trim().max(50, { error: 'validation.tooLong' }).default(''),
  limit: numberInput(
    z.number().int().min(1, { error: 'validation.range' }).max(200, { error: 'validation.range' }),
  ).default(50),
});
export const PlaybackDevice = z.object({
  id: z.number().int(),
  hostname: z.string(),
  hostbody: z.string(),
  hostcode: z.string(),
  unit_id: z.number().int(),
  unit_name: z.string(),
  /** 1 online */
  lineon: z.number().int(),
});
export type PlaybackDevice = z.infer<typeof PlaybackDevice>;

type Range = { start: string; end: string };
const ordered = (q: Range) => q.start <= q.end;
const notTooLong = (q: Range) => Date.parse(q.end) - Date.parse(q.start) <= PLAYBACK_RANGE_MAX_DAYS * 86_400_000;

/**
 * POST videoreplay/search, gis/mediafile/search and gis/mediafile/history_mark
 * `{ids, start, end}` (device ids; ISO or `YYYY-MM-DD HH:mm:ss` UTC).
 */
export const PlaybackSearchRequest = z
  .object({
    ids: z
      .array(id, { error: 'validation.required' })
      .min(1, { error: 'validation.required' })
      .max(PLAYBACK_DEVICES_MAX, { error: 'validation.playback.tooManyDevices' }),
    start: DateTimeInput,
    end: DateTimeInput,
  })
  .refine(ordered, { error: 'validation.timeRange', path: ['end'] })
  .refine(notTooLong, { error: 'validation.playback.rangeTooLong', path: ['end'] });
export type PlaybackSearchRequest = z.infer<typeof PlaybackSearchRequest>;

/** A recording on a device's timeline: it runs from `recorded_at` to `end`. */
export const PlaybackRecording = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  media_type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  title: z.string(),
  recorded_at: z.string(),
  /** seconds; null for images (a moment) */
  duration: z.number().nullable(),
  /** recorded_at + duration */
  end: z.string(),
  flg: z.number().int(),
  playable: MediaItem.shape.playable,
  /** signed thumbnail address, '' when none */
  thumb_url: z.string(),
});
export type PlaybackRecording = z.infer<typeof PlaybackRecording>;

/** A timeline mark: a recording (a span, `media_id` set) or an alarm of the device (a moment). */
export const PlaybackMark = z.object({
  device_id: z.number().int(),
  type: z.enum(['recording', 'alarm']),
  time: z.string(),
  /** end of a recording, null for an alarm */
  end: z.string().nullable(),
  media_id: z.number().int().nullable(),
  /** alarm_type dictionary key of an alarm (ALARM_TYPE, '1' SOS), '' for a recording */
  alarm_type: z.string(),
  /** recording title or alarm message */
  label: z.string(),
});
export type PlaybackMark = z.infer<typeof PlaybackMark>;
export const PlaybackMarksAnswer = z.object({ marks: z.array(PlaybackMark), truncated: z.boolean() });
export type PlaybackMarksAnswer = z.infer<typeof PlaybackMarksAnswer>;

/** The recordings of the devices overlapping the range (not deleted), oldest first; `truncated`: more than PLAYBACK_RESULTS_MAX. */
export const PlaybackSearchAnswer = z.object({
  start: z.string(),
  end: z.string(),
  devices: z.array(PlaybackDevice),
  recordings: z.array(PlaybackRecording),
  /** the devices' alarms in the range (SOS and others), oldest first */
  alarms: z.array(PlaybackMark),
  truncated: z.boolean(),
});
export type PlaybackSearchAnswer = z.infer<typeof PlaybackSearchAnswer>;

/** POST videoreplay/getinfo, gis/playback/info_play `{id}`: the item and its signed play address (custody: viewed). */
export const PlaybackInfo = z.object({
  item: MediaItem,
  play_url: z.string(),
  play_mime: z.string(),
  /** epoch ms when the address stops working */
  expires: z.number().int(),
});
export type PlaybackInfo = z.infer<typeof PlaybackInfo>;
export const PlaybackIdRequest = MediaIdRequest;

const flg = numberInput(z.union([z.literal(0), z.literal(1)], { error: 'validation.required' }));

/**
 * POST videoreplay/saveinfo `{id, title?, description?, flg?, reason?}`: a revision of title and
 * description (reason required with them) and/or the mark, through the library (revision rows,
 * custody 'revised' / 'marked'). Nothing changed: errors.library.noChange.
 */
export const PlaybackSaveRequest = MediaIdRequest.extend({
  title: z
    .string()
    .trim()
    .min(1, { error: 'validation.required' })
    .max(EVIDENCE_TITLE_MAX, { error: 'validation.tooLong' })
    .optional(),
  description: z.string().trim().max(EVIDENCE_DESCRIPTION_MAX, { error: 'validation.tooLong' }).optional(),
  flg: flg.optional(),
  reason: z.string().trim().max(EVIDENCE_REASON_MAX, { error: 'validation.tooLong' }).default(''),
}).refine((q) => (q.title === undefined && q.description === undefined) || q.reason !== '', {
  error: 'validation.required',
  path: ['reason'],
});
export type PlaybackSaveRequest = z.infer<typeof PlaybackSaveRequest>;

/** POST gis/playback/mediaflg_edit `{id, flg}` */
export const PlaybackFlagRequest = MediaIdRequest.extend({ flg });
