import { z } from 'zod';
import { FlagInput, PageQuery } from '../envelope';
import { MODULE_BY_ID, UserAuth } from '../permissions';
import { between, NewPassword } from '../validators';
import { flagInput, numberInput, optionalId, optionalInput } from './inputs';

/**
 * Organisation administration (spec part 2 sections 2.1 /configcenter and 6): units,
 * accounts, online users, roles and permission distribution. Messages are i18n keys of the shared
 * catalogues. Every list is unit-scoped by the server: a unit administrator (ifadmin 0) only
 * sees and changes his own unit and its descendants.
 */

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
const optionalText = (max: number) => z.string().trim().max(max, { error: 'validation.tooLong' });
/** an optional search text: empty means no filter */
const keyword = z.string().trim().max(100, { error: 'validation.tooLong' }).optional();

// ---------------------------------------------------------------------------------------------
// Units
// ---------------------------------------------------------------------------------------------

/** A unit code (dwbh / bh) is exactly this many digits. */
export const UNIT_CODE_LENGTH = 12;
export const UNIT_NAME_MAX = 50;

/**
 * The significant prefix of a unit code: the code without its trailing `00` pairs
 * (`440300000000` -> `4403`, `440303010000` -> `44030301`). Codes are built in two-digit levels
 * like administrative division codes.
 */
export function unitCodePrefix(bh: string): string {
  let p = bh;
  while (p.length > 2 && p.endsWith('00')) p = p.slice(0, -2);
  return p;
}

/**
 * Unit code rule: 12 digits; a child's code extends its parent's significant prefix with at
 * least one more non-zero level (`440303000000` may have `440303010000`, not `440304010000`
 * nor `440303000000`). A root unit (no parent) may take any 12 digits. Codes are unique.
 */
export function unitCodeFitsParent(parentBh: string | null | undefined, bh: string): boolean {
  if (!new RegExp(`^\\d{${UNIT_CODE_LENGTH}}$`).test(bh)) return false;
  if (!parentBh) return true;
  const parent = unitCodePrefix(parentBh);
  const own = unitCodePrefix(bh);
  return own.length > parent.length && own.startsWith(parent);
}

/**
 * The code a descendant gets when an ancestor's code changes from `oldAncestorBh` to
 * `newAncestorBh` (its own levels below the ancestor are kept); null when it no longer fits in
 * 12 digits.
 */
export function rebaseUnitCode(bh: string, oldAncestorBh: string, newAncestorBh: string): string | null {
  const oldPrefix = unitCodePrefix(oldAncestorBh);
  const own = unitCodePrefix(bh);
  if (!own.startsWith(oldPrefix)) return null;
  const next = unitCodePrefix(newAncestorBh) + own.slice(oldPrefix.length);
  return next.length > UNIT_CODE_LENGTH ? null : next.padEnd(UNIT_CODE_LENGTH, '0');
}

export const UnitCode = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .regex(/^\d{12}$/, { error: 'validation.unit.code' });
export const UnitName = text(UNIT_NAME_MAX);
const sort = between(z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }), 0, 99_999);

/** One unit of the UnitAdmin screen (rest/user/unit/get). */
export const Unit = z.object({
  id: z.number().int(),
  /** parent unit id, 0 for a root unit */
  pid: z.number().int(),
  /** unit code (dwbh), 12 digits, see unitCodeFitsParent */
  bh: z.string(),
  name: z.string(),
  /** order among siblings, ascending */
  sort: z.number().int(),
  created: z.string(),
  /** number of direct child units */
  children: z.number().int(),
  /** accounts whose unit is this one (not counting sub-units) */
  users: z.number().int(),
  /** devices registered to this unit (0 until the devices issue) */
  devices: z.number().int(),
});
export type Unit = z.infer<typeof Unit>;

/**
 * GET rest/user/unit/get: the units in the caller's scope as a flat list ordered by sort, then
 * code; the console builds the tree from `pid` (a unit whose parent is not in the list is a root
 * of the caller's view). `keyword` keeps the units whose name or code contains it plus their
 * ancestors within scope, so that the matches can be shown in the tree.
 */
export const UnitListQuery = z.object({ keyword });
export type UnitListQuery = z.infer<typeof UnitListQuery>;

/** POST rest/user/unit/add */
export const UnitAddRequest = z.object({
  /** parent unit id; 0 creates a root unit (administrators only) */
  pid: numberInput(
    z
      .number({ error: 'validation.required' })
      .int({ error: 'validation.integer' })
      .min(0, { error: 'validation.range' }),
  ),
  bh: UnitCode,
  name: UnitName,
  sort: sort.default(0),
});
export type UnitAddRequest = z.infer<typeof UnitAddRequest>;

/**
 * POST rest/user/unit/update: rename, re-sort, change the code. A new code must still fit the
 * parent; the codes of the sub-units are rebased onto it (rebaseUnitCode), refused when one
 * would not fit or collides.
 */
export const UnitUpdateRequest = z.object({ id, name: UnitName, bh: UnitCode.optional(), sort: sort.optional() });
export type UnitUpdateRequest = z.infer<typeof UnitUpdateRequest>;

