import { z } from 'zod';

/**
 * GB28181 devices on the emergency map in GB mode (spec part 1 section 4: the map's clusters and
 * tree switch with the GB flag; issue 16: devices report positions). A device's position is the
 * last MobilePosition NOTIFY of its subscription (GB/T 28181-2016 9.11, A.2.5.5), WGS-84.
 */

const Online = z.union([z.literal(0), z.literal(1)]);

/** a channel of a GB device on the map: what its live action needs */
export const GbPointChannel = z.object({
  devgbid: z.string(),
  name: z.string(),
  /** 1 the device is online and the channel's Catalog Status is ON */
  lineon: Online,
});
export type GbPointChannel = z.infer<typeof GbPointChannel>;

/** the latest fix of one GB device (position_time: the device's own time, 'YYYY-MM-DD HH:mm:ss[.sss]') */
export const GbSitePush = z.object({
  devgbid: z.string(),
  name: z.string(),
  unit_id: z.number().int(),
  lineon: Online,
  lng: z.number(),
  lat: z.number(),
  position_time: z.string(),
});
export type GbSitePush = z.infer<typeof GbSitePush>;

/** POST gbpoints: a GB device of the caller's unit scope with a known position, and its channels */
export const GbPoint = GbSitePush.extend({ channels: z.array(GbPointChannel) });
export type GbPoint = z.infer<typeof GbPoint>;

/**
 * a unit of the map's device tree: `pid` is its parent in the same answer, 0 for a top unit of the
 * answer (a top unit of the caller's scope, or the unit asked for)
 */
export const GbPointUnit = z.object({
  id: z.number().int(),
  pid: z.number().int(),
  name: z.string(),
});
export type GbPointUnit = z.infer<typeof GbPointUnit>;

/**
 * POST gbpoints: the devices, and the units of the device tree: each device's unit and its
 * ancestors up to the top of the answer (units without such devices below are left out), in the
 * units' own order
 */
export const GbPointsAnswer = z.object({
  units: z.array(GbPointUnit),
  points: z.array(GbPoint),
});
export type GbPointsAnswer = z.infer<typeof GbPointsAnswer>;

/** POST gbpoints {unit}: the devices of `unit` and below (omitted: the caller's whole scope) */
export const GbPointsRequest = z.object({
  unit: z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }).min(1).optional(),
});
export type GbPointsRequest = z.infer<typeof GbPointsRequest>;

/** gb_site_data pushes are sent at most this often (fixes merged per device in between) */
export const GB_SITE_DATA_FLUSH_MS = 1_000;
