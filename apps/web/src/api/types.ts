import type {
  Account,
  DictEntry,
  DictType,
  OnlineUser,
  OperationLogEntry,
  Role,
  RoleAuthTree,
  RoleOption,
  TreeNode,
  Unit,
  UnitInfo,
  Announcement,
  ApiName,
  DownloadEntry,
  HomeData,
  Page,
  PlayConfig,
  EndpointDef,
  HeartbeatResult,
  LoginPageInfo,
  LoginResult,
  PageInfo,
  RegistrationStatus,
  UserContext,
  UserInfo,
  VersionInfo,
} from '@bwc/protocol';
import type { Api } from '@bwc/protocol';

/** Answer of `serverVersion`: the product version and the id of the served console build. */
export interface ServerVersion {
  version: string;
  build: string;
}

/**
 * The `data` each endpoint answers with. Endpoints not listed answer `unknown` until a feature
 * adds its entry here (features may also pass the type to `call<T>()`).
 */
interface KnownData {
  loginGet: LoginPageInfo;
  login: LoginResult;
  logout: null;
  pageInfo: PageInfo;
  serverVersion: ServerVersion;
  registration: RegistrationStatus;
  versionInfo: VersionInfo;
  register: null;
  heartbeatCreate: HeartbeatResult;
  heartbeatCheck: HeartbeatResult;
  userInfo: UserInfo;
  userContext: UserContext;
  changePassword: null;
  // system settings, announcements, downloads, home (features/system, features/home);
  // settingsGet answers Settings<type>: use useSettings(type)
  playGet: PlayConfig;
  home: HomeData;
  announceList: Page<Announcement>;
  announceGetById: Announcement;
  announcePublished: Page<Announcement>;
  announceAdd: Announcement;
  announceUpdateGet: Announcement;
  announceUpdatePost: Announcement;
  downloadList: Page<DownloadEntry>;
  downloadCenter: DownloadEntry[];
  // organisation (features/configcenter)
  unitGet: Unit[];
  unitAdd: { id: number };
  unitByCode: UnitInfo;
  unitTree: TreeNode[];
  unitTreeDevices: TreeNode[];
  unitSearch: TreeNode[];
  accountList: Page<Account>;
  accountAdd: { id: number };
  onlineUsers: OnlineUser[];
  roleList: Role[];
  roleOptions: RoleOption[];
  roleAdd: { id: number };
  roleAuthGet: RoleAuthTree;
  logList: Page<OperationLogEntry>;
  dictTypes: DictType[];
  dictList: DictEntry[];
  dictAdd: { id: number };
}

export type ApiData = { [N in ApiName]: N extends keyof KnownData ? KnownData[N] : unknown };

/** Name of an endpoint given its definition object (`Api.login` -> 'login'). */
type NameOfDef<D> = {
  [N in ApiName]: (typeof Api)[N] extends D ? (D extends (typeof Api)[N] ? N : never) : never;
}[ApiName];

export type Endpoint = ApiName | EndpointDef;
export type DataOf<E extends Endpoint> = E extends ApiName
  ? ApiData[E]
  : [NameOfDef<E>] extends [never]
    ? unknown
    : ApiData[NameOfDef<E>];