/**
 * POST rest/user/unit/move: put a unit (with its subtree) under another parent. Refused when the
 * new parent is the unit itself or one of its descendants (a cycle). `bh` is the moved unit's new
 * code; without it the old one is kept if it fits the new parent, else the move is refused. The
 * subtree's codes are rebased onto the new code.
 */
export const UnitMoveRequest = z.object({
  id,
  /** new parent id; 0 makes it a root (administrators only) */
  pid: numberInput(
    z
      .number({ error: 'validation.required' })
      .int({ error: 'validation.integer' })
      .min(0, { error: 'validation.range' }),
  ),
  bh: UnitCode.optional(),
});
export type UnitMoveRequest = z.infer<typeof UnitMoveRequest>;

/** POST rest/user/unit/del `{id}`: refused while the unit has sub-units, accounts or devices. */
export const UnitDeleteRequest = z.object({ id });
export type UnitDeleteRequest = z.infer<typeof UnitDeleteRequest>;

/** POST rest/user/unit/edit `{bh}` (spec name): the unit with that code, within the caller's scope. */
export const UnitByCodeRequest = z.object({ bh: UnitCode });
export type UnitByCodeRequest = z.infer<typeof UnitByCodeRequest>;
export const UnitInfo = z.object({
  id: z.number().int(),
  pid: z.number().int(),
  bh: z.string(),
  /** unit name (user info calls it dname) */
  dname: z.string(),
  /** parent unit name, '' for a root */
  parent_name: z.string(),
  sort: z.number().int(),
});
export type UnitInfo = z.infer<typeof UnitInfo>;

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

export const USERNAME_MIN = 2;
export const USERNAME_MAX = 32;
export const USER_STATUSES = ['enabled', 'disabled'] as const;
export const UserStatus = z.enum(USER_STATUSES, { error: 'validation.choice' });
export type UserStatus = z.infer<typeof UserStatus>;

/** Login name: 2 to 32 letters, digits, `_ . @ -`; fixed once created. */
export const Username = z
  .string({ error: 'validation.username.required' })
  .trim()
  .min(1, { error: 'validation.username.required' })
  .regex(/^[A-Za-z0-9_.@-]{2,32}$/, { error: 'validation.username.format' });
/** the person's display name */
export const PersonName = text(50);
export const Phone = z
  .string()
  .trim()
  .regex(/^[0-9+\- ]{0,20}$/, { error: 'validation.phone' });

/** One account of the accountAdmin list. */
export const Account = z.object({
  id: z.number().int(),
  username: z.string(),
  /** the person's display name */
  hostname: z.string(),
  phone: z.string(),
  unit_id: z.number().int(),
  /** unit name */
  dname: z.string(),
  /** unit code */
  dwbh: z.string(),
  role_id: z.number().int(),
  /** role name */
  group_name: z.string(),
  /** 1: administrator (every unit, admin-only functions) */
  ifadmin: z.number().int(),
  status: UserStatus,
  /** 1 when the account has an active session */
  online: z.number().int(),
  created: z.string(),
  updated: z.string(),
});
export type Account = z.infer<typeof Account>;

/** GET rest/user/user/list */
export const AccountListQuery = PageQuery.extend({
  /** part of the username or the person's name */
  keyword,
  unit_id: optionalId,
  /** with unit_id: 1 (default) also the accounts of its sub-units */
  include_sub: flagInput(1),
  role_id: optionalId,
  status: optionalInput(UserStatus),
});
export type AccountListQuery = z.infer<typeof AccountListQuery>;

const accountFields = {
  hostname: PersonName,
  phone: Phone.default(''),
  unit_id: id,
  role_id: id,
  /** only an administrator may grant 1 */
  ifadmin: FlagInput.default(0),
};

/** POST rest/user/user/add: the password is sent in clear over the session (like change_password) and must follow NewPassword. */
export const AccountAddRequest = z.object({ username: Username, password: NewPassword, ...accountFields });
export type AccountAddRequest = z.infer<typeof AccountAddRequest>;

/** POST rest/user/user/update: everything but the username and the password. */
export const AccountUpdateRequest = z.object({ id, ...accountFields });
export type AccountUpdateRequest = z.infer<typeof AccountUpdateRequest>;

/** POST rest/user/user/status: enable or disable; disabling ends the account's sessions. */
export const AccountStatusRequest = z.object({ id, status: UserStatus });
export type AccountStatusRequest = z.infer<typeof AccountStatusRequest>;

/** POST rest/user/user/reset_password `{id}`: sets the configured default (normalset.default_password) and ends the account's sessions. */
export const AccountIdRequest = z.object({ id });
export type AccountIdRequest = z.infer<typeof AccountIdRequest>;

// ---------------------------------------------------------------------------------------------
// Online users
// ---------------------------------------------------------------------------------------------

