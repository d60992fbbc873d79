import {
  ACTIONS,
  MODULE_BY_ID,
  ResultCode,
  type PermissionMap,
  type Role,
  type RoleAddRequest,
  type RoleAuthTree,
  type RoleAuthUpdateRequest,
  type RoleOption,
  type RoleUpdateRequest,
  type UserAuth,
} from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { onUniqueViolation } from '../../db/unique';
import type { RoleRow } from '../../db/types';
import type { AuthUser } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { unitScope, type UnitScope } from '../../http/scope';
import { loadPermissions } from '../auth/permission.repository';
import { grantableRights, rightsWithin, roleWithinCaller } from './roles.policy';
import { presentPermissionTree, presentRole, presentRoleOption } from './roles.presenter';
import * as repo from './roles.repository';

const beyond = () => new AppError(ResultCode.FORBIDDEN, 'errors.role.beyond');

async function requireRole(db: Db, id: number): Promise<RoleRow> {
  const role = await repo.findRole(db, id);
  if (!role) throw Errors.notFound('role');
  return role;
}

/**
 * A non-administrator may only change roles whose rights are within his own and whose accounts
 * all belong to his unit scope (a change would otherwise reach accounts he does not manage).
 */
async function requireChangeableRole(db: Db, user: AuthUser, id: number): Promise<RoleRow> {
  const role = await requireRole(db, id);
  const refusal = await changeRefusal(db, user, await unitScope(db, user), id);
  if (refusal) throw refusal;
  return role;
}

/** Why the caller may not change role `id` (null: he may). */
async function changeRefusal(db: Db, user: AuthUser, scope: UnitScope, id: number): Promise<AppError | null> {
  if (user.ifadmin === 1) return null;
  if (!(await roleWithinCaller(db, user, id))) return beyond();
  if (!scope.all && (await repo.countRoleUsersOutside(db, id, scope.ids)) > 0) return Errors.outOfScope();
  return null;
}

export async function listRoles(
  db: Db,
  user: AuthUser,
  scope: UnitScope,
  keyword: string | undefined,
): Promise<Role[]> {
  const rows = await repo.listRoles(db, scope.all ? null : scope.ids);
  const needle = keyword?.toLowerCase();
  const out: Role[] = [];
  for (const r of rows.filter((r) => !needle || r.name.toLowerCase().includes(needle)))
    out.push(presentRole(r, (await changeRefusal(db, user, scope, r.id)) ? 0 : 1));
  return out;
}

/** Roles the caller may assign: all for an administrator, else those within his rights. */
export async function roleOptions(db: Db, user: AuthUser): Promise<RoleOption[]> {
  const rows = await repo.listRoles(db, []);
  if (user.ifadmin === 1) return rows.map(presentRoleOption);
  const own = await loadPermissions(db, user.role_id);
  const out: RoleOption[] = [];
  for (const r of rows) if (rightsWithin(await loadPermissions(db, r.id), own)) out.push(presentRoleOption(r));
  return out;
}

const nameTaken = (name: string) => () => Errors.conflict('errors.role.nameTaken', { name });

export async function addRole(db: Db, body: RoleAddRequest): Promise<number> {
  return onUniqueViolation(
    () =>
      db.transaction().execute(async (trx) => {
        if (await repo.roleNameTaken(trx, body.name)) throw nameTaken(body.name)();
        return repo.insertRole(trx, body);
      }),
    nameTaken(body.name),
  );
}

export async function updateRole(db: Db, user: AuthUser, body: RoleUpdateRequest): Promise<void> {
  await onUniqueViolation(
    () =>
      db.transaction().execute(async (trx) => {
        await requireChangeableRole(trx, user, body.id);
        if (await repo.roleNameTaken(trx, body.name, body.id)) throw nameTaken(body.name)();
        await repo.updateRole(trx, body.id, { name: body.name, weight: body.weight, remark: body.remark });
      }),
    nameTaken(body.name),
  );
}

export async function deleteRole(db: Db, user: AuthUser, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await requireChangeableRole(trx, user, id);
    const users = await repo.countRoleUsers(trx, id);
    if (users) throw Errors.conflict('errors.role.inUse', { n: users });
    await repo.deleteRole(trx, id);
  });
}

export async function roleAuthTree(db: Db, user: AuthUser, id: number): Promise<RoleAuthTree> {
  const role = await requireRole(db, id);
  return {
    role_id: role.id,
    role_name: role.name,
    modules: presentPermissionTree(await loadPermissions(db, id)),
    grantable: await grantableRights(db, user),
  };
}

/** The distribution as a permission map, every granted module's ancestors given view. */
function expandDistribution(body: RoleAuthUpdateRequest): PermissionMap {
  const map: PermissionMap = {};
  const give = (id: number, action: (typeof ACTIONS)[number]) => {
    map[id] = { ...(map[id] ?? {}), [action]: 1 } as UserAuth;
  };
  for (const grant of body.permissions) {
    const actions = ACTIONS.filter((a) => grant[a] === 1);
    for (const a of actions) give(grant.module_id, a);
    if (!actions.length) continue;
    for (let p = MODULE_BY_ID.get(grant.module_id)!.pid; p; p = MODULE_BY_ID.get(p)?.pid ?? 0) give(p, 'view');
  }
  return map;
}

export async function updateRoleAuth(db: Db, user: AuthUser, body: RoleAuthUpdateRequest): Promise<void> {
  const perms = expandDistribution(body);
  await db.transaction().execute(async (trx) => {
    await requireChangeableRole(trx, user, body.id);
    if (!rightsWithin(perms, await grantableRights(trx, user))) throw beyond();
    await repo.replacePermissions(
      trx,
      body.id,
      Object.entries(perms).map(([id, auth]) => ({
        module_id: Number(id),
        view: auth.view ?? 0,
        edit: auth.edit ?? 0,
        add: auth.add ?? 0,
      })),
    );
  });
}
