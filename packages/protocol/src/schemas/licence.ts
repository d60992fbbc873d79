import { z } from 'zod';

/** GET rest/index/unregistered/get_info (spec part 1 section 3, version info). */
export const VersionInfo = z.object({
  version: z.string(),
  /** days left, 0 when unregistered or expired */
  valid_days: z.number().int(),
  workstation_nums: z.number().int(),
  use_workstation_nums: z.number().int(),
  device_nums: z.number().int(),
  use_device_nums: z.number().int(),
  mac_code: z.string(),
  regist_code: z.string(),
  /** 'GB' means the national-standard player */
  play_versiton: z.string(),
  registered: z.boolean(),
  expires_at: z.string().nullable(),
});
export type VersionInfo = z.infer<typeof VersionInfo>;

/** GET rest/index/unregistered/get: what an unregistered installation shows before login. */
export const RegistrationStatus = z.object({ registered: z.boolean(), mac_code: z.string(), valid_days: z.number().int() });
export type RegistrationStatus = z.infer<typeof RegistrationStatus>;

export const RegisterRequest = z.object({
  regist_code: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(4096, { error: 'validation.tooLong' }),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/**
 * Payload signed by the vendor's Ed25519 key. The registration code is
 * `base64url(JSON payload) + '.' + base64url(signature)`.
 */
export const LicencePayload = z.object({
  v: z.literal(1),
  /** installation fingerprint the code is bound to */
  mac_code: z.string().min(1),
  customer: z.string().max(200),
  issued_at: z.string(),
  valid_days: z.number().int().positive(),
  workstations: z.number().int().positive(),
  devices: z.number().int().positive(),
});
export type LicencePayload = z.infer<typeof LicencePayload>;