/** GET rest/other/user/online: active sessions in the caller's scope, newest login first. */
export const OnlineUserQuery = z.object({ keyword });
export type OnlineUserQuery = z.infer<typeof OnlineUserQuery>;
export const OnlineUser = z.object({
  /** the account id; del_online takes it */
  id: z.number().int(),
  session_id: z.number().int(),
  username: z.string(),
  hostname: z.string(),
  dname: z.string(),
  group_name: z.string(),
  ip: z.string(),
  user_agent: z.string(),
  login_time: z.string(),
  last_seen: z.string(),
});
export type OnlineUser = z.infer<typeof OnlineUser>;

/**
 * POST rest/other/user/del_online `{id}` (account id): forces every session of the account off;
 * its next request answers 401 `errors.forcedOffline`, its heartbeat state fail.
 */
export const ForceOfflineRequest = z.object({ id });
export type ForceOfflineRequest = z.infer<typeof ForceOfflineRequest>;

// ---------------------------------------------------------------------------------------------
// Roles and permission distribution
// ---------------------------------------------------------------------------------------------

export const ROLE_NAME_MAX = 32;

/** One role of the RoleAdmin list, ordered by weight (descending), then id. */
export const Role = z.object({
  id: z.number().int(),
  name: z.string(),
  /** higher ranks first */
  weight: z.number().int(),
  remark: z.string(),
  created: z.string(),
  /** accounts holding the role */
  users: z.number().int(),
  /**
   * 1 when the caller may change the role (name, rights) and delete it: administrators every role,
   * others the roles within their own rights whose accounts all belong to their unit scope (ours:
   * the console offers only what the server will allow)
   */
  changeable: z.union([z.literal(0), z.literal(1)]),
});
export type Role = z.infer<typeof Role>;

/** GET rest/user/role/get */
export const RoleListQuery = z.object({ keyword });
export type RoleListQuery = z.infer<typeof RoleListQuery>;

/** GET rest/user/role/options: the roles the caller may assign to an account (all for an administrator, else those within his own rights). */
export const RoleOption = z.object({ id: z.number().int(), name: z.string(), weight: z.number().int() });
export type RoleOption = z.infer<typeof RoleOption>;

const roleFields = {
  name: text(ROLE_NAME_MAX),
  weight: between(
    z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }),
    0,
    9999,
  ).default(0),
  remark: optionalText(255).default(''),
};
/** POST rest/user/role/add: a role starts without permissions. */
export const RoleAddRequest = z.object(roleFields);
export type RoleAddRequest = z.infer<typeof RoleAddRequest>;
/** POST rest/user/role/update */
export const RoleUpdateRequest = z.object({ id, ...roleFields });
export type RoleUpdateRequest = z.infer<typeof RoleUpdateRequest>;
/** POST rest/user/role/del `{id}`: refused while an account holds the role. */
export const RoleIdRequest = z.object({ id });
export type RoleIdRequest = z.infer<typeof RoleIdRequest>;

const flag01 = z.union([z.literal(0), z.literal(1)]);

/** One module of the permission tree with the role's actions on it (0/1 each). */
export interface PermissionNode {
  /** menu id */
  id: number;
  bh: string;
  pid: number;
  /** i18n label `menu.<key>` */
  key: string;
  path: string;
  view: 0 | 1;
  edit: 0 | 1;
  add: 0 | 1;
  children: PermissionNode[];
}
export const PermissionNode: z.ZodType<PermissionNode> = z.object({
  id: z.number().int(),
  bh: z.string(),
  pid: z.number().int(),
  key: z.string(),
  path: z.string(),
  view: flag01,
  edit: flag01,
  add: flag01,
  get children() {
    return z.array(PermissionNode);
  },
});

/**
 * GET rest/user/role/auth_get?id=: every module of the catalogue (MODULES) as a tree in menu
 * order with the role's actions, and `grantable`: what the caller himself holds (menu id ->
 * user_auth), the ceiling of what he may distribute (every action for an administrator).
 */
export const RoleAuthTree = z.object({
  role_id: z.number().int(),
  role_name: z.string(),
  modules: z.array(PermissionNode),
  grantable: z.record(z.string(), UserAuth),
});
export type RoleAuthTree = z.infer<typeof RoleAuthTree>;

/** One module's actions in a permission distribution. */
export const PermissionGrant = z.object({
  /** menu id of the catalogue (MODULES) */
  module_id: numberInput(
    z
      .number({ error: 'validation.required' })
      .int({ error: 'validation.integer' })
      .refine((id) => MODULE_BY_ID.has(id), { error: 'validation.module' }),
  ),
  view: FlagInput.default(0),
  edit: FlagInput.default(0),
  add: FlagInput.default(0),
});
export type PermissionGrant = z.infer<typeof PermissionGrant>;

/**
 * POST rest/user/role/auth_update: replaces the role's permissions with `permissions`
 * (modules left out get nothing). Any action on a module gives view on its ancestors, so that
 * the menu can show it. A non-administrator may only distribute actions he holds himself.
 * Applies to the role's users at their next request.
 */
export const RoleAuthUpdateRequest = z.object({
  id,
  permissions: z.array(PermissionGrant).max(1000, { error: 'validation.tooLong' }),
});
export type RoleAuthUpdateRequest = z.infer<typeof RoleAuthUpdateRequest>;
