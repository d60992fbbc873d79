import { z } from 'zod';
import { FlagInput, PageQuery } from '../envelope';
import { numberInput, optionalId, optionalInput } from './inputs';

/**
 * Docking workstations (采集工作站; ops centre workAdmin 10313, issue 15 section 1b): stations a
 * body camera is docked in to charge and hand over its recordings, which the station uploads on
 * the camera's behalf at WORKSTATION_UPLOAD_PATH (schemas/evidence.ts). The registry is
 * unit-scoped like devices; each station counts against the licence's `workstations`.
 *
 * Workstation API: `workstationLogin` (code + secret -> bearer token; a new login replaces the
 * old token), then `workstationHeartbeat` every WORKSTATION_HEARTBEAT_S with the hostbodies docked
 * now and the free disk space. A station not heard from for WORKSTATION_OFFLINE_AFTER_S is
 * offline (and holds no camera). Uploads: tus with `Authorization: Bearer <token>` and
 * `hostbody` in the Upload-Metadata naming a camera of the station's unit (or a sub-unit) that is
 * docked in it; the item is the camera's (device, officer, unit), source 'workstation', and its
 * origin is `<device id>:<fileid>` as if the camera had sent it, so a file arriving from both
 * is stored once.
 */

/** The station's heartbeat period. */
export const WORKSTATION_HEARTBEAT_S = 30;
/** Offline after this long without a heartbeat (3 missed). */
export const WORKSTATION_OFFLINE_AFTER_S = 3 * WORKSTATION_HEARTBEAT_S;
/** Most cameras one heartbeat may report docked. */
export const WORKSTATION_DOCKED_MAX = 64;

const id = numberInput(
  z
    .number({ error: 'validation.required' })
    .int({ error: 'validation.integer' })
    .positive({ error: 'validation.range' }),
);
const text = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.tooLong' });
const optionalText = (max: number) =>
  z.string({ error: 'validation.type' }).trim().max(max, { error: 'validation.tooLong' });

/** Station code (serial): 1 to 32 letters, digits, `_` or `-`. */
export const WorkstationCode = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .regex(/^[A-Za-z0-9_-]{1,32}$/, { error: 'validation.workstation.code' });

/** A docked camera as the list shows it (a hostbody the registry does not know has no id). */
export const DockedCamera = z.object({
  hostbody: z.string(),
  device_id: z.number().int().nullable(),
  hostname: z.string(),
});
export type DockedCamera = z.infer<typeof DockedCamera>;

export const Workstation = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  unit_id: z.number().int(),
  unitname: z.string(),
  /** the address given in the registry; the station's last address is `last_ip` */
  ip: z.string(),
  last_ip: z.string(),
  remark: z.string(),
  /** 1 while heartbeats arrive (within WORKSTATION_OFFLINE_AFTER_S) */
  lineon: z.number().int(),
  last_seen: z.string().nullable(),
  /** bytes free on the station's disk, from its last heartbeat */
  disk_free: z.number().nullable(),
  /** cameras docked now (empty while offline) */
  docked: z.array(DockedCamera),
  created: z.string(),
  updated: z.string(),
});
export type Workstation = z.infer<typeof Workstation>;

/** GET rest/oam/workstation/get */
export const WorkstationListQuery = PageQuery.extend({
  /** part of name, code or ip */
  keyword: z.string().trim().max(100, { error: 'validation.tooLong' }).optional(),
  unit_id: optionalId,
  lineon: optionalInput(FlagInput),
});
export type WorkstationListQuery = z.infer<typeof WorkstationListQuery>;

const fields = {
  name: text(50),
  code: WorkstationCode,
  unit_id: id,
  ip: optionalText(64)
    .default('')
    .refine((v) => v === '' || /^[0-9A-Fa-f:.]{2,64}$/.test(v), { error: 'validation.workstation.ip' }),
  remark: optionalText(255).default(''),
};

/** POST rest/oam/workstation/add: refused beyond the licence's workstations. */
export const WorkstationAddRequest = z.object(fields);
export type WorkstationAddRequest = z.infer<typeof WorkstationAddRequest>;
export const WorkstationUpdateRequest = z.object({ id, ...fields });
export type WorkstationUpdateRequest = z.infer<typeof WorkstationUpdateRequest>;
export const WorkstationIdRequest = z.object({ id });
export type WorkstationIdRequest = z.infer<typeof WorkstationIdRequest>;
/** Answer of add and reset_secret: the secret is shown this once (stored hashed). */
export const WorkstationWithSecret = z.object({ workstation: Workstation, secret: z.string() });
export type WorkstationWithSecret = z.infer<typeof WorkstationWithSecret>;

// ---- workstation API ----

/** POST rest/workstation/api/login */
export const WorkstationLoginRequest = z.object({ code: text(32), secret: text(128) });
export type WorkstationLoginRequest = z.infer<typeof WorkstationLoginRequest>;
export const WorkstationLoginAnswer = z.object({
  token: z.string(),
  id: z.number().int(),
  code: z.string(),
  heartbeat_s: z.number().int(),
});
export type WorkstationLoginAnswer = z.infer<typeof WorkstationLoginAnswer>;

/** POST rest/workstation/api/heartbeat (bearer token) */
export const WorkstationHeartbeatRequest = z.object({
  docked: z
    .array(z.string().trim().min(1, { error: 'validation.required' }).max(32, { error: 'validation.tooLong' }), {
      error: 'validation.type',
    })
    .max(WORKSTATION_DOCKED_MAX, { error: 'validation.tooLong' })
    .default([]),
  disk_free: z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }).min(0).optional(),
});
export type WorkstationHeartbeatRequest = z.infer<typeof WorkstationHeartbeatRequest>;
/** `refused`: docked hostbodies that are not cameras of the station's units (their files are refused) */
export const WorkstationHeartbeatAnswer = z.object({ heartbeat_s: z.number().int(), refused: z.array(z.string()) });
export type WorkstationHeartbeatAnswer = z.infer<typeof WorkstationHeartbeatAnswer>;

/**
 * POST rest/workstation/api/provision with the device provisioning key (`Authorization: Bearer
 * <key>`, as deviceProvision): create the station (or give an existing code a new secret) and
 * answer its secret. Without a unit code the station belongs to the first root unit.
 */
export const WorkstationProvisionRequest = z.object({
  code: WorkstationCode,
  name: text(50),
  unit_bh: z
    .string()
    .trim()
    .regex(/^\d{12}$/, { error: 'validation.unit.code' })
    .optional(),
});
export type WorkstationProvisionRequest = z.infer<typeof WorkstationProvisionRequest>;
export const WorkstationProvisionAnswer = z.object({ id: z.number().int(), code: z.string(), secret: z.string() });
export type WorkstationProvisionAnswer = z.infer<typeof WorkstationProvisionAnswer>;
