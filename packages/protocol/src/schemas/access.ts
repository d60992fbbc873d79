import { z } from 'zod';
import { pageOf, PageQuery } from '../envelope';
import { EVIDENCE_BULK_MAX, MediaItem, MediaType } from './evidence';
import { DateTimeInput, numberInput, optionalId, optionalInput } from './inputs';

/**
 * Access to other units' evidence (issue 15 section 4; spec part 2 section 7.3 rest/media/accessfrom
 * and accessto) and external share links. The spec shows only paths; the payloads are designed here.
 *
 * A user of unit A asks for items of unit B, by ids or by a filter (device and/or recording time
 * range), with a reason and the expiry he wants (accessfrom/add). Approvers of unit B ('edit' on a
 * library menu, unit B in their scope) approve with an expiry or refuse (accessto/appsave). On
 * approval the filter is resolved to the matching items (at most ACCESS_ITEMS_MAX); until the
 * expiry, users whose scope includes unit A can view, play and download exactly those items.
 */

/** Longest grant and longest share link, in days. */
export const ACCESS_MAX_DAYS = 90;
export const SHARE_MAX_DAYS = 30;
/** Most items one approved request or one share link covers. */
export const ACCESS_ITEMS_MAX = 500;
export const ACCESS_REASON_MAX = 200;

export const ACCESS_STATES = ['pending', 'approved', 'refused', 'withdrawn'] as const;
export const AccessState = z.enum(ACCESS_STATES);
export type AccessState = z.infer<typeof AccessState>;

const id = numberInput(z.number({ error: 'validation.required' }).int().positive({ error: 'validation.range' }));
const reason = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(ACCESS_REASON_MAX, { error: 'validation.tooLong' });
const requiredDate = DateTimeInput;

/** POST rest/media/accessfrom/add */
export const AccessAddRequest = z.object({
  /** the unit whose items are asked for */
  unit_id: id,
  /** items by id (when known, e.g. from a case file), or else the filter below */
  media_ids: z.array(id).max(EVIDENCE_BULK_MAX, { error: 'validation.evidence.tooMany' }).default([]),
  device_id: optionalId,
  start: optionalInput(DateTimeInput),
  end: optionalInput(DateTimeInput),
  reason,
  /** the expiry asked for (at most ACCESS_MAX_DAYS ahead) */
  expires_at: requiredDate,
});
export type AccessAddRequest = z.input<typeof AccessAddRequest>;

/**
 * POST rest/media/accessfrom/units: the units a request can be sent to (every unit outside the
 * caller's scope, by name and code; the unit tree itself shows the scope only).
 */
export const AccessUnit = z.object({ id: z.number().int(), name: z.string(), bh: z.string(), pid: z.number().int() });
export type AccessUnit = z.infer<typeof AccessUnit>;

/** POST rest/media/accessfrom/get and accessto/get */
export const AccessListRequest = PageQuery.extend({
  state: AccessState.optional(),
});
export type AccessListRequest = z.input<typeof AccessListRequest>;

export const AccessIdRequest = z.object({ id });

/** POST rest/media/accessto/appsave: approve with an expiry, or refuse. */
export const AccessDecideRequest = z.object({
  id,
  approve: z.boolean({ error: 'validation.required' }),
  /** the granted expiry (approval; defaults to the one asked for) */
  expires_at: optionalInput(DateTimeInput),
  note: z.string().trim().max(ACCESS_REASON_MAX, { error: 'validation.tooLong' }).default(''),
});
export type AccessDecideRequest = z.input<typeof AccessDecideRequest>;

