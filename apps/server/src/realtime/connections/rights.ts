import type { Action } from '@bwc/protocol';
import type { Db } from '../../db/connection';
import { unitSubtree } from '../../http/scope';
import { loadPermissions } from '../../modules/auth/permission.repository';

/** What a channel's socket may do and see: `menu:action` rights of its role, the units it sees (null: all). */
export interface ChannelRights {
  rights: ReadonlySet<string>;
  scope: ReadonlySet<number> | null;
}

/** The right of `menu` for `action` as ChannelRights.rights holds it. */
export const rightKey = (menu: number, action: Action): string => `${menu}:${action}`;

/**
 * Rights and unit scope of the users behind a channel's sockets (session push channel, console
 * service), read through the role and unit repositories. One reader serves one pass (a logon, a
 * periodic re-check of every socket): each role's permissions and each unit's subtree is read once
 * per pass, however many sockets share it. Answers shared sets: callers that change them copy first.
 */
export class RightsReader {
  private readonly roles = new Map<number, Promise<ReadonlySet<string>>>();
  private readonly units = new Map<number, Promise<ReadonlySet<number>>>();

  constructor(private readonly db: Db) {}

  rightsOf(roleId: number): Promise<ReadonlySet<string>> {
    let found = this.roles.get(roleId);
    if (!found) this.roles.set(roleId, (found = readRights(this.db, roleId)));
    return found;
  }

  /** Units a user sees: null (all) for an administrator, else its unit's subtree. */
  async scopeOf(user: { unit_id: number; ifadmin: number }): Promise<ReadonlySet<number> | null> {
    if (user.ifadmin === 1) return null;
    let found = this.units.get(user.unit_id);
    if (!found) this.units.set(user.unit_id, (found = unitSubtree(this.db, user.unit_id).then((ids) => new Set(ids))));
    return found;
  }

  async of(user: { role_id: number; unit_id: number; ifadmin: number }): Promise<ChannelRights> {
    const [rights, scope] = await Promise.all([this.rightsOf(user.role_id), this.scopeOf(user)]);
    return { rights, scope };
  }
}

async function readRights(db: Db, roleId: number): Promise<ReadonlySet<string>> {
  const rights = new Set<string>();
  for (const [menu, auth] of Object.entries(await loadPermissions(db, roleId)))
    for (const [action, on] of Object.entries(auth)) if (on === 1) rights.add(`${menu}:${action}`);
  return rights;
}
