import { z } from 'zod';
import { HeartbeatState } from '../codes';
import { NewPassword } from '../validators';

/** GET rest/index/login/get: a captcha and the token that identifies it. */
export const LoginPageInfo = z.object({
  token: z.string(),
  /** SVG captcha as a data: URL */
  captcha: z.string(),
  /** false when the installation has no valid registration code: the login screen shows the registration step */
  registered: z.boolean(),
});
export type LoginPageInfo = z.infer<typeof LoginPageInfo>;

/** POST rest/index/login/login */
export const LoginRequest = z.object({
  /** base64 JSON {username, password: sha256(password)} (crypto/signature.ts) */
  login_info: z.string({ error: 'validation.required' }).min(1, { error: 'validation.required' }).max(2048),
  token: z.string({ error: 'validation.required' }).min(1, { error: 'validation.required' }).max(128),
  captcha_code: z.string({ error: 'validation.captcha.required' }).trim().min(1, { error: 'validation.captcha.required' }).max(16),
  /** browser environment signals kept with the login record (user agent, screen, time zone) */
  pe_signals: z.string().max(2048).optional().default(''),
  /** milliseconds since epoch; signatures older than SIGNATURE_MAX_SKEW_MS are refused */
  timestamp: z.coerce.number().int().positive(),
  signature: z.string({ error: 'validation.required' }).length(64, { error: 'validation.signature' }),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LoginResult = z.object({
  /** bearer token for non-browser clients; browsers also get an HttpOnly cookie */
  token: z.string(),
  username: z.string(),
  ifadmin: z.number().int(),
});
export type LoginResult = z.infer<typeof LoginResult>;

/** change_password, form-encoded. The confirmation is checked in the console. */
export const ChangePasswordRequest = z.object({
  old_password: z.string({ error: 'validation.password.oldRequired' }).min(1, { error: 'validation.password.oldRequired' }).max(64),
  new_password: NewPassword,
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** The console's change-password form: adds the confirmation (spec part 1 section 5). */
export const PasswordForm = ChangePasswordRequest.extend({
  confirm_password: z.string({ error: 'validation.password.confirmRequired' }).min(1, { error: 'validation.password.confirmRequired' }),
}).refine((f) => f.confirm_password === f.new_password, { error: 'validation.password.mismatch', path: ['confirm_password'] });
export type PasswordForm = z.infer<typeof PasswordForm>;

export const HeartbeatResult = z.object({ state: z.enum([HeartbeatState.SUCCESS, HeartbeatState.ERROR, HeartbeatState.FAIL]) });
export type HeartbeatResult = z.infer<typeof HeartbeatResult>;
