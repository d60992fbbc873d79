import { z } from 'zod';

/**
 * GET gb_status (ours, for the GB settings page, menu 10003): whether GB28181 access runs. The
 * SIP platform runs while gb_mode is 1 and it could start; `port` is the port it listens on (0
 * when not running), `host` the LocalIp it is bound to ('' every interface), `error` why the last
 * start failed ('' none).
 */
export const GbPlatformStatus = z.object({
  gb_mode: z.union([z.literal(0), z.literal(1)]),
  running: z.union([z.literal(0), z.literal(1)]),
  host: z.string(),
  port: z.number().int(),
  error: z.string(),
});
export type GbPlatformStatus = z.infer<typeof GbPlatformStatus>;
