import type { Account, OnlineUser } from '@bwc/protocol';
import type { AccountRow, OnlineRow } from './users.repository';

/** The only way an account leaves the server: no password hash. */
export function presentAccount(row: AccountRow): Account {
  return {
    id: row.id,
    username: row.username,
    hostname: row.hostname,
    phone: row.phone,
    unit_id: row.unit_id,
    dname: row.dname,
    dwbh: row.dwbh,
    role_id: row.role_id,
    group_name: row.group_name,
    ifadmin: row.ifadmin,
    status: row.status,
    online: row.online,
    created: row.created,
    updated: row.updated,
  };
}

export function presentOnlineUser(row: OnlineRow): OnlineUser {
  return {
    id: row.id,
    session_id: row.session_id,
    username: row.username,
    hostname: row.hostname,
    dname: row.dname,
    group_name: row.group_name,
    ip: row.ip,
    user_agent: row.user_agent,
    login_time: row.login_time,
    last_seen: row.last_seen,
  };
}
