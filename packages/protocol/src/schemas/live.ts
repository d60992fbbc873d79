import { z } from 'zod';
import { between } from '../validators';
import { Imei } from './device-fields';
import { LivePlay } from './live-stream';
import { numberInput } from './inputs';

/**
 * Live video (issue 13; spec part 2 sections 3, 7.2 and 9). A console asks for a device's live
 * picture (gismoni live_add, gisvideo getVideo or the console service's req_play_video); the server
 * tells the device to publish (device command `startlive`, whose payload carries a signed RTMP
 * publish URL minted when the device fetches it) and answers play paths with a short-lived token:
 * `flv` (HTTP-FLV) and `ws` (WS-FLV, the same path over a websocket upgrade). A viewer that opens
 * the path while the device is starting is held until the first packets arrive (LIVE_START_WAIT_MS).
 * The stream stops when its last viewer has been gone for LIVE_IDLE_MS, on live_delimei, and when
 * the device goes offline.
 */

/** A console waits this long for a device to start publishing after asking it. */
export const LIVE_START_WAIT_MS = 15_000;
/** A stream with no viewer for this long is stopped (the device is told `stoplive`). */
export const LIVE_IDLE_MS = 30_000;
/** A play token (the `token` of the play paths) admits a viewer for this long after it is issued. */
export const LIVE_PLAY_TOKEN_MS = 60_000;
/** A publish URL handed to a device in `startlive` works once, within this long. */
export const LIVE_PUBLISH_KEY_MS = 60_000;
/**
 * At most this many live players at once in one console. Spec part 2 says "fewer than 9" in
 * section 5 and "max 9" in section 9: we take section 9 (nine, the default split count), so the
 * 9-split wall can be full; a 16-split wall plays 9 and tells the user why the rest stay empty.
 */
export const LIVE_PLAYERS_MAX = 9;
/** An SOS pulls its device's live view this long after it arrives (spec part 2 section 9). */
export const SOS_LIVE_DELAY_MS = 3_000;

/** live_add {imei}: ask the device to publish and get its play paths. */
export const LiveAddRequest = z.object({ imei: Imei });
export type LiveAddRequest = z.infer<typeof LiveAddRequest>;

/**
 * live_del {imei, type}: this console closed its player of the device (the stream stops when no
 * viewer is left); live_delimei {imei, type}: stop the device's stream now for every viewer (edit).
 * `type` is the stream type of the request (startlive), accepted and not otherwise used.
 */
export const LiveDelRequest = z.object({
  imei: Imei,
  type: z.string({ error: 'validation.type' }).trim().max(32, { error: 'validation.tooLong' }).optional(),
});
export type LiveDelRequest = z.infer<typeof LiveDelRequest>;
/** Answer of live_del / live_delimei / live_alldel: how many streams were stopped now. */
export const LiveStopped = z.object({ stopped: z.number().int() });

const flag = z
  .union([z.string(), z.number()], { error: 'validation.choice' })
  .transform((v) => String(v))
  .pipe(z.enum(['0', '1'], { error: 'validation.choice' }));
const deviceId = numberInput(
  z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }).positive({ error: 'validation.range' }),
);

/**
 * gisvideo getVideo (spec part 2 section 3 "live pull request"): `ids` device ids (a list, or a
 * comma-separated text as the original console sends), the map config's video settings as the
 * console holds them, `type` startlive, `issos` '1' when an SOS pulls it, `messid` the alarm it
 * answers. All are validated; the save settings, `issos` and `messid` change nothing on the
 * server: SOS recording is started by the SOS itself and follows the stored map config
 * (getvideo_switch, getvideo_time, getvideo_path), whatever a console holds.
 */
export const GetVideoRequest = z.object({
  ids: z
    .union(
      [
        z.string().transform((s) =>
          s
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean),
        ),
        z.array(z.unknown()),
      ],
      {
        error: 'validation.required',
      },
    )
    .pipe(z.array(deviceId).min(1, { error: 'validation.required' }).max(16, { error: 'validation.range' })),
  getvideo_path: z.string({ error: 'validation.type' }).max(255, { error: 'validation.tooLong' }).optional(),
  getpic_path: z.string({ error: 'validation.type' }).max(255, { error: 'validation.tooLong' }).optional(),
  getvideo_switch: flag.optional(),
  getvideo_time: numberInput(
    between(z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }), 0, 3600),
  ).optional(),
  getvideo_num: numberInput(
    between(z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }), 0, 16),
  ).optional(),
  type: z.enum(['startlive'], { error: 'validation.choice' }).default('startlive'),
  issos: flag.default('0'),
  messid: z
    .union([z.string(), z.number()], { error: 'validation.type' })
    .transform(String)
    .pipe(z.string().max(64, { error: 'validation.tooLong' }))
    .optional(),
});
export type GetVideoRequest = z.infer<typeof GetVideoRequest>;
/** Answer of getVideo: a play per device that could start; the others with the reason. */
export const GetVideoAnswer = z.object({
  plays: z.array(LivePlay),
  failed: z.array(z.object({ id: z.number().int(), msg: z.string() })),
});
export type GetVideoAnswer = z.infer<typeof GetVideoAnswer>;

/** The `startlive` command's payload as the device receives it. */
export const StartLivePayload = z.object({
  /** rtmp://<host>:<port>/live/<device id>?key=<publish key>; works once, until `expires` */
  url: z.string(),
  expires: z.number().int(),
});
export type StartLivePayload = z.infer<typeof StartLivePayload>;

/** Ops centre media gateway (/oamcenter/PlatformAdmin/MediaGateway): one viewer of a stream. */
export const MediaViewer = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  username: z.string(),
  address: z.string(),
  /** 'ws' or 'http'; 'record': the server's SOS recording (user_id 0) */
  protocol: z.string(),
  since: z.string(),
  bytes_out: z.number().int(),
});
/** One stream of the gateway: its publisher and viewers. */
export const MediaStreamInfo = z.object({
  device_id: z.number().int(),
  hostname: z.string(),
  hostbody: z.string(),
  unitname: z.string(),
  address: z.string(),
  since: z.string(),
  uptime_s: z.number().int(),
  bitrate: z.number().int(),
  bytes_in: z.number().int(),
  viewers: z.array(MediaViewer),
});
export type MediaStreamInfo = z.infer<typeof MediaStreamInfo>;
export const MediaGatewayInfo = z.object({
  /** RTMP ingest port of this node, null when off */
  rtmp_port: z.number().int().nullable(),
  node: z.string(),
  streams: z.array(MediaStreamInfo),
});
export type MediaGatewayInfo = z.infer<typeof MediaGatewayInfo>;
/** Kick a viewer (`viewer` id) or, without it, the publisher (and so every viewer). */
export const MediaKickRequest = z.object({ device_id: deviceId, viewer: deviceId.optional() });
export type MediaKickRequest = z.infer<typeof MediaKickRequest>;
