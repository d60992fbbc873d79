import { z } from 'zod';
import { DEFAULT_VIDEO_LIST_LENGTH, VIDEO_LIST_MAX_LENGTH } from './limits';
import { maybe, numeric, RequiredText, StringLike, Text, TimeInput } from './fields';

/**
 * Recorded videos of terminals (spec part 1 sections 3 and 5). Terminals register the videos
 * they recorded (`req_report_video`, ours: the spec names only the console side); consoles list
 * them and ask for a transfer (`req_transform_video`), which the owning terminal gets as
 * `notice_transform_video` (ours). Live video pushing comes with the video issue; until then
 * `req_get_push_video_users` answers the empty list it truly is.
 */

export const VideoItem = z.object({
  videoid: z.string(),
  uid: z.number().int(),
  ext_id: z.string(),
  /** the terminal's name (usercamnamelike matches it and the video's name) */
  display_name: z.string(),
  name: z.string(),
  url: z.string(),
  /** ISO */
  starttime: z.string(),
  endtime: z.string(),
  size: z.number().int(),
  /** address of the last transform request ('' none) */
  transform_url: z.string(),
});
export type VideoItem = z.infer<typeof VideoItem>;

/** req_get_video_list: start below 0 becomes 0, length 0 or below becomes 100 (spec part 1 section 5). */
export const VideoListRequest = z.object({
  starttime: maybe(TimeInput),
  endtime: maybe(TimeInput),
  usercamnamelike: Text(100).default(''),
  start: maybe(numeric(z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }))).transform((v) =>
    Math.max(0, v ?? 0),
  ),
  length: maybe(numeric(z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }))).transform(
    (v) => (v === undefined || v <= 0 ? DEFAULT_VIDEO_LIST_LENGTH : Math.min(v, VIDEO_LIST_MAX_LENGTH)),
  ),
});
export type VideoListRequest = z.infer<typeof VideoListRequest>;
export const VideoListAnswer = z.object({
  total: z.number().int(),
  start: z.number().int(),
  length: z.number().int(),
  videos: z.array(VideoItem),
});

/**
 * req_transform_video: empty videoid answers cmd_status 2 'videoId empty', empty videourl
 * cmd_status 3 'videoUrl empty' (spec part 1 section 5); the fields are therefore optional here.
 */
export const TransformVideoRequest = z.object({
  videoid: StringLike(64).default(''),
  videourl: Text(1024).default(''),
});
export type TransformVideoRequest = z.infer<typeof TransformVideoRequest>;
export const TransformVideoAnswer = z.object({ videoid: z.string(), videourl: z.string() });
/** notice_transform_video (ours): to the terminal that owns the video. */
export const TransformVideoNotice = TransformVideoAnswer;

/** req_report_video (a terminal, ours): a video it recorded. */
export const ReportVideoRequest = z.object({
  videoid: RequiredText(64),
  name: Text(255).default(''),
  url: RequiredText(1024),
  starttime: TimeInput,
  endtime: TimeInput,
  size: numeric(
    z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }).min(0, { error: 'validation.range' }),
  ).default(0),
});
export type ReportVideoRequest = z.infer<typeof ReportVideoRequest>;
export const ReportVideoAnswer = z.object({ videoid: z.string() });

export const PushVideoUsersRequest = z.object({});
export const PushVideoUsersAnswer = z.object({
  users: z.array(z.object({ uid: z.number().int(), ext_id: z.string(), display_name: z.string() })),
});
