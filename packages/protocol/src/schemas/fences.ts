import { z } from 'zod';
import { FlagInput } from '../envelope';
import { isValidLngLat, ringArea, ringSelfIntersects } from '../geo';
import { Latitude, Longitude } from './device-fields';
import { numberInput, optionalId, optionalInput } from './inputs';

/**
 * Electronic fences (configcenter MapConfig/ElectronicFence, menu 10441) and zones (ZoneAdmin,
 * menu 10442). Shapes are stored and sent as WGS-84 `{lng, lat}` degrees; a
 * console drawing on a GCJ-02 base map converts with `gcj02ToWgs84` (packages/protocol/src/geo)
 * before saving. A fence belongs to a unit (unit scope) and applies to devices and/or units; it
 * raises a crossing on enter, exit or both, within a daily time window. The server keeps the last
 * inside/outside state per (fence, device); each transition matching the rule writes one fence
 * event and emits the domain event `fence.crossed` (the alarms module turns it into an alarm of
 * type 0, label from `boutefence`). Zones are named shapes without alarms (the map's switch-area
 * list, statistics by area).
 */

/** Most points of a polygon ring (self-intersection is checked in O(n^2)). */
export const FENCE_POINTS_MAX = 500;
export const FENCE_HOLES_MAX = 20;
/** Largest circle radius, metres. */
export const FENCE_RADIUS_MAX_M = 100_000;
export const FENCE_NAME_MAX = 50;
/** Most devices / units one fence names. */
export const FENCE_TARGETS_MAX = 5_000;
export const FENCE_SHAPES = ['polygon', 'circle', 'rectangle'] as const;
export type FenceShapeType = (typeof FENCE_SHAPES)[number];
/** alarm on entering, on leaving, or both */
export const FENCE_RULES = ['enter', 'exit', 'both'] as const;
export type FenceRule = (typeof FENCE_RULES)[number];
export const FENCE_DIRECTIONS = ['enter', 'exit'] as const;
export type FenceDirection = (typeof FENCE_DIRECTIONS)[number];
/** Alarm type of a fence crossing in the alarm catalogue (spec part 1: 0 = electric-fence alarm, label from boutefence). */
export const FENCE_ALARM_TYPE = 0;

const coord = (schema: z.ZodNumber) => numberInput(schema);
/** A WGS-84 point `{lng, lat}`; latitude 91 gives `Field points.0.lat: Latitude must be between -90 and 90.`. */
export const LngLatInput = z.object(
  { lng: coord(Longitude), lat: coord(Latitude) },
  { error: 'validation.fence.point' },
);
export type LngLatInput = z.infer<typeof LngLatInput>;

const ring = (minKey: string) =>
  z
    .array(LngLatInput, { error: 'validation.fence.points' })
    .min(3, { error: minKey })
    .max(FENCE_POINTS_MAX, { error: 'validation.fence.tooManyPoints' });

/** A polygon (outer ring, optional holes), a circle (centre + radius in metres) or a rectangle (south-west and north-east corners). */
export const FenceShape = z.discriminatedUnion(
  'type',
  [
    z
      .object({
        type: z.literal('polygon'),
        points: ring('validation.fence.points'),
        holes: z
          .array(ring('validation.fence.holePoints'), { error: 'validation.type' })
          .max(FENCE_HOLES_MAX, { error: 'validation.tooLong' })
          .default([]),
      })
      .superRefine((s, ctx) => {
        const rings = [{ path: ['points'], pts: s.points }, ...s.holes.map((h, i) => ({ path: ['holes', i], pts: h }))];
        for (const r of rings) {
          if (!r.pts.every(isValidLngLat)) return;
          if (ringSelfIntersects(r.pts))
            ctx.addIssue({ code: 'custom', path: r.path, message: 'validation.fence.selfIntersect' });
          else if (ringArea(r.pts) === 0)
            ctx.addIssue({ code: 'custom', path: r.path, message: 'validation.fence.degenerate' });
        }
      }),
    z.object({
      type: z.literal('circle'),
      center: LngLatInput,
      radius: numberInput(
        z
          .number({ error: 'validation.required' })
          .gt(0, { error: 'validation.fence.radius' })
          .max(FENCE_RADIUS_MAX_M, { error: 'validation.fence.radius' }),
      ),
    }),
    z
      .object({ type: z.literal('rectangle'), sw: LngLatInput, ne: LngLatInput })
      .refine((r) => !isValidLngLat(r.sw) || !isValidLngLat(r.ne) || (r.sw.lng < r.ne.lng && r.sw.lat < r.ne.lat), {
        error: 'validation.fence.rectangle',
        path: ['ne'],
      }),
  ],
  { error: 'validation.fence.shapeType' },
);
export type FenceShape = z.infer<typeof FenceShape>;

/** `HH:mm`, 00:00 to 23:59. */
export const ClockTime = z
  .string({ error: 'validation.fence.clock' })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'validation.fence.clock' });

/**
 * Daily time window in the server's local time: crossings count from `time_start` to `time_end`
 * (a window past midnight such as 22:00-06:00 wraps); both empty = all day.
 */
const windowFields = {
  time_start: z.union([z.literal(''), ClockTime]).default(''),
  time_end: z.union([z.literal(''), ClockTime]).default(''),
};
const windowComplete = (f: { time_start: string; time_end: string }) => (f.time_start === '') === (f.time_end === '');

