import { UserType } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { ConsoleErrors } from './errors';
import { findGroup, memberIds, type GroupRow } from './groups.repository';
import { sees, type Login } from './login';

/**
 * Which groups a login may see: a console the groups of its unit scope, a terminal the groups it
 * is a member of. A group it may not see is answered like one that does not exist.
 */
export async function visibleGroup(
  db: Db,
  login: Login,
  tgid: number,
): Promise<{ group: GroupRow; members: number[] }> {
  const group = await findGroup(db, tgid);
  const members = group ? await memberIds(db, tgid) : [];
  const visible =
    group && (login.user_type === UserType.TERMINAL ? members.includes(login.uid) : sees(login, group.unit_id));
  if (!group || !visible) throw ConsoleErrors.notFound('console.groupNotFound', { tgid });
  return { group, members };
}
