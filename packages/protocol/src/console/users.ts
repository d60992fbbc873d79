import { z } from 'zod';
import { ExtIdList, UidList } from './fields';
import { PARAMINFO_MAX_KEYS, PARAMINFO_VALUE_MAX } from './limits';
import { UserTypeField } from './session';

/**
 * Users family: profiles, parameters, online state, a console's administered users (spec part 1
 * sections 3 and 7). Targets are named by uid (`targets`, `uids`) and / or ext id (`exttargets`,
 * `extuids`); a console sees terminals and consoles of its unit scope, a terminal those of its unit.
 */

/** Trunk state of a user: 7 online (spec part 2 section 9), 0 offline. */
export const UserState = { OFFLINE: 0, ONLINE: 7 } as const;
export type UserState = (typeof UserState)[keyof typeof UserState];

/** Parameters a console sets on users (values are strings, numbers or flags). */
export const ParamInfo = z
  .record(
    z.string().min(1, { error: 'validation.required' }).max(64, { error: 'validation.tooLong' }),
    z.union([z.string().max(PARAMINFO_VALUE_MAX, { error: 'validation.tooLong' }), z.number(), z.boolean()], {
      error: 'validation.type',
    }),
    { error: 'validation.type' },
  )
  .refine((p) => Object.keys(p).length <= PARAMINFO_MAX_KEYS, { error: 'validation.tooLong' });
export type ParamInfo = z.infer<typeof ParamInfo>;

/**
 * One user as the service describes it (rsp_user_profile `user_info`, the SDK's login_user is the
 * first entry of the logon user's own profile).
 */
export const UserProfile = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  /** 0 terminal user, 1 console */
  user_type: UserTypeField,
  display_name: z.string(),
  /** console: the account's username; terminal: the device's hostbody */
  username: z.string(),
  unit_id: z.number().int(),
  unitname: z.string(),
  /** the unit's 12-digit code */
  dwbh: z.string(),
  state: z.number().int(),
  /** terminal only: the device's identity and latest fix */
  hostbody: z.string().optional(),
  hostcode: z.string().optional(),
  imei: z.string().optional(),
  lat: z.number().nullable().optional(),
  lng: z.number().nullable().optional(),
  /** parameters set by consoles (params_set) */
  paraminfo: ParamInfo,
  /** console only: the uids it administers (add_admin_users) */
  admin_uids: z.array(z.number().int()).optional(),
});
export type UserProfile = z.infer<typeof UserProfile>;

/** req_user_profile: targets / exttargets; both empty answers the caller's own profile. user_type filters. */
export const UserProfileRequest = z.object({
  targets: UidList,
  exttargets: ExtIdList,
  user_type: UserTypeField.optional(),
});
export type UserProfileRequest = z.infer<typeof UserProfileRequest>;
export const UserProfileAnswer = z.object({
  user_info: z.array(UserProfile),
  /** named targets the caller cannot see or that do not exist */
  unknown: z.array(z.union([z.number(), z.string()])),
});
export type UserProfileAnswer = z.infer<typeof UserProfileAnswer>;
/** notice_user_profile: profiles that changed (parameters set, a device renamed). */
export const UserProfileNotice = z.object({ user_info: z.array(UserProfile) });

/** req_params_set: set parameters on terminals; they and the setting console get notice_params_set. */
export const ParamsSetRequest = z.object({
  targets: UidList,
  exttargets: ExtIdList,
  paraminfo: ParamInfo,
});
export type ParamsSetRequest = z.infer<typeof ParamsSetRequest>;
export const ParamsSetAnswer = z.object({
  /** uids whose parameters were set */
  targets: z.array(z.number().int()),
  paraminfo: ParamInfo,
});
export type ParamsSetAnswer = z.infer<typeof ParamsSetAnswer>;
/** notice_params_set: to each target terminal (and, converted from the response, the console). */
export const ParamsSetNotice = z.object({ targets: z.array(z.number().int()), paraminfo: ParamInfo });

/** One user's state (rsp_user_state, notice_user_state). */
export const UserStateEntry = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  user_type: UserTypeField,
  state: z.number().int(),
  unit_id: z.number().int(),
});
export type UserStateEntry = z.infer<typeof UserStateEntry>;

/**
 * req_user_state (fire-and-forget in the SDK): states of the named users; both lists empty: every
 * terminal of the caller's scope. The answer lists them, and each also comes as notice_user_state.
 */
export const UserStateRequest = z.object({ uids: UidList, extuids: ExtIdList });
export type UserStateRequest = z.infer<typeof UserStateRequest>;
export const UserStateAnswer = z.object({ user_state: z.array(UserStateEntry) });
/** notice_user_state: a user went online (7) or offline (0). */
export const UserStateNotice = UserStateEntry.extend({ time: z.number().int() });
export type UserStateNotice = z.infer<typeof UserStateNotice>;

/**
 * req_add_admin_users (a console): add terminals of its scope to the users it administers (kept
 * with its account, listed in its profile's admin_uids).
 */
export const AddAdminUsersRequest = z.object({ uids: UidList, extuids: ExtIdList });
export type AddAdminUsersRequest = z.infer<typeof AddAdminUsersRequest>;
export const AddAdminUsersAnswer = z.object({ admin_uids: z.array(z.number().int()) });
