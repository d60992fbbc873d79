import { z } from 'zod';
import { LivePlay } from '../schemas/live-stream';
import { intIn, maybe, OptionalExtId, OptionalUid, StringLike } from './fields';

/**
 * Live video (spec part 1 section 3 field lists). Live video of a terminal works (issue 13),
 * push-to-talk is `talk.ts`, voice calls `call.ts` and video conferences `conference.ts` (issue 14);
 * the other video codes arrive later: until then the service checks each request against
 * its schema and answers cmd_status NOT_AVAILABLE (50101) naming the code, so that nothing is
 * silently dropped. `session` of the video codes is the envelope's media session.
 */

const small = intIn(0, 9_999);
const optionalSmall = maybe(small);
const PartyFields = {
  demander: OptionalUid,
  extdemander: OptionalExtId,
  target: OptionalUid,
  exttarget: OptionalExtId,
};

/** req_play_video / req_stop_play_video */
export const PlayVideoRequest = z.object({
  ...PartyFields,
  channel: optionalSmall,
  resolution: maybe(StringLike(32)),
  stop_type: optionalSmall,
});
/** req_switch_camera */
export const SwitchCameraRequest = z.object({
  target: OptionalUid,
  exttarget: OptionalExtId,
  channel: optionalSmall,
  type: optionalSmall,
});
/** req_update_video_set */
export const VideoSetRequest = z.object({
  target: OptionalUid,
  exttarget: OptionalExtId,
  channel: optionalSmall,
  resolution: maybe(StringLike(32)),
  quality: optionalSmall,
});
/** req_video_mute */
export const VideoMuteRequest = z.object({
  target: OptionalUid,
  exttarget: OptionalExtId,
  channel: optionalSmall,
  mute: optionalSmall,
});

/** Every media answer while the media is not available: the code it concerned. */
export const NotAvailableAnswer = z.object({ available: z.literal(0) });
/**
 * req_play_video / req_stop_play_video of a console about a terminal (issue 13): live video works.
 * The code is fire-and-forget in the SDK, so the asking console also gets its play paths in its own
 * notice_play_video (`play`); the terminal's notice says `available: 1` and its publish URL comes
 * with the device command `startlive`. `available` 0: a request that is not live video of a
 * terminal (a terminal asking, a console as target), answered NOT_AVAILABLE.
 */
export const PlayVideoAnswer = z.object({
  available: z.union([z.literal(0), z.literal(1)]),
  play: LivePlay.optional(),
});

/**
 * The notice each media request gives its parties (spec part 1 section 7 "notices handled": video
 * play, stop, mute, set update; the conference notices are conference.ts). Until the media lands
 * every request is stored (who asked what of whom) and its target user is told with `available: 0`.
 */
export const MEDIA_NOTICES = {
  req_play_video: 'notice_play_video',
  req_stop_play_video: 'notice_stop_play_video',
  req_switch_camera: 'notice_switch_camera',
  req_video_mute: 'notice_video_mute',
  req_update_video_set: 'notice_update_video_set',
} as const;
export type MediaCode = keyof typeof MEDIA_NOTICES;

/**
 * A media notice (ours, the spec lists the notices, not their fields): the request's own fields
 * as sent (demander, target, tgid, channel, state, ...), who asked (`from`, `extfrom`), the
 * request code and `available` 0 while the media is not there.
 */
export const MediaNotice = z
  .object({
    request: z.string(),
    from: z.number().int(),
    extfrom: z.string(),
    available: z.union([z.literal(0), z.literal(1)]),
    /** notice_play_video to the console that asked: its play paths */
    play: LivePlay.optional(),
  })
  .catchall(z.unknown());
