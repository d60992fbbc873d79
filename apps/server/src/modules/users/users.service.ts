import type {
  Account,
  AccountAddRequest,
  AccountListQuery,
  AccountStatusRequest,
  AccountUpdateRequest,
  OnlineUser,
  Page,
} from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { readSettings } from '../../db/settings';
import { onUniqueViolation } from '../../db/unique';
import type { AuthUser } from '../../http/auth';
import { Errors } from '../../http/errors';
import { assertInScope, unitSubtree, type UnitScope } from '../../http/scope';
import { hashPlainPassword } from '../auth/password';
import { assertCanAssign, assertCanManage } from './users.policy';
import { presentAccount, presentOnlineUser } from './users.presenter';
import * as repo from './users.repository';
import { presenceSince } from '../auth/presence';

/** Sessions idle longer than the session timeout are not online any more. */
const onlineSince = presenceSince;

async function requireAccount(db: Db, id: number): Promise<repo.AccountRow> {
  const row = await repo.findAccount(db, id, await onlineSince(db));
  if (!row) throw Errors.notFound('user');
  return row;
}

/** Refuse a change that would leave no enabled administrator. */
async function assertNotLastAdmin(db: Db, target: repo.AccountRow): Promise<void> {
  if (target.ifadmin === 1 && target.status === 'enabled' && (await repo.countOtherEnabledAdmins(db, target.id)) === 0)
    throw Errors.conflict('errors.user.lastAdmin');
}

function assertNotSelf(user: AuthUser, id: number): void {
  if (user.id === id) throw Errors.conflict('errors.user.self');
}

export async function listAccounts(db: Db, scope: UnitScope, q: AccountListQuery): Promise<Page<Account>> {
  let unitIds: number[] | null = scope.all ? null : scope.ids;
  if (q.unit_id) {
    assertInScope(scope, q.unit_id);
    unitIds = q.include_sub ? await unitSubtree(db, q.unit_id) : [q.unit_id];
  }
  const { total, rows } = await repo.listAccounts(db, {
    unitIds,
    keyword: q.keyword,
    roleId: q.role_id,
    status: q.status,
    page: q.page,
    limit: q.limit,
    onlineSince: await onlineSince(db),
  });
  return { total, page: q.page, limit: q.limit, list: rows.map(presentAccount) };
}

export async function addAccount(db: Db, user: AuthUser, scope: UnitScope, body: AccountAddRequest): Promise<number> {
  const passwordHash = await hashPlainPassword(body.password);
  const taken = () => Errors.conflict('errors.user.taken', { username: body.username });
  return onUniqueViolation(
    () =>
      db.transaction().execute(async (trx) => {
        await assertCanAssign(trx, user, scope, body);
        if (await repo.usernameTaken(trx, body.username)) throw taken();
        return repo.insertAccount(trx, {
          username: body.username,
          password_hash: passwordHash,
          hostname: body.hostname,
          phone: body.phone,
          unit_id: body.unit_id,
          role_id: body.role_id,
          ifadmin: body.ifadmin,
        });
      }),
    taken,
  );
}

export async function updateAccount(
  db: Db,
  user: AuthUser,
  scope: UnitScope,
  body: AccountUpdateRequest,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await requireAccount(trx, body.id);
    await assertCanManage(trx, user, scope, target);
    await assertCanAssign(trx, user, scope, body);
    if (body.ifadmin === 0) await assertNotLastAdmin(trx, target);
    await repo.updateAccount(trx, target.id, {
      hostname: body.hostname,
      phone: body.phone,
      unit_id: body.unit_id,
      role_id: body.role_id,
      ifadmin: body.ifadmin,
    });
  });
}

/** Enable or disable; a disabled account's sessions end at once. */
export async function setAccountStatus(
  db: Db,
  user: AuthUser,
  scope: UnitScope,
  body: AccountStatusRequest,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await requireAccount(trx, body.id);
    await assertCanManage(trx, user, scope, target);
    if (body.status === 'disabled') {
      assertNotSelf(user, target.id);
      await assertNotLastAdmin(trx, target);
    }
    await repo.updateAccount(trx, target.id, { status: body.status });
    if (body.status === 'disabled') await repo.endUserSessions(trx, target.id, 'ended');
  });
}

/** Reset to normalset.default_password; the account's sessions end (it logs in with the new one). */
export async function resetPassword(db: Db, user: AuthUser, scope: UnitScope, id: number): Promise<void> {
  const { default_password } = await readSettings(db, 'normalset');
  const passwordHash = await hashPlainPassword(default_password);
  await db.transaction().execute(async (trx) => {
    const target = await requireAccount(trx, id);
    await assertCanManage(trx, user, scope, target);
    await repo.updateAccount(trx, target.id, { password_hash: passwordHash });
    if (target.id !== user.id) await repo.endUserSessions(trx, target.id, 'ended');
  });
}

export async function deleteAccount(db: Db, user: AuthUser, scope: UnitScope, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await requireAccount(trx, id);
    await assertCanManage(trx, user, scope, target);
    assertNotSelf(user, target.id);
    await assertNotLastAdmin(trx, target);
    await repo.deleteAccount(trx, target.id);
  });
}

export async function onlineUsers(db: Db, scope: UnitScope, keyword: string | undefined): Promise<OnlineUser[]> {
  const rows = await repo.onlineSessions(db, scope.all ? null : scope.ids, keyword, await onlineSince(db));
  return rows.map(presentOnlineUser);
}

/** del_online: the account's sessions are kicked; its next request answers 401 forcedOffline. */
export async function forceOffline(db: Db, user: AuthUser, scope: UnitScope, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await requireAccount(trx, id);
    await assertCanManage(trx, user, scope, target);
    await repo.endUserSessions(trx, target.id, 'kicked');
  });
}