const idList = z
  .array(
    numberInput(
      z
        .number({ error: 'validation.number' })
        .int({ error: 'validation.integer' })
        .positive({ error: 'validation.range' }),
    ),
    { error: 'validation.type' },
  )
  .max(FENCE_TARGETS_MAX, { error: 'validation.tooLong' })
  .default([]);
const name = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(FENCE_NAME_MAX, { error: 'validation.tooLong' });
const remark = z.string({ error: 'validation.type' }).trim().max(255, { error: 'validation.tooLong' }).default('');
const id = numberInput(
  z
    .number({ error: 'validation.required' })
    .int({ error: 'validation.integer' })
    .positive({ error: 'validation.range' }),
);

const fenceFields = {
  name,
  /** owning unit (unit scope); defaults to the caller's unit */
  unit_id: optionalId,
  shape: FenceShape,
  rule: z.enum(FENCE_RULES, { error: 'validation.fence.rule' }),
  ...windowFields,
  /** devices it applies to (ids) */
  device_ids: idList,
  /** units it applies to (with their sub-units); no devices and no units = every device of the owning unit's subtree */
  unit_ids: idList,
  enabled: FlagInput.default(1),
  remark,
};

/** POST rest/config/fence/add */
export const FenceAddRequest = z
  .object(fenceFields)
  .refine(windowComplete, { error: 'validation.fence.window', path: ['time_end'] });
export type FenceAddRequest = z.infer<typeof FenceAddRequest>;
/** POST rest/config/fence/update: every field (a full replace); the crossing state of the fence is reset. */
export const FenceUpdateRequest = z
  .object({ id, ...fenceFields })
  .refine(windowComplete, { error: 'validation.fence.window', path: ['time_end'] });
export type FenceUpdateRequest = z.infer<typeof FenceUpdateRequest>;
/** POST rest/config/fence/del, rest/config/zone/del */
export const GeoIdRequest = z.object({ id });
export type GeoIdRequest = z.infer<typeof GeoIdRequest>;

/** GET rest/config/fence/get: the fences of the caller's scope (owning unit inside it). */
export const FenceListQuery = z.object({
  keyword: z.string().trim().max(100, { error: 'validation.tooLong' }).optional(),
  unit_id: optionalId,
  enabled: optionalInput(FlagInput),
});
export type FenceListQuery = z.infer<typeof FenceListQuery>;

export const Fence = z.object({
  id: z.number().int(),
  name: z.string(),
  unit_id: z.number().int(),
  unitname: z.string(),
  shape: FenceShape,
  rule: z.enum(FENCE_RULES),
  time_start: z.string(),
  time_end: z.string(),
  device_ids: z.array(z.number().int()),
  unit_ids: z.array(z.number().int()),
  /**
   * names of the devices (hostname) and units of `device_ids` / `unit_ids`, so that a console
   * shows them without loading the unit tree down to them; one deleted meanwhile is left out
   */
  targets: z.array(z.object({ type: z.enum(['device', 'unit']), id: z.number().int(), name: z.string() })),
  enabled: z.number().int(),
  remark: z.string(),
  created: z.string(),
  updated: z.string(),
});
export type Fence = z.infer<typeof Fence>;

/** One crossing (stored fence event). */
export const FenceEvent = z.object({
  id: z.number().int(),
  fence_id: z.number().int(),
  fence_name: z.string(),
  device_id: z.number().int(),
  hostbody: z.string(),
  hostname: z.string(),
  unit_id: z.number().int(),
  direction: z.enum(FENCE_DIRECTIONS),
  lat: z.number(),
  lng: z.number(),
  /** fix time of the position that crossed, ISO */
  time: z.string(),
  created: z.string(),
});
export type FenceEvent = z.infer<typeof FenceEvent>;

/** GET rest/config/fence/events: crossings, newest first (device unit in scope). */
export const FenceEventQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  fence_id: optionalId,
  device_id: optionalId,
});
export type FenceEventQuery = z.infer<typeof FenceEventQuery>;

// ---- zones ---------------------------------------------------------------------------------

const zoneFields = { name, unit_id: optionalId, shape: FenceShape, remark };
/** POST rest/config/zone/add */
export const ZoneAddRequest = z.object(zoneFields);
export type ZoneAddRequest = z.infer<typeof ZoneAddRequest>;
/** POST rest/config/zone/update */
export const ZoneUpdateRequest = z.object({ id, ...zoneFields });
export type ZoneUpdateRequest = z.infer<typeof ZoneUpdateRequest>;
/** GET rest/config/zone/get */
export const ZoneListQuery = z.object({
  keyword: z.string().trim().max(100, { error: 'validation.tooLong' }).optional(),
  unit_id: optionalId,
});
export type ZoneListQuery = z.infer<typeof ZoneListQuery>;
export const Zone = z.object({
  id: z.number().int(),
  name: z.string(),
  unit_id: z.number().int(),
  unitname: z.string(),
  shape: FenceShape,
  /** centre of the shape's bounds (switch-area target, datas_area info[0]) */
  center: z.object({ lng: z.number(), lat: z.number() }),
  remark: z.string(),
  created: z.string(),
  updated: z.string(),
});
export type Zone = z.infer<typeof Zone>;
