import { ResultCode } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { assertInScope, type UnitScope } from '../../http/scope';
import { roleWithinCaller } from '../roles/roles.policy';
import { findRole } from '../roles/roles.repository';
import { findUnit } from '../units/units.repository';

/**
 * Who may manage which account: the account must be in the caller's unit scope, and a
 * non-administrator may not touch an administrator or an account whose role has rights beyond
 * his own (he could otherwise reset its password and act with those rights).
 */
export async function assertCanManage(
  db: Db,
  user: AuthUser,
  scope: UnitScope,
  target: { unit_id: number; role_id: number; ifadmin: number },
): Promise<void> {
  assertInScope(scope, target.unit_id);
  if (user.ifadmin === 1) return;
  if (target.ifadmin === 1 || !(await roleWithinCaller(db, user, target.role_id)))
    throw new AppError(ResultCode.FORBIDDEN, 'errors.user.protectedTarget');
}

/**
 * What an account may be given: a unit in the caller's scope, an existing role within his
 * rights, administrator rights only from an administrator.
 */
export async function assertCanAssign(
  db: Db,
  user: AuthUser,
  scope: UnitScope,
  values: { unit_id: number; role_id: number; ifadmin: number },
): Promise<void> {
  if (!(await findUnit(db, values.unit_id))) throw Errors.notFound('unit');
  assertInScope(scope, values.unit_id);
  if (!(await findRole(db, values.role_id))) throw Errors.notFound('role');
  if (values.ifadmin === 1 && user.ifadmin !== 1) throw new AppError(ResultCode.FORBIDDEN, 'errors.user.grantAdmin');
  if (!(await roleWithinCaller(db, user, values.role_id)))
    throw new AppError(ResultCode.FORBIDDEN, 'errors.user.roleBeyond');
}
