import { z } from 'zod';
import { LivePlay } from '../schemas/live-stream';
import { OptionalExtId, OptionalUid, RequiredText, Tgid } from './fields';

/**
 * Video conferences (issue 14 section 5). The spec names the four codes (with callback), their
 * fields (demander, extdemander, tgid, plus vsid for share and stop-share) and the notices
 * (conference start, stop and share); the rest is ours:
 *
 * - a console starts the conference of a group it sees (one per group); its participants are the
 *   group's members, the users attached to it and the demander;
 * - every member terminal online is asked to publish its live video (as for req_play_video) and
 *   each console participant gets signed play paths of every tile, in its own answer or notice;
 * - the audio is full duplex without a floor: binary frames of kind AudioKind.CONFERENCE (talk.ts
 *   header, `tgid` = the group) from a participant go to every other participant;
 * - a participant shares a device's video (`vsid`: its uid or ext id) into it: every participant
 *   is told, consoles get the tile; stop-share takes it away;
 * - the demander, or a console with edit on the talk screens, stops it for all; a participant
 *   disconnecting leaves it, the demander disconnecting ends it.
 */

/**
 * Ours: a participant whose connection closed leaves (the demander: ends it) only when it is not
 * back this long after, so that a reconnect or a resumed login does not throw it out.
 */
export const CONFERENCE_LEAVE_GRACE_MS = 3_000;

/** Ours: the longest a conference lives without any change (the shared state forgets it after). */
export const CONFERENCE_MAX_IDLE_MS = 12 * 60 * 60_000;

/** req_start_video_conf / req_stop_video_conf: `demander` / `extdemander` as the SDK sends them (the caller counts). */
export const VideoConfRequest = z.object({ demander: OptionalUid, extdemander: OptionalExtId, tgid: Tgid });
/** req_share_video_in_video_conf / req_stop_share_video_in_video_conf: `vsid` the shared device's uid or ext id. */
export const ShareVideoRequest = VideoConfRequest.extend({
  vsid: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), RequiredText(64)),
});

/** One participant of a conference. */
export const ConfParticipant = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  name: z.string(),
  /** 1: a terminal (its video is a tile) */
  terminal: z.union([z.literal(0), z.literal(1)]),
});
export type ConfParticipant = z.infer<typeof ConfParticipant>;

/** Why a tile has no picture: the device is offline, or the media gateway is off. */
export const ConfTileError = z.enum(['offline', 'gateway']);
export type ConfTileError = z.infer<typeof ConfTileError>;

/**
 * A video tile of a console: a device whose live video is in the conference. `play` its signed
 * paths for this console; absent with `error` when the device could not be asked.
 */
export const ConfTile = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  name: z.string(),
  /** 1: the shared video (`vsid`) */
  shared: z.union([z.literal(0), z.literal(1)]),
  play: LivePlay.optional(),
  error: ConfTileError.optional(),
});
export type ConfTile = z.infer<typeof ConfTile>;

/** A conference as every participant knows it. */
export const Conference = z.object({
  tgid: z.number().int(),
  tg_name: z.string(),
  /** the console that started it */
  demander: z.number().int(),
  extdemander: z.string(),
  participants: z.array(ConfParticipant),
  /** the shared device's uid, null while nothing is shared */
  vsid: z.string().nullable(),
  /** epoch ms */
  started: z.number().int(),
});
export type Conference = z.infer<typeof Conference>;

/** Answer of req_start_video_conf, and notice_start_video_conf to each participant (`tiles` to consoles only). */
export const ConferenceAnswer = Conference.extend({ tiles: z.array(ConfTile).optional() });
export type ConferenceAnswer = z.infer<typeof ConferenceAnswer>;

/**
 * notice_start_video_conf: the conference as it is now. `event` says why: `started` (to a user
 * who takes part from now on: at the start, or when it logs on again while the conference lasts),
 * a participant `left` (`uid`; its connection closed) or `joined` (`uid`; it logged on again).
 */
export const StartConfNotice = ConferenceAnswer.extend({
  event: z.enum(['started', 'left', 'joined']),
  uid: z.number().int().optional(),
});
export type StartConfNotice = z.infer<typeof StartConfNotice>;

/** Why a conference ended. */
export const ConfEndReason = z.enum(['stopped', 'demander_left', 'group_deleted']);
export type ConfEndReason = z.infer<typeof ConfEndReason>;

/** Answer of req_stop_video_conf and notice_stop_video_conf: whose conference ended, why, by whom. */
export const StopConfNotice = z.object({
  tgid: z.number().int(),
  demander: z.number().int(),
  extdemander: z.string(),
  reason: ConfEndReason,
  /** who stopped it (the demander, a console with edit; the demander for the other reasons) */
  by: z.number().int(),
});
export type StopConfNotice = z.infer<typeof StopConfNotice>;

/**
 * Answer of req_share_video_in_video_conf / req_stop_share_video_in_video_conf and their notices
 * to every participant: the shared device (`vsid` its uid) and, to a console, its tile.
 */
export const ShareConfNotice = z.object({
  tgid: z.number().int(),
  demander: z.number().int(),
  extdemander: z.string(),
  vsid: z.string(),
  /** who shared or stopped the share */
  by: z.number().int(),
  tile: ConfTile.optional(),
});
export type ShareConfNotice = z.infer<typeof ShareConfNotice>;
