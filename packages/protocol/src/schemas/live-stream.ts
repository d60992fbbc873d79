import { z } from 'zod';

/**
 * A device's live stream as the server reports it (device status, ops centre) and what a console
 * needs to play it (see schemas/live.ts for how a stream starts and stops). A module of its own,
 * apart from the live endpoints' requests, so that the device records and the console service's
 * messages bring in only these.
 */

export const LIVE_STATES = ['idle', 'starting', 'live'] as const;
export type LiveState = (typeof LIVE_STATES)[number];

/** A device's stream as gisstatus and the ops centre report it: state, viewers now, since (ISO, live), bits per second. */
export const LiveInfo = z.object({
  state: z.enum(LIVE_STATES),
  viewers: z.number().int(),
  since: z.string().nullable(),
  bitrate: z.number().int(),
});
export type LiveInfo = z.infer<typeof LiveInfo>;

/** What a console needs to play one device live. Paths are relative to the server's origin. */
export const LivePlay = z.object({
  device_id: z.number().int(),
  imei: z.string(),
  hostbody: z.string(),
  hostname: z.string(),
  /** 'live': publishing now; 'starting': the device was told and the play path waits for it */
  state: z.enum(['starting', 'live']),
  /** HTTP-FLV path with its token */
  flv: z.string(),
  /** WS-FLV path with its token (the same path; open it as ws:// or wss://) */
  ws: z.string(),
  /** epoch ms after which the token no longer admits a viewer (ask again to reconnect) */
  expires: z.number().int(),
});
export type LivePlay = z.infer<typeof LivePlay>;
