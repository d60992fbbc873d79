import { z } from 'zod';
import { UserAuth } from '../permissions';

/** GET rest/user/user/get_info (spec part 1 section 3, user info). */
export const UserInfo = z.object({
  id: z.number().int(),
  username: z.string(),
  /** the person's display name */
  hostname: z.string(),
  /** role name */
  group_name: z.string(),
  /** unit name */
  dname: z.string(),
  /** unit code */
  dwbh: z.string(),
  unit_id: z.number().int(),
  ifadmin: z.number().int(),
  /** realtime login code for the session push channel */
  logincode: z.string(),
  /** session push channel address */
  wsurl: z.string(),
  scode: z.string(),
  auth_cate: z.string(),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** One module of the user's context. */
export const ContextModule = z.object({
  id: z.number().int(),
  bh: z.string(),
  pid: z.number().int(),
  key: z.string(),
  path: z.string(),
  user_auth: UserAuth,
});
export type ContextModule = z.infer<typeof ContextModule>;

/** Context: what the user may see and do (spec part 1 section 3, module permissions). */
export const UserContext = z.object({
  /** modules the user has at least one action on */
  modules: z.array(ContextModule),
  /** bh codes of every module in the installation */
  all_modules: z.array(z.string()),
  /** 1 when the user may see the settings dropdown's system entries */
  set_auth: z.number().int(),
  systerm_auth: z.number().int(),
  replay_auth: z.number().int(),
  /** application-wide mode flag: 1 GB (GB/T 28181 monitoring), 0 GIS dispatch */
  gb: z.number().int(),
});
export type UserContext = z.infer<typeof UserContext>;

/** rest/index/index/get: page info, readable without login. */
export const PageInfo = z.object({
  title: z.string(),
  logo_path: z.string(),
  background_path: z.string(),
  version: z.string(),
  support_text: z.string(),
});
export type PageInfo = z.infer<typeof PageInfo>;

/** rest/index/index/version: the console compares `build` every VERSION_CHECK_INTERVAL_MS and offers a reload when it changed. */
export const ServerVersion = z.object({ version: z.string(), build: z.string() });
export type ServerVersion = z.infer<typeof ServerVersion>;