export const AccessRequest = z.object({
  id: z.number().int(),
  requester_id: z.number().int(),
  requester_name: z.string(),
  /** the requester's unit: the grantee */
  from_unit_id: z.number().int(),
  from_unit_name: z.string(),
  /** the unit asked */
  to_unit_id: z.number().int(),
  to_unit_name: z.string(),
  media_ids: z.array(z.number().int()),
  device_id: z.number().int().nullable(),
  device_name: z.string(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  reason: z.string(),
  requested_until: z.string(),
  state: AccessState,
  created_at: z.string(),
  decided_by_name: z.string(),
  decided_at: z.string().nullable(),
  note: z.string(),
  /** the granted expiry (approved) */
  expires_at: z.string().nullable(),
  /** approved and not expired now */
  active: z.number().int(),
  /** items granted (approved) */
  item_count: z.number().int(),
});
export type AccessRequest = z.infer<typeof AccessRequest>;

/**
 * accessfrom/view and accessto/view: the request with its items (granted ones once approved; for
 * the approver of a pending request, the items it would grant now).
 */
export const AccessDetail = z.object({
  request: AccessRequest,
  items: z.array(MediaItem),
});
export type AccessDetail = z.infer<typeof AccessDetail>;

// ---- external share links ----

export const SharePassword = z.string().max(64, { error: 'validation.tooLong' });

/** POST rest/media/share/add */
export const ShareAddRequest = z.object({
  media_ids: z
    .array(id, { error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(EVIDENCE_BULK_MAX, { error: 'validation.evidence.tooMany' }),
  recipient: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(50, { error: 'validation.tooLong' }),
  /** days the link lives, 1..SHARE_MAX_DAYS */
  days: numberInput(
    z
      .number({ error: 'validation.required' })
      .int({ error: 'validation.integer' })
      .min(1, { error: 'validation.range' })
      .max(SHARE_MAX_DAYS, { error: 'validation.range' }),
  ),
  /** optional; empty = none */
  password: SharePassword.default(''),
  note: z.string().trim().max(ACCESS_REASON_MAX, { error: 'validation.tooLong' }).default(''),
});
export type ShareAddRequest = z.input<typeof ShareAddRequest>;

export const ShareLink = z.object({
  id: z.number().int(),
  recipient: z.string(),
  note: z.string(),
  media_ids: z.array(z.number().int()),
  has_password: z.number().int(),
  created_by_name: z.string(),
  unit_name: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  /** 'active' | 'expired' | 'revoked' */
  state: z.enum(['active', 'expired', 'revoked']),
  visits: z.number().int(),
  last_visit_at: z.string().nullable(),
});
export type ShareLink = z.infer<typeof ShareLink>;

/** The new link: the token is shown once (only its hash is kept). `path` is `/share/<token>`. */
export const ShareAddAnswer = z.object({ link: ShareLink, token: z.string(), path: z.string() });
export type ShareAddAnswer = z.infer<typeof ShareAddAnswer>;

export const ShareListRequest = PageQuery.extend({
  state: z.enum(['active', 'expired', 'revoked']).optional(),
});
export type ShareListRequest = z.input<typeof ShareListRequest>;

/** The web page of a share link (outside the login). */
export const SHARE_PAGE_PATH = '/share';

/** POST rest/share/open (public): the link's items with signed addresses of short life. */
export const ShareOpenRequest = z.object({
  token: z.string().trim().min(1, { error: 'validation.required' }).max(200, { error: 'validation.tooLong' }),
  password: SharePassword.default(''),
});
export type ShareOpenRequest = z.input<typeof ShareOpenRequest>;

export const SharedItem = z.object({
  id: z.number().int(),
  media_type: MediaType,
  title: z.string(),
  file_name: z.string(),
  size: z.number(),
  sha256: z.string(),
  duration: z.number().nullable(),
  recorded_at: z.string(),
  play_url: z.string(),
  play_mime: z.string(),
  download_url: z.string(),
  thumb_url: z.string(),
});
export type SharedItem = z.infer<typeof SharedItem>;

/**
 * What the page shows: `ok` with the items; `password` (the link has one and none was sent),
 * `wrongPassword`, `locked` (SHARE_PASSWORD_TRIES wrong passwords within SHARE_LOCK_MS: the link
 * refuses passwords until that window passes), `expired`, `revoked`, `unknown` (no such link), with
 * no items.
 */
export const SHARE_OPEN_STATES = [
  'ok',
  'password',
  'wrongPassword',
  'locked',
  'expired',
  'revoked',
  'unknown',
] as const;
export const SHARE_PASSWORD_TRIES = 10;
export const SHARE_LOCK_MS = 15 * 60_000;
export const ShareOpenAnswer = z.object({
  status: z.enum(SHARE_OPEN_STATES),
  recipient: z.string(),
  unit_name: z.string(),
  expires_at: z.string(),
  /** when the addresses below stop working (open the page again for new ones) */
  urls_expire: z.number().int(),
  items: z.array(SharedItem),
});
export type ShareOpenAnswer = z.infer<typeof ShareOpenAnswer>;

/** Signed file addresses of share links: `/media/share/<kind>/<id>?token=<link>.<expires>.<mac>`. */
export const SHARE_FILE_PATH = '/media/share';
export const SHARE_URL_TTL_MS = 30 * 60_000;

export const AccessRequestPage = pageOf(AccessRequest);
export const ShareLinkPage = pageOf(ShareLink);
