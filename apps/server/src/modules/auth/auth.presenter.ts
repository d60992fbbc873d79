import { MenuId, type ContextModule, type UserAuth, type UserContext, type UserInfo } from '@bwc/protocol';
import type { AuthContext } from '../../http/auth';

export function presentUserInfo(auth: AuthContext, wsurl: string): UserInfo {
  const { user, session } = auth;
  return {
    id: user.id,
    username: user.username,
    hostname: user.hostname,
    group_name: user.role_name,
    dname: user.unit_name,
    dwbh: user.unit_bh,
    unit_id: user.unit_id,
    ifadmin: user.ifadmin,
    logincode: session.logincode,
    wsurl,
    scode: user.unit_bh,
    // category sent on the session push channel login: administrators receive every unit's data
    auth_cate: user.ifadmin === 1 ? 'admin' : 'user',
  };
}

type ModuleRow = {
  id: number;
  bh: string;
  pid: number;
  key: string;
  path: string;
  view: number;
  edit: number;
  add: number;
};

function userAuthOf(row: ModuleRow): UserAuth {
  return {
    ...(row.view ? { view: 1 } : {}),
    ...(row.edit ? { edit: 1 } : {}),
    ...(row.add ? { add: 1 } : {}),
  } as UserAuth;
}

export function presentContext(rows: ModuleRow[], allModules: string[], gb: boolean): UserContext {
  const modules: ContextModule[] = rows.map((r) => ({
    id: r.id,
    bh: r.bh,
    pid: r.pid,
    key: r.key,
    path: r.path,
    user_auth: userAuthOf(r),
  }));
  const viewable = new Set(modules.filter((m) => m.user_auth.view === 1).map((m) => m.id));
  const systemEntries = [MenuId.SYSTEM_SETTINGS, MenuId.DISPATCH_CONFIG, MenuId.ANNOUNCEMENTS, MenuId.DOWNLOADS];
  return {
    modules,
    all_modules: allModules,
    set_auth: systemEntries.some((id) => viewable.has(id)) ? 1 : 0,
    systerm_auth: viewable.has(MenuId.SYSTEM_SETTINGS) ? 1 : 0,
    replay_auth: viewable.has(MenuId.DISPATCH_CONFIG) ? 1 : 0,
    gb: gb ? 1 : 0,
  };
}
