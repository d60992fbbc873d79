import { z } from 'zod';
import { IdInput, pageOf, PageQuery } from './envelope';
import { can, MenuId, type Action, type PermissionMap } from './permissions';
import {
  AiAlarmRequest,
  AiAlarmResponse,
  Alarm,
  AlarmCategory,
  AlarmChanged,
  AlarmExportQuery,
  AlarmGbPositionRequest,
  AlarmGbPositionResponse,
  AlarmListResponse,
  AlarmPicQuery,
  AlarmPicResponse,
  AlarmPosition,
  AlarmPositionRequest,
  AlarmReadRequest,
  AlarmSearchRequest,
  AlarmSoundSettings,
  AlarmSureAllQuery,
  AlarmSureRequest,
  IsAlarmResponse,
} from './schemas/alarms';
import {
  AnnounceAddRequest,
  AnnounceListQuery,
  Announcement,
  AnnounceUpdateRequest,
  IdsRequest,
} from './schemas/announce';
import {
  ArchiveEditRequest,
  ArchiveFile,
  ArchiveListRequest,
  ArchiveMenu,
  CaseAddRequest,
  CaseCancelRequest,
  CaseIdRequest,
  CaseListRequest,
  CaseMediaAnswer,
  CaseMediaWriteAnswer,
  CaseMediaWriteRequest,
  CaseRecord,
  CaseSample,
  IncidentAddRequest,
  IncidentSend,
  IncidentSendAnswer,
  IncidentSendRequest,
  SampleAddRequest,
  SampleListRequest,
  ViolationAddRequest,
  ViolationListRequest,
  ViolationOfficer,
  ViolationOfficersRequest,
} from './schemas/cases';
import {
  AccessAddRequest,
  AccessDecideRequest,
  AccessDetail,
  AccessIdRequest,
  AccessListRequest,
  AccessRequest,
  AccessRequestPage,
  AccessUnit,
  ShareAddAnswer,
  ShareAddRequest,
  ShareLink,
  ShareLinkPage,
  ShareListRequest,
  ShareOpenAnswer,
  ShareOpenRequest,
} from './schemas/access';
import {
  CheckBatch,
  CheckBatchDetail,
  CheckBatchIdRequest,
  CheckDrawRequest,
  CheckItem,
  CheckRecordQuery,
  CheckResultRequest,
  MediaScoreAnswer,
  MediaScoreUpdate,
  RubricAddRequest,
  RubricEditRequest,
  RubricIdRequest,
  RubricVersion,
  VideoScoreQuery,
  VideoScoreRow,
} from './schemas/review';
import {
  PlaybackDevice,
  PlaybackDeviceQuery,
  PlaybackFlagRequest,
  PlaybackIdRequest,
  PlaybackInfo,
  PlaybackMarksAnswer,
  PlaybackSaveRequest,
  PlaybackSearchAnswer,
  PlaybackSearchRequest,
} from './schemas/playback';
import {
  RetentionDueItem,
  RetentionPolicy,
  RetentionPreviewRequest,
  RetentionRunAnswer,
  RetentionUpdateRequest,
  SensitiveWord,
  SensitiveWordAddRequest,
  SensitiveWordDeleteRequest,
  SensitiveWordEditRequest,
  SensitiveWordListRequest,
} from './schemas/retention';
import { ChangePasswordRequest, HeartbeatResult, LoginPageInfo, LoginRequest, LoginResult } from './schemas/auth';
import {
  CommandQueued,
  Device,
  DeviceAddRequest,
  DeviceApiConfig,
  DeviceCommand,
  DeviceCommandAck,
  DeviceCommandsQuery,
  DeviceIdRequest,
  DeviceIdsRequest,
  DeviceImportResult,
  DeviceListQuery,
  DeviceLoginAnswer,
  DeviceLoginRequest,
  DevicePoint,
  DeviceSettings,
  DeviceStateRequest,
  DeviceStatus,
  DeviceUpdateRequest,
  DeviceWithSecret,
  ImeiRequest,
  PositionBatchAnswer,
  PositionBatchRequest,
  ProvisionAnswer,
  ProvisionRequest,
  RecorderModel,
  RecorderModelAddRequest,
  RecorderModelIdRequest,
  RecorderModelListQuery,
  RecorderModelUpdateRequest,
  RemoteKillAnswer,
  RemoteKillRequest,
  SendCmdRequest,
  SendRestartRequest,
  SosAnswer,
  SosRequest,
  UnitDevicePointRequest,
} from './schemas/devices';
import {
  Workstation,
  WorkstationAddRequest,
  WorkstationHeartbeatAnswer,
  WorkstationHeartbeatRequest,
  WorkstationIdRequest,
  WorkstationListQuery,
  WorkstationLoginAnswer,
  WorkstationLoginRequest,
  WorkstationProvisionAnswer,
  WorkstationProvisionRequest,
  WorkstationUpdateRequest,
  WorkstationWithSecret,
} from './schemas/workstations';
import {
  DictAddRequest,
  DictDeleteRequest,
  DictEntry,
  DictListQuery,
  DictType,
  DictUpdateRequest,
} from './schemas/dictionary';
import {
  CustodyAnswer,
  EditRecordEntry,
  EditRecordQuery,
  MediaBulkAnswer,
  MediaDeleteRequest,
  MediaDetail,
  MediaDownloadAnswer,
  MediaDownloadAllAnswer,
  CustodyExportQuery,
  MediaEditAllRequest,
  MediaEditAllValues,
  MediaFlagAllRequest,
  MediaFlagState,
  MediaFlagRequest,
  MediaGpsAnswer,
  MediaIdRequest,
  MediaIdsRequest,
  MediaItem,
  MediaListAnswer,
  MediaReviseRequest,
  MediaRevision,
  MediaSearchRequest,
} from './schemas/evidence';
import { DownloadEntry, DownloadListQuery, IsIndexRequest } from './schemas/download';
import {
  Fence,
  FenceAddRequest,
  FenceEvent,
  FenceEventQuery,
  FenceListQuery,
  FenceUpdateRequest,
  GeoIdRequest,
  Zone,
  ZoneAddRequest,
  ZoneListQuery,
  ZoneUpdateRequest,
} from './schemas/fences';
import {
  GroupAddAnswer,
  GroupAddRequest,
  GroupEditRequest,
  GroupFromDevicesAnswer,
  GroupFromDevicesRequest,
  GroupIdRequest,
  GroupListRequest,
  TalkGroup,
} from './schemas/groups';
import { HomeData } from './schemas/home';
import {
  MessageAddRequest,
  MessageDelRequest,
  MessageIdRequest,
  MessageSaveEditRequest,
  MessgListRequest,
  MessListRequest,
  PushMessage,
  PushRecipient,
  PushSend,
  SendListRequest,
  SendRequest,
} from './schemas/messages';
import { RegisterRequest, RegistrationStatus, VersionInfo } from './schemas/licence';
import {
  GeocodeAnswer,
  GeocodeQuery,
  GeocodeSettings,
  MapFileInfo,
  MapInfoAnswer,
  MapStyleQuery,
} from './schemas/maps';
import { OperationLogEntry, OperationLogExportQuery, OperationLogQuery } from './schemas/oplog';
import {
  Account,
  AccountAddRequest,
  AccountIdRequest,
  AccountListQuery,
  AccountStatusRequest,
  AccountUpdateRequest,
  ForceOfflineRequest,
  OnlineUser,
  OnlineUserQuery,
  Role,
  RoleAddRequest,
  RoleAuthTree,
  RoleAuthUpdateRequest,
  RoleIdRequest,
  RoleListQuery,
  RoleOption,
  RoleUpdateRequest,
  Unit,
  UnitAddRequest,
  UnitByCodeRequest,
  UnitDeleteRequest,
  UnitInfo,
  UnitListQuery,
  UnitMoveRequest,
  UnitUpdateRequest,
} from './schemas/org';
import {
  GetVideoAnswer,
  GetVideoRequest,
  LiveAddRequest,
  LiveDelRequest,
  LivePlay,
  LiveStopped,
  MediaGatewayInfo,
  MediaKickRequest,
} from './schemas/live';
import { MapConfig, PlayConfig, SettingsAnswer, SettingsSchemas, SettingsTypeInput } from './schemas/system';
import {
  GbDetailRequest,
  GbDevice,
  GbDeviceDetail,
  GbDeviceListQuery,
  GbDeviceTreeRequest,
  GbDeviceUpdateRequest,
  GbDeviceRefreshRequest,
  GbPlayAnswer,
  GbPlayerConfig,
  GbPlayRequest,
  GbPlaybackControlRequest,
  GbPtzRequest,
  GbRecording,
  GbRecordSearchRequest,
  GbTreeNode,
  GbUserCheck,
} from './schemas/gb28181';
import { GbPointsAnswer, GbPointsRequest } from './schemas/gb28181-points';
import { GbPlatformStatus } from './schemas/gb28181-status';
import { TrackAnswer, TrackExportQuery, TrackMarkAnswer, TrackMarkQuery, TrackQuery } from './schemas/tracks';
import { TreeNode, UnitTreeRequest } from './schemas/tree';
import { PageInfo, ServerVersion, UserContext, UserInfo } from './schemas/user';

/**
 * Who may call an endpoint. The server enforces it (http/auth.ts `authorize`, before the input is
 * parsed); the console reads it to hide what a user cannot use (`allows`). `menu` and `anyMenu`
 * rules are also unit-scoped by the server where the data belongs to a unit.
 */
export type EndpointAuth =
  | { kind: 'public' }
  | { kind: 'session' }
  | { kind: 'admin' }
  | { kind: 'menu'; menu: number; action: Action }
  /** the action on any one of the menus (the alarm bell: dispatch 10104 or GB 10154); a refusal names the first */
  | { kind: 'anyMenu'; menus: readonly [number, ...number[]]; action: Action };

interface EndpointBase {
  method: 'GET' | 'POST';
  path: string;
  auth: EndpointAuth;
  /** POST body encoding: JSON unless `form` (x-www-form-urlencoded) or `multipart` (read by the handler) */
  encoding?: 'form' | 'multipart';
  /** schema of the POST body (the server validates with it, the console's `call()` types its input) */
  body?: z.ZodType;
  /** schema of the query string */
  query?: z.ZodType;
}

/**
 * One endpoint: method, path, auth rule, input schemas, and either `data` (schema of the success
 * envelope's `data`: the server serialises with it, the console's `call()` types its answer) or
 * `file: true` (the answer is a file; errors still come as envelopes).
 */
export type EndpointDef = EndpointBase & ({ data: z.ZodType; file?: undefined } | { file: true; data?: undefined });

const pub = { kind: 'public' } as const;
const session = { kind: 'session' } as const;
const admin = { kind: 'admin' } as const;
const menu = (id: number, action: Action) => ({ kind: 'menu', menu: id, action }) as const;
const anyMenu = (action: Action, ...menus: [number, ...number[]]) => ({ kind: 'anyMenu', menus, action }) as const;
/** the alarm bell's calls: view on dispatch alarms (10104) or GB alarms (10154), whichever mode the console runs in */
const bell = anyMenu('view', MenuId.DISPATCH_ALARM, MenuId.MONITOR_ALARM);
/** live video: the emergency screen (10101), the video wall (10106) and video patrol (10151) */
const live = (action: Action) => anyMenu(action, MenuId.EMERGENCY, MenuId.DISPATCH_VIDEO, MenuId.VIDEO_PATROL);
/** history track: one page under two menu entries, /monitor/track (10153) and /dispatch/history (10103) */
const historyTrack = anyMenu('view', MenuId.TRACK, MenuId.HISTORY);
/** history replay (schemas/playback.ts): /monitor/playback (10152) */
const replay = (action: Action) => menu(MenuId.PLAYBACK, action);
/** the dispatch mode's playback: the emergency screen (10101) or history (10103) */
const dispatchReplay = (action: Action) => anyMenu(action, MenuId.EMERGENCY, MenuId.HISTORY);
/** talk groups: the emergency screen's group tab (10101), cluster intercom (10102) and group management (10107) */
const groups = (action: Action) => anyMenu(action, MenuId.EMERGENCY, MenuId.CLUSTER, MenuId.VOICE_MANAGE);
/**
 * evidence library (issue 15): the action on any of the /data/manage screens or the deleted list;
 * the server then checks the menu of the `view` asked for (law 10211, sensitivity 10212, outside
 * 10213, deleted 10272) and the unit scope of every id
 */
const evidence = (action: Action) =>
  anyMenu(
    action,
    MenuId.LAW_MEDIA,
    MenuId.SENSITIVE_MEDIA,
    MenuId.OUTSIDE_MEDIA,
    MenuId.DELETED_MEDIA,
    MenuId.PLAYBACK,
    MenuId.ALARM_RECORDINGS,
  );

/** Paths are absolute; the console prefixes nothing. One line per endpoint: a table. */
// prettier-ignore
export const Api = {
  // login, session, licence (spec part 1 section 7)
  loginGet: { method: 'GET', path: '/rest/index/login/get', auth: pub, data: LoginPageInfo },
  login: { method: 'POST', path: '/rest/index/login/login', auth: pub, body: LoginRequest, data: LoginResult },
  logout: { method: 'GET', path: '/rest/index/login/logout', auth: pub, data: z.null() },
  pageInfo: { method: 'GET', path: '/rest/index/index/get', auth: pub, data: PageInfo },
  background: { method: 'GET', path: '/rest/index/index/background', auth: pub, file: true },
  serverVersion: { method: 'GET', path: '/rest/index/index/version', auth: pub, data: ServerVersion },
  home: { method: 'GET', path: '/rest/index/index/home', auth: session, data: HomeData },
  registration: { method: 'GET', path: '/rest/index/unregistered/get', auth: pub, data: RegistrationStatus },
  versionInfo: { method: 'GET', path: '/rest/index/unregistered/get_info', auth: admin, data: VersionInfo },
  /** public while unregistered (the login screen's registration step); admin only once registered */
  register: { method: 'POST', path: '/rest/index/unregistered/update', auth: pub, body: RegisterRequest, data: RegistrationStatus },
  heartbeatCreate: { method: 'POST', path: '/rest/index/heartbeat/create', auth: session, data: HeartbeatResult },
  heartbeatCheck: { method: 'GET', path: '/rest/index/heartbeat/check', auth: session, data: HeartbeatResult },
  userInfo: { method: 'GET', path: '/rest/user/user/get_info', auth: session, data: UserInfo },
  userContext: { method: 'GET', path: '/rest/user/user/get_context', auth: session, data: UserContext },
  changePassword: { method: 'POST', path: '/rest/user/user/change_password', auth: session, encoding: 'form', body: ChangePasswordRequest, data: z.null() },

  // system settings (systerm_auth: menu 10002; dispatch config: menu 10003); the server picks the
  // menu from the settings type, these entries name the stricter default
  settingsGet: { method: 'GET', path: '/rest/system/config/system_get', auth: menu(MenuId.SYSTEM_SETTINGS, 'view'), query: SettingsTypeInput, data: SettingsAnswer },
  settingsUpdate: { method: 'POST', path: '/rest/system/config/system_update', auth: menu(MenuId.SYSTEM_SETTINGS, 'edit'), body: SettingsTypeInput.loose(), data: SettingsAnswer },
  playGet: { method: 'GET', path: '/rest/system/config/play_get', auth: session, data: PlayConfig },
  playUpdate: { method: 'POST', path: '/rest/system/config/play_update', auth: menu(MenuId.DISPATCH_CONFIG, 'edit'), body: PlayConfig, data: PlayConfig },
  uploadBackground: { method: 'POST', path: '/rest/system/config/upload_background', auth: menu(MenuId.SYSTEM_SETTINGS, 'edit'), encoding: 'multipart', data: SettingsSchemas.backset },
  mapConfig: { method: 'GET', path: '/rest/system/config/map_get', auth: session, data: MapConfig },
  // GB player (spec part 2 sections 5 and 7.2; schemas/gb28181.ts): its configuration for the GB
  // monitor screens, and whether the signed-in user can be used for GB
  gbConfig: { method: 'GET', path: '/rest/monitor/gbconfig/get', auth: anyMenu('view', MenuId.VIDEO_PATROL, MenuId.MONITOR_ALARM, MenuId.PLAYBACK), data: GbPlayerConfig },
  gbCheckUser: { method: 'POST', path: '/rest/monitor/videopatrols/checkgbuser', auth: session, data: GbUserCheck },
  /** whether GB28181 access runs, for the GB settings page (dispatch config) */
  gbStatus: { method: 'GET', path: '/rest/system/config/gb_status', auth: menu(MenuId.DISPATCH_CONFIG, 'view'), data: GbPlatformStatus },
  // GB devices (issue 16; schemas/gb28181.ts): the GB equipment tree and a device's detail for the
  // monitor screens, PTZ and presets, the device's recordings (RecordInfo), the admins' device list.
  // Unit-scoped by the device's unit.
  gbDeviceTree: { method: 'POST', path: '/rest/monitor/videopatrols/getdevice', auth: anyMenu('view', MenuId.VIDEO_PATROL, MenuId.PLAYBACK), body: GbDeviceTreeRequest, data: z.array(GbTreeNode) },
  gbDeviceDetail: { method: 'POST', path: '/rest/monitor/videopatrols/detaildevice', auth: anyMenu('view', MenuId.VIDEO_PATROL, MenuId.PLAYBACK), body: GbDetailRequest, data: GbDeviceDetail },
  gbPtz: { method: 'POST', path: '/rest/monitor/videopatrols/ptz', auth: menu(MenuId.VIDEO_PATROL, 'edit'), body: GbPtzRequest, data: z.null() },
  /** GB live video or playback of a channel: play paths with a 60 s token. Live needs a live menu (like live_add; checked in the handler), playback (start/end) a live menu or history replay's 10152 */
  gbPlay: {
    method: 'POST',
    path: '/rest/monitor/videopatrols/gbplay',
    auth: anyMenu('view', MenuId.EMERGENCY, MenuId.DISPATCH_VIDEO, MenuId.VIDEO_PATROL, MenuId.PLAYBACK),
    body: GbPlayRequest,
    data: GbPlayAnswer,
  },
  /** pause / resume / seek / speed of a GB playback started by gbplay (MANSRTSP INFO); the playback's menus, and the device's unit in scope */
  gbPlaybackControl: {
    method: 'POST',
    path: '/rest/monitor/videoreplay/gbcontrol',
    auth: anyMenu('view', MenuId.EMERGENCY, MenuId.DISPATCH_VIDEO, MenuId.VIDEO_PATROL, MenuId.PLAYBACK),
    body: GbPlaybackControlRequest,
    data: z.null(),
  },
  gbRecordSearch: { method: 'POST', path: '/rest/monitor/videoreplay/gbsearch', auth: anyMenu('view', MenuId.PLAYBACK, MenuId.VIDEO_PATROL), body: GbRecordSearchRequest, data: z.array(GbRecording) },
  /** GB devices with a known position for the emergency map in GB mode (schemas/gb28181-points.ts) */
  gbDevicePoints: { method: 'POST', path: '/rest/gis/gismoni/gb_points', auth: menu(MenuId.EMERGENCY, 'view'), body: GbPointsRequest, data: GbPointsAnswer },
  gbDeviceList: { method: 'GET', path: '/rest/oamcenter/gbdevice/list', auth: menu(MenuId.GB_DEVICES, 'view'), query: GbDeviceListQuery, data: pageOf(GbDevice) },
  gbDeviceUpdate: { method: 'POST', path: '/rest/oamcenter/gbdevice/update', auth: menu(MenuId.GB_DEVICES, 'edit'), body: GbDeviceUpdateRequest, data: GbDevice },
  gbDeviceRefresh: { method: 'POST', path: '/rest/oamcenter/gbdevice/refresh', auth: menu(MenuId.GB_DEVICES, 'edit'), body: GbDeviceRefreshRequest, data: GbDevice },

  // announcements
  announceList: { method: 'POST', path: '/rest/system/announce/get', auth: menu(MenuId.ANNOUNCEMENTS, 'view'), body: AnnounceListQuery, data: pageOf(Announcement) },
  /** published ones for every user (home, /emegencyNotice); drafts need menu view */
  announceGetById: { method: 'GET', path: '/rest/system/announce/get_by_id', auth: session, query: IdInput, data: Announcement },
  announcePublished: { method: 'GET', path: '/rest/system/announce/published', auth: session, query: PageQuery, data: pageOf(Announcement) },
  announceAdd: { method: 'POST', path: '/rest/system/announce/add', auth: menu(MenuId.ANNOUNCEMENTS, 'add'), body: AnnounceAddRequest, data: Announcement },
  announceUpdateGet: { method: 'POST', path: '/rest/system/announce/update_get', auth: menu(MenuId.ANNOUNCEMENTS, 'edit'), body: IdInput, data: Announcement },
  announceUpdatePost: { method: 'POST', path: '/rest/system/announce/update_post', auth: menu(MenuId.ANNOUNCEMENTS, 'edit'), body: AnnounceUpdateRequest, data: Announcement },
  announceDelete: { method: 'POST', path: '/rest/system/announce/delete', auth: menu(MenuId.ANNOUNCEMENTS, 'edit'), body: IdsRequest, data: z.null() },
  announcePublish: { method: 'POST', path: '/rest/system/announce/publish', auth: menu(MenuId.ANNOUNCEMENTS, 'edit'), body: IdsRequest, data: z.null() },

  // downloads
  downloadList: { method: 'GET', path: '/rest/system/download/get', auth: menu(MenuId.DOWNLOADS, 'view'), query: DownloadListQuery, data: pageOf(DownloadEntry) },
  downloadCenter: { method: 'GET', path: '/rest/system/download/center', auth: session, data: z.array(DownloadEntry) },
  downloadFile: { method: 'GET', path: '/rest/system/download/file', auth: session, file: true, query: IdInput },
  downloadAdd: { method: 'POST', path: '/rest/system/download/add', auth: menu(MenuId.DOWNLOADS, 'add'), encoding: 'multipart', data: DownloadEntry },
  downloadUpdate: { method: 'POST', path: '/rest/system/download/update_post', auth: menu(MenuId.DOWNLOADS, 'edit'), encoding: 'multipart', data: DownloadEntry },
  downloadDelete: { method: 'POST', path: '/rest/system/download/del', auth: menu(MenuId.DOWNLOADS, 'edit'), body: IdsRequest, data: z.null() },
  downloadIsIndex: { method: 'POST', path: '/rest/system/download/is_index_post', auth: menu(MenuId.DOWNLOADS, 'edit'), body: IsIndexRequest, data: DownloadEntry },

  // organisation: units, unit trees, accounts, online users, roles, operation log,
  // data dictionary. Every one is unit-scoped on the server.
  unitGet: { method: 'GET', path: '/rest/user/unit/get', auth: menu(MenuId.UNITS, 'view'), query: UnitListQuery, data: z.array(Unit) },
  unitAdd: { method: 'POST', path: '/rest/user/unit/add', auth: menu(MenuId.UNITS, 'add'), body: UnitAddRequest, data: IdInput },
  unitUpdate: { method: 'POST', path: '/rest/user/unit/update', auth: menu(MenuId.UNITS, 'edit'), body: UnitUpdateRequest, data: z.null() },
  unitMove: { method: 'POST', path: '/rest/user/unit/move', auth: menu(MenuId.UNITS, 'edit'), body: UnitMoveRequest, data: z.null() },
  unitDelete: { method: 'POST', path: '/rest/user/unit/del', auth: menu(MenuId.UNITS, 'edit'), body: UnitDeleteRequest, data: z.null() },
  /** spec name: the unit with code `bh` (unit info for any screen) */
  unitByCode: { method: 'POST', path: '/rest/user/unit/edit', auth: session, body: UnitByCodeRequest, data: UnitInfo },
  /** unit tree selector (spec other/unitjson/*): one level of units under `id` (roots of the caller's scope without) */
  unitTree: { method: 'POST', path: '/rest/other/unitjson/gdlist', auth: session, body: UnitTreeRequest, data: z.array(TreeNode) },
  /** same with device counts (lion_count: online devices below) and, once devices exist, the unit's devices as leaves */
  unitTreeDevices: { method: 'POST', path: '/rest/other/unitjson/gdlist_dv', auth: session, body: UnitTreeRequest, data: z.array(TreeNode) },
  /** flat search of units by name or code (`text` or `key`) */
  unitSearch: { method: 'POST', path: '/rest/other/unitjson/dweilist', auth: session, body: UnitTreeRequest, data: z.array(TreeNode) },

  accountList: { method: 'GET', path: '/rest/user/user/list', auth: menu(MenuId.ACCOUNTS, 'view'), query: AccountListQuery, data: pageOf(Account) },
  accountAdd: { method: 'POST', path: '/rest/user/user/add', auth: menu(MenuId.ACCOUNTS, 'add'), body: AccountAddRequest, data: IdInput },
  accountUpdate: { method: 'POST', path: '/rest/user/user/update', auth: menu(MenuId.ACCOUNTS, 'edit'), body: AccountUpdateRequest, data: z.null() },
  accountStatus: { method: 'POST', path: '/rest/user/user/status', auth: menu(MenuId.ACCOUNTS, 'edit'), body: AccountStatusRequest, data: z.null() },
  accountResetPassword: { method: 'POST', path: '/rest/user/user/reset_password', auth: menu(MenuId.ACCOUNTS, 'edit'), body: AccountIdRequest, data: z.null() },
  accountDelete: { method: 'POST', path: '/rest/user/user/del', auth: menu(MenuId.ACCOUNTS, 'edit'), body: AccountIdRequest, data: z.null() },
  onlineUsers: { method: 'GET', path: '/rest/other/user/online', auth: menu(MenuId.ACCOUNTS, 'view'), query: OnlineUserQuery, data: z.array(OnlineUser) },
  /** POST (it changes state): `{id}` account id */
  forceOffline: { method: 'POST', path: '/rest/other/user/del_online', auth: menu(MenuId.ACCOUNTS, 'edit'), body: ForceOfflineRequest, data: z.null() },

  roleList: { method: 'GET', path: '/rest/user/role/get', auth: menu(MenuId.ROLES, 'view'), query: RoleListQuery, data: z.array(Role) },
  /** roles the caller may assign in the account form */
  roleOptions: { method: 'GET', path: '/rest/user/role/options', auth: menu(MenuId.ACCOUNTS, 'view'), data: z.array(RoleOption) },
  roleAdd: { method: 'POST', path: '/rest/user/role/add', auth: menu(MenuId.ROLES, 'add'), body: RoleAddRequest, data: IdInput },
  roleUpdate: { method: 'POST', path: '/rest/user/role/update', auth: menu(MenuId.ROLES, 'edit'), body: RoleUpdateRequest, data: z.null() },
  roleDelete: { method: 'POST', path: '/rest/user/role/del', auth: menu(MenuId.ROLES, 'edit'), body: RoleIdRequest, data: z.null() },
  roleAuthGet: { method: 'GET', path: '/rest/user/role/auth_get', auth: menu(MenuId.ROLES, 'view'), query: RoleIdRequest, data: RoleAuthTree },
  roleAuthUpdate: { method: 'POST', path: '/rest/user/role/auth_update', auth: menu(MenuId.ROLES, 'edit'), body: RoleAuthUpdateRequest, data: z.null() },

  logList: { method: 'GET', path: '/rest/system/log/get', auth: menu(MenuId.OPERATION_LOG, 'view'), query: OperationLogQuery, data: pageOf(OperationLogEntry) },
  logExport: { method: 'GET', path: '/rest/system/log/export', auth: menu(MenuId.OPERATION_LOG, 'view'), file: true, query: OperationLogExportQuery },

  dictTypes: { method: 'GET', path: '/rest/system/dict/types', auth: session, data: z.array(DictType) },
  dictList: { method: 'GET', path: '/rest/system/dict/get', auth: session, query: DictListQuery, data: z.array(DictEntry) },
  dictAdd: { method: 'POST', path: '/rest/system/dict/add', auth: menu(MenuId.DATA_DICTIONARY, 'add'), body: DictAddRequest, data: IdInput },
  dictUpdate: { method: 'POST', path: '/rest/system/dict/update', auth: menu(MenuId.DATA_DICTIONARY, 'edit'), body: DictUpdateRequest, data: z.null() },
  dictDelete: { method: 'POST', path: '/rest/system/dict/del', auth: menu(MenuId.DATA_DICTIONARY, 'edit'), body: DictDeleteRequest, data: z.null() },

  // devices: recorder registry (ops centre), device API, dispatch map calls. Unit-scoped.
  deviceList: { method: 'GET', path: '/rest/oam/recorder/get', auth: menu(MenuId.RECORDERS, 'view'), query: DeviceListQuery, data: pageOf(Device) },
  deviceAdd: { method: 'POST', path: '/rest/oam/recorder/add', auth: menu(MenuId.RECORDERS, 'add'), body: DeviceAddRequest, data: DeviceWithSecret },
  deviceUpdate: { method: 'POST', path: '/rest/oam/recorder/update', auth: menu(MenuId.RECORDERS, 'edit'), body: DeviceUpdateRequest, data: Device },
  deviceDelete: { method: 'POST', path: '/rest/oam/recorder/del', auth: menu(MenuId.RECORDERS, 'edit'), body: DeviceIdRequest, data: z.null() },
  /** a new device API secret, shown once */
  deviceResetSecret: { method: 'POST', path: '/rest/oam/recorder/reset_secret', auth: menu(MenuId.RECORDERS, 'edit'), body: DeviceIdRequest, data: DeviceWithSecret },
  deviceImport: { method: 'POST', path: '/rest/oam/recorder/import', auth: menu(MenuId.RECORDERS, 'add'), encoding: 'multipart', data: DeviceImportResult },
  /** empty .xlsx with the import columns (zh-CN headers, en-US: column keys) */
  deviceImportTemplate: { method: 'GET', path: '/rest/oam/recorder/import_template', auth: menu(MenuId.RECORDERS, 'view'), file: true },
  deviceSettingsGet: { method: 'GET', path: '/rest/oam/recorder/settings_get', auth: menu(MenuId.RECORDERS, 'view'), data: DeviceSettings },
  deviceSettingsUpdate: { method: 'POST', path: '/rest/oam/recorder/settings_update', auth: menu(MenuId.RECORDERS, 'edit'), body: DeviceSettings, data: DeviceSettings },
  modelList: { method: 'GET', path: '/rest/oam/recordermodel/get', auth: menu(MenuId.RECORDER_MODELS, 'view'), query: RecorderModelListQuery, data: z.array(RecorderModel) },
  modelAdd: { method: 'POST', path: '/rest/oam/recordermodel/add', auth: menu(MenuId.RECORDER_MODELS, 'add'), body: RecorderModelAddRequest, data: IdInput },
  modelUpdate: { method: 'POST', path: '/rest/oam/recordermodel/update', auth: menu(MenuId.RECORDER_MODELS, 'edit'), body: RecorderModelUpdateRequest, data: z.null() },
  modelDelete: { method: 'POST', path: '/rest/oam/recordermodel/del', auth: menu(MenuId.RECORDER_MODELS, 'edit'), body: RecorderModelIdRequest, data: z.null() },

  // device API: `public` here, the handler authenticates the DEVICE (bearer device token from
  // deviceLogin, or HTTP Basic hostbody:secret); provision takes the provisioning key
  deviceLogin: { method: 'POST', path: '/rest/device/api/login', auth: pub, body: DeviceLoginRequest, data: DeviceLoginAnswer },
  devicePositions: { method: 'POST', path: '/rest/device/api/positions', auth: pub, body: PositionBatchRequest, data: PositionBatchAnswer },
  deviceSos: { method: 'POST', path: '/rest/device/api/sos', auth: pub, body: SosRequest, data: SosAnswer },
  deviceState: { method: 'POST', path: '/rest/device/api/status', auth: pub, body: DeviceStateRequest, data: z.null() },
  deviceCommands: { method: 'GET', path: '/rest/device/api/commands', auth: pub, query: DeviceCommandsQuery, data: z.array(DeviceCommand) },
  deviceCommandAck: { method: 'POST', path: '/rest/device/api/commands/ack', auth: pub, body: DeviceCommandAck, data: z.null() },
  deviceConfig: { method: 'GET', path: '/rest/device/api/config', auth: pub, data: DeviceApiConfig },
  deviceProvision: { method: 'POST', path: '/rest/device/api/provision', auth: pub, body: ProvisionRequest, data: ProvisionAnswer },

  // docking workstations (issue 15; schemas/workstations.ts): registry (workAdmin 10313) and the
  // workstation API (`public` here, the handler authenticates the station's bearer token)
  workstationList: { method: 'GET', path: '/rest/oam/workstation/get', auth: menu(MenuId.WORKSTATIONS, 'view'), query: WorkstationListQuery, data: pageOf(Workstation) },
  workstationAdd: { method: 'POST', path: '/rest/oam/workstation/add', auth: menu(MenuId.WORKSTATIONS, 'add'), body: WorkstationAddRequest, data: WorkstationWithSecret },
  workstationUpdate: { method: 'POST', path: '/rest/oam/workstation/update', auth: menu(MenuId.WORKSTATIONS, 'edit'), body: WorkstationUpdateRequest, data: Workstation },
  workstationDelete: { method: 'POST', path: '/rest/oam/workstation/del', auth: menu(MenuId.WORKSTATIONS, 'edit'), body: WorkstationIdRequest, data: z.null() },
  /** a new workstation secret, shown once */
  workstationResetSecret: { method: 'POST', path: '/rest/oam/workstation/reset_secret', auth: menu(MenuId.WORKSTATIONS, 'edit'), body: WorkstationIdRequest, data: WorkstationWithSecret },
  workstationLogin: { method: 'POST', path: '/rest/workstation/api/login', auth: pub, body: WorkstationLoginRequest, data: WorkstationLoginAnswer },
  workstationHeartbeat: { method: 'POST', path: '/rest/workstation/api/heartbeat', auth: pub, body: WorkstationHeartbeatRequest, data: WorkstationHeartbeatAnswer },
  workstationProvision: { method: 'POST', path: '/rest/workstation/api/provision', auth: pub, body: WorkstationProvisionRequest, data: WorkstationProvisionAnswer },

  // dispatch map: positions, status and commands (spec part 2 section 7.2 gismoni)
  gisGetPoint: { method: 'POST', path: '/rest/gis/gismoni/get_point', auth: menu(MenuId.EMERGENCY, 'view'), body: DeviceIdsRequest, data: z.array(DevicePoint) },
  gisDeviceDetail: { method: 'POST', path: '/rest/gis/gismoni/get_devicedetail', auth: menu(MenuId.EMERGENCY, 'view'), body: DeviceIdsRequest, data: z.array(Device) },
  gisUnitDevicePoint: { method: 'POST', path: '/rest/gis/gismoni/getUnitDevicePoint', auth: menu(MenuId.EMERGENCY, 'view'), body: UnitDevicePointRequest, data: z.array(DevicePoint) },
  gisStatus: { method: 'POST', path: '/rest/gis/gismoni/gisstatus', auth: menu(MenuId.EMERGENCY, 'view'), body: ImeiRequest, data: DeviceStatus },
  gisSendRestart: { method: 'POST', path: '/rest/gis/gismoni/send_restart', auth: menu(MenuId.EMERGENCY, 'edit'), body: SendRestartRequest, data: CommandQueued },
  gisSendCmd: { method: 'POST', path: '/rest/gis/gismoni/send_cmd', auth: menu(MenuId.EMERGENCY, 'edit'), body: SendCmdRequest, data: CommandQueued },
  /** remote kill or wake `{imei, action: remote_kill | remote_wakeon}` */
  gisRemoteKill: { method: 'POST', path: '/rest/gis/gismoni/remote_kill', auth: menu(MenuId.EMERGENCY, 'edit'), body: RemoteKillRequest, data: RemoteKillAnswer },

  // live video (issue 13; schemas/live.ts): ask a device to publish, get play paths, stop
  liveAdd: { method: 'POST', path: '/rest/gis/gismoni/live_add', auth: live('view'), body: LiveAddRequest, data: LivePlay },
  getVideo: { method: 'POST', path: '/rest/gis/gisvideo/getVideo', auth: live('view'), body: GetVideoRequest, data: GetVideoAnswer },
  liveDel: { method: 'POST', path: '/rest/gis/gismoni/live_del', auth: live('view'), body: LiveDelRequest, data: LiveStopped },
  liveDelImei: { method: 'POST', path: '/rest/gis/gismoni/live_delimei', auth: live('edit'), body: LiveDelRequest, data: LiveStopped },
  liveAllDel: { method: 'POST', path: '/rest/gis/gismoni/live_alldel', auth: live('view'), data: LiveStopped },
  /** ops centre media gateway: streams, publishers, viewers of this node; kick */
  mediaGateway: { method: 'GET', path: '/rest/oam/mediagateway/get', auth: menu(MenuId.MEDIA_GATEWAY, 'view'), data: MediaGatewayInfo },
  mediaKick: { method: 'POST', path: '/rest/oam/mediagateway/kick', auth: menu(MenuId.MEDIA_GATEWAY, 'edit'), body: MediaKickRequest, data: z.null() },

  // geo: electronic fences and zones (configcenter MapConfig), history track, talk
  // groups of the dispatch map, maps (offline file, tiles, style, basemap, reverse geocoding)
  fenceList: { method: 'GET', path: '/rest/config/fence/get', auth: menu(MenuId.ELECTRONIC_FENCE, 'view'), query: FenceListQuery, data: z.array(Fence) },
  fenceAdd: { method: 'POST', path: '/rest/config/fence/add', auth: menu(MenuId.ELECTRONIC_FENCE, 'add'), body: FenceAddRequest, data: Fence },
  fenceUpdate: { method: 'POST', path: '/rest/config/fence/update', auth: menu(MenuId.ELECTRONIC_FENCE, 'edit'), body: FenceUpdateRequest, data: Fence },
  fenceDelete: { method: 'POST', path: '/rest/config/fence/del', auth: menu(MenuId.ELECTRONIC_FENCE, 'edit'), body: GeoIdRequest, data: z.null() },
  /** crossings, newest first */
  fenceEvents: { method: 'GET', path: '/rest/config/fence/events', auth: menu(MenuId.ELECTRONIC_FENCE, 'view'), query: FenceEventQuery, data: pageOf(FenceEvent) },
  zoneList: { method: 'GET', path: '/rest/config/zone/get', auth: menu(MenuId.ZONES, 'view'), query: ZoneListQuery, data: z.array(Zone) },
  zoneAdd: { method: 'POST', path: '/rest/config/zone/add', auth: menu(MenuId.ZONES, 'add'), body: ZoneAddRequest, data: Zone },
  zoneUpdate: { method: 'POST', path: '/rest/config/zone/update', auth: menu(MenuId.ZONES, 'edit'), body: ZoneUpdateRequest, data: Zone },
  zoneDelete: { method: 'POST', path: '/rest/config/zone/del', auth: menu(MenuId.ZONES, 'edit'), body: GeoIdRequest, data: z.null() },

  /** positions of devices over a range, stops and gaps (gismoni history) */
  trackHistory: { method: 'POST', path: '/rest/gis/gismoni/history', auth: historyTrack, body: TrackQuery, data: TrackAnswer },
  /** stops, gaps and device/fence events to mark on the timeline (gismoni history_mark) */
  trackMarks: { method: 'POST', path: '/rest/gis/gismoni/history_mark', auth: historyTrack, body: TrackMarkQuery, data: TrackMarkAnswer },
  /** GPX 1.1 or KML 2.2 file */
  trackExport: { method: 'GET', path: '/rest/gis/track/export', auth: historyTrack, file: true, query: TrackExportQuery },

  /** create group (spec 7.1): {channel_name, cate, remark, device: jq_hostcode list, bh} -> {groupid} */
  groupAdd: { method: 'POST', path: '/rest/gis/gischanneladd/add', auth: groups('add'), body: GroupAddRequest, data: GroupAddAnswer },
  /** temporary group from devices selected on the map */
  groupFromDevices: { method: 'POST', path: '/rest/gis/gischanneladd/addgroup', auth: groups('add'), body: GroupFromDevicesRequest, data: GroupFromDevicesAnswer },
  /** edit group (spec 7.1): {channel_id, channel_name, cate, remark, device: hostid list, bh} */
  groupEdit: { method: 'POST', path: '/rest/gis/gischanneledit/edit', auth: groups('edit'), body: GroupEditRequest, data: z.null() },
  groupGet: { method: 'POST', path: '/rest/gis/gischanneledit/get', auth: groups('view'), body: GroupIdRequest, data: TalkGroup },
  groupList: { method: 'POST', path: '/rest/gis/gischannel/grouplist', auth: groups('view'), body: GroupListRequest, data: z.array(TalkGroup) },
  groupDelete: { method: 'POST', path: '/rest/gis/gischannel/del_group', auth: groups('edit'), body: GroupIdRequest, data: z.null() },

  // message push (/dispatch/msgManage, 10105; schemas/messages.ts): messages of the caller's
  // units, sent now to terminals of his units through the console service, per-terminal states
  messList: { method: 'POST', path: '/rest/gis/gismessage/messlist', auth: menu(MenuId.MSG_MANAGE, 'view'), body: MessListRequest, data: pageOf(PushMessage) },
  messAdd: { method: 'POST', path: '/rest/gis/gismessage/add', auth: menu(MenuId.MSG_MANAGE, 'add'), body: MessageAddRequest, data: PushMessage },
  /** the stored message, to edit it */
  messEdit: { method: 'POST', path: '/rest/gis/gismessage/edit', auth: menu(MenuId.MSG_MANAGE, 'edit'), body: MessageIdRequest, data: PushMessage },
  messSaveEdit: { method: 'POST', path: '/rest/gis/gismessage/saveEdit', auth: menu(MenuId.MSG_MANAGE, 'edit'), body: MessageSaveEditRequest, data: PushMessage },
  messDelete: { method: 'POST', path: '/rest/gis/gismessage/del', auth: menu(MenuId.MSG_MANAGE, 'edit'), body: MessageDelRequest, data: z.null() },
  messSendList: { method: 'POST', path: '/rest/gis/gismessagesend/sendlist', auth: menu(MenuId.MSG_MANAGE, 'view'), body: SendListRequest, data: pageOf(PushSend) },
  messSend: { method: 'POST', path: '/rest/gis/gismessagesend/send', auth: menu(MenuId.MSG_MANAGE, 'add'), body: SendRequest, data: PushSend },
  /** the terminals of one send with their delivery and read states */
  messRecipients: { method: 'POST', path: '/rest/gis/gismessagesendlist/messglist', auth: menu(MenuId.MSG_MANAGE, 'view'), body: MessgListRequest, data: pageOf(PushRecipient) },

  /** MapLibre style the console loads (online source, our tiles, or the built-in basemap) */
  mapStyle: { method: 'GET', path: '/rest/map/style', auth: session, file: true, query: MapStyleQuery },
  mapInfo: { method: 'GET', path: '/rest/map/info', auth: session, data: MapInfoAnswer },
  /** tiles of the uploaded PMTiles/MBTiles file (`/rest/map/tiles/{z}/{x}/{y}` in the style) */
  mapTile: { method: 'GET', path: '/rest/map/tiles/:z/:x/:y', auth: session, file: true },
  /** built-in basemap layer as GeoJSON (`land` | `countries`) */
  mapBasemap: { method: 'GET', path: '/rest/map/basemap/:name', auth: session, file: true },
  /** built-in basemap as Mapbox vector tiles (gzip), `BASEMAP_TILE_LAYERS`, zoom 0 to `BASEMAP_TILE_MAXZOOM` */
  mapBasemapTile: { method: 'GET', path: '/rest/map/basemap/tiles/:z/:x/:y', auth: session, file: true },
  mapUpload: { method: 'POST', path: '/rest/map/upload', auth: menu(MenuId.DISPATCH_CONFIG, 'edit'), encoding: 'multipart', data: MapFileInfo },
  mapFileDelete: { method: 'POST', path: '/rest/map/del', auth: menu(MenuId.DISPATCH_CONFIG, 'edit'), data: z.null() },
  /** reverse geocoding with cache (AddressLocation) */
  mapGeocode: { method: 'GET', path: '/rest/map/geocode', auth: session, query: GeocodeQuery, data: GeocodeAnswer },
  geocodeSettingsGet: { method: 'GET', path: '/rest/map/geocode_settings_get', auth: menu(MenuId.DISPATCH_CONFIG, 'view'), data: GeocodeSettings },
  geocodeSettingsUpdate: { method: 'POST', path: '/rest/map/geocode_settings_update', auth: menu(MenuId.DISPATCH_CONFIG, 'edit'), body: GeocodeSettings, data: z.null() },

  // evidence (issue 15; schemas/evidence.ts). Uploads are tus at UPLOAD_PATH / DEVICE_UPLOAD_PATH /
  // WORKSTATION_UPLOAD_PATH (not JSON routes, see schemas/evidence.ts); files are served at signed
  // addresses (`/media/evidence/...?token=`), with byte ranges
  mediaList: { method: 'POST', path: '/rest/media/media/get', auth: evidence('view'), body: MediaSearchRequest, data: MediaListAnswer },
  /** the item with a signed play address and its revisions; audited as viewed */
  mediaView: { method: 'POST', path: '/rest/media/mediaview/get', auth: evidence('view'), body: MediaIdRequest, data: MediaDetail },
  mediaFlag: { method: 'POST', path: '/rest/media/mediaflg_edit', auth: evidence('edit'), body: MediaFlagRequest, data: MediaItem },
  /** the marks of the checked items, to fill the bulk mark dialog (items outside the scope are left out) */
  mediaFlagAllGet: { method: 'POST', path: '/rest/media/media/flg_all_get', auth: evidence('view'), body: MediaIdsRequest, data: z.array(MediaFlagState) },
  mediaFlagAll: { method: 'POST', path: '/rest/media/media/flg_all_update', auth: evidence('edit'), body: MediaFlagAllRequest, data: MediaBulkAnswer },
  /** revise title, description, category, incident number; the original file is untouched */
  mediaRevise: { method: 'POST', path: '/rest/media/media_revise', auth: evidence('edit'), body: MediaReviseRequest, data: MediaItem },
  mediaRevisions: { method: 'POST', path: '/rest/mediarevise/filerevise/get', auth: evidence('view'), body: MediaIdRequest, data: z.array(MediaRevision) },
  /** the values the checked items share, to fill the bulk edit dialog */
  mediaEditAllGet: { method: 'POST', path: '/rest/media/media/edit_all_get', auth: evidence('view'), body: MediaIdsRequest, data: MediaEditAllValues },
  mediaEditAll: { method: 'POST', path: '/rest/media/media/edit_all_update', auth: evidence('edit'), body: MediaEditAllRequest, data: MediaBulkAnswer },
  /** soft delete with a reason: to /data/edit/deleted for EVIDENCE_RECOVERY_DAYS */
  mediaDelete: { method: 'POST', path: '/rest/media/media/del_all_update', auth: evidence('edit'), body: MediaDeleteRequest, data: MediaBulkAnswer },
  mediaRevert: { method: 'POST', path: '/rest/mediarevise/mediadel/revert', auth: menu(MenuId.DELETED_MEDIA, 'edit'), body: MediaIdsRequest, data: MediaBulkAnswer },
  /** permanent removal after the recovery window: its own permission, add on 10272 */
  mediaHardDelete: { method: 'POST', path: '/rest/mediarevise/mediadel/harddel', auth: menu(MenuId.DELETED_MEDIA, 'add'), body: MediaIdsRequest, data: MediaBulkAnswer },
  /** /data/edit/record: revisions and deletions */
  mediaEditRecord: { method: 'POST', path: '/rest/mediarevise/filerevise/view', auth: menu(MenuId.EDIT_RECORD, 'view'), body: EditRecordQuery, data: pageOf(EditRecordEntry) },
  mediaGps: { method: 'POST', path: '/rest/media/gps', auth: evidence('view'), body: MediaIdRequest, data: MediaGpsAnswer },
  /** a signed download address; the file's hash is verified again when it is fetched */
  mediaDownload: { method: 'POST', path: '/rest/media/mediadown', auth: evidence('view'), body: MediaIdRequest, data: MediaDownloadAnswer },
  /** a signed address of one zip of many originals (each hashed again while it streams) with manifest.csv */
  mediaDownloadAll: { method: 'POST', path: '/rest/media/mediadownload/download_all', auth: evidence('view'), body: MediaIdsRequest, data: MediaDownloadAllAnswer },
  /** the item's chain of custody and whether it verifies */
  mediaCustody: { method: 'POST', path: '/rest/media/checkrecord/view', auth: evidence('view'), body: MediaIdRequest, data: CustodyAnswer },

  // retention (issue 15 section 4; schemas/retention.ts): the policy and preview on 10272 view,
  // changes and a run now on 10272 edit. Sensitive words: 10462
  retentionGet: { method: 'POST', path: '/rest/mediarevise/retention/get', auth: menu(MenuId.DELETED_MEDIA, 'view'), data: RetentionPolicy },
  retentionUpdate: { method: 'POST', path: '/rest/mediarevise/retention/update', auth: menu(MenuId.DELETED_MEDIA, 'edit'), body: RetentionUpdateRequest, data: RetentionPolicy },
  /** items due within the next N days, listed before the job acts */
  retentionPreview: { method: 'POST', path: '/rest/mediarevise/retention/preview', auth: menu(MenuId.DELETED_MEDIA, 'view'), body: RetentionPreviewRequest, data: pageOf(RetentionDueItem) },
  retentionRun: { method: 'POST', path: '/rest/mediarevise/retention/run', auth: menu(MenuId.DELETED_MEDIA, 'edit'), data: RetentionRunAnswer },
  sensitiveWordList: { method: 'POST', path: '/rest/system/sensitiveword/get', auth: menu(MenuId.SENSITIVE_WORDS, 'view'), body: SensitiveWordListRequest, data: pageOf(SensitiveWord) },
  sensitiveWordAdd: { method: 'POST', path: '/rest/system/sensitiveword/add', auth: menu(MenuId.SENSITIVE_WORDS, 'add'), body: SensitiveWordAddRequest, data: SensitiveWord },
  sensitiveWordEdit: { method: 'POST', path: '/rest/system/sensitiveword/edit', auth: menu(MenuId.SENSITIVE_WORDS, 'edit'), body: SensitiveWordEditRequest, data: SensitiveWord },
  sensitiveWordDelete: { method: 'POST', path: '/rest/system/sensitiveword/del', auth: menu(MenuId.SENSITIVE_WORDS, 'edit'), body: SensitiveWordDeleteRequest, data: z.object({ deleted: z.number().int() }) },
  /** the custody report of one item (metadata, sha256, chain check, every entry) as PDF or .xlsx */
  mediaCustodyExport: { method: 'GET', path: '/rest/media/checkrecord/export', auth: evidence('view'), file: true, query: CustodyExportQuery },
  // scores and random checks (issue 15 sections 2 and 5; schemas/review.ts): reading scores needs
  // view on a library menu, scoring edit (supervisors); checks: 10231 draw (add), result (edit); 10232 records
  mediaScoreGet: { method: 'POST', path: '/rest/media/media_score_get', auth: evidence('view'), body: MediaIdRequest, data: MediaScoreAnswer },
  mediaScoreUpdate: { method: 'POST', path: '/rest/media/media_score_update', auth: evidence('edit'), body: MediaScoreUpdate, data: MediaScoreAnswer },
  videoScore: { method: 'POST', path: '/rest/media/videoscore', auth: evidence('edit'), body: VideoScoreQuery, data: pageOf(VideoScoreRow) },
  /** rubrics (/data/peerreview/review 10261): every version; a new one; a change (a new version when scored); the active one */
  rubricList: { method: 'POST', path: '/rest/media/rubric_get', auth: menu(MenuId.PEER_REVIEW, 'view'), data: z.array(RubricVersion) },
  rubricAdd: { method: 'POST', path: '/rest/media/rubric_add', auth: menu(MenuId.PEER_REVIEW, 'add'), body: RubricAddRequest, data: RubricVersion },
  rubricEdit: { method: 'POST', path: '/rest/media/rubric_edit', auth: menu(MenuId.PEER_REVIEW, 'edit'), body: RubricEditRequest, data: RubricVersion },
  rubricActive: { method: 'POST', path: '/rest/media/rubric_active', auth: menu(MenuId.PEER_REVIEW, 'edit'), body: RubricIdRequest, data: RubricVersion },
  checkDraw: { method: 'POST', path: '/rest/media/checkrandom/draw', auth: menu(MenuId.CHECK_RANDOM, 'add'), body: CheckDrawRequest, data: CheckBatchDetail },
  checkBatch: { method: 'POST', path: '/rest/media/checkrandom/get', auth: anyMenu('view', MenuId.CHECK_RANDOM, MenuId.CHECK_RECORD), body: CheckBatchIdRequest, data: CheckBatchDetail },
  checkResult: { method: 'POST', path: '/rest/media/checkrandom/result', auth: menu(MenuId.CHECK_RANDOM, 'edit'), body: CheckResultRequest, data: CheckItem },
  checkRecords: { method: 'POST', path: '/rest/media/checkrecord/get', auth: menu(MenuId.CHECK_RECORD, 'view'), body: CheckRecordQuery, data: pageOf(CheckBatch) },

  // history replay (issue 15 section 2; schemas/playback.ts): a device's recordings on a timeline,
  // through the library (custody, revisions, signed addresses)
  replayDevices: { method: 'POST', path: '/rest/monitor/videoreplay/get', auth: replay('view'), body: PlaybackDeviceQuery, data: z.array(PlaybackDevice) },
  replaySearch: { method: 'POST', path: '/rest/monitor/videoreplay/search', auth: replay('view'), body: PlaybackSearchRequest, data: PlaybackSearchAnswer },
  /** the item with a signed play address; custody viewed */
  replayInfo: { method: 'POST', path: '/rest/monitor/videoreplay/getinfo', auth: replay('view'), body: PlaybackIdRequest, data: PlaybackInfo },
  replaySave: { method: 'POST', path: '/rest/monitor/videoreplay/saveinfo', auth: replay('edit'), body: PlaybackSaveRequest, data: MediaItem },
  replayDownload: { method: 'POST', path: '/rest/monitor/videoreplay/mediadown', auth: replay('view'), body: PlaybackIdRequest, data: MediaDownloadAnswer },
  mediafileSearch: { method: 'POST', path: '/rest/gis/mediafile/search', auth: dispatchReplay('view'), body: PlaybackSearchRequest, data: PlaybackSearchAnswer },
  /** recordings as spans and the devices' alarms as moments */
  mediafileMarks: { method: 'POST', path: '/rest/gis/mediafile/history_mark', auth: dispatchReplay('view'), body: PlaybackSearchRequest, data: PlaybackMarksAnswer },
  mediafileDownload: { method: 'POST', path: '/rest/gis/mediafile/media_down', auth: dispatchReplay('view'), body: PlaybackIdRequest, data: MediaDownloadAnswer },
  playbackInfo: { method: 'POST', path: '/rest/gis/playback/info_play', auth: dispatchReplay('view'), body: PlaybackIdRequest, data: PlaybackInfo },
  playbackFlag: { method: 'POST', path: '/rest/gis/playback/mediaflg_edit', auth: dispatchReplay('edit'), body: PlaybackFlagRequest, data: MediaItem },

  // access to other units' items and external share links (issue 15 section 4; schemas/access.ts).
  // Requests: 'view' on a library menu; approvals and share links: 'edit' on one (and the unit in scope)
  accessFromList: { method: 'POST', path: '/rest/media/accessfrom/get', auth: evidence('view'), body: AccessListRequest, data: AccessRequestPage },
  accessUnits: { method: 'POST', path: '/rest/media/accessfrom/units', auth: evidence('view'), body: z.object({}), data: z.array(AccessUnit) },
  accessFromAdd: { method: 'POST', path: '/rest/media/accessfrom/add', auth: evidence('view'), body: AccessAddRequest, data: AccessRequest },
  /** withdraw a request (an approved one ends its grant) */
  accessFromDel: { method: 'POST', path: '/rest/media/accessfrom/del', auth: evidence('view'), body: AccessIdRequest, data: AccessRequest },
  accessFromView: { method: 'POST', path: '/rest/media/accessfrom/view', auth: evidence('view'), body: AccessIdRequest, data: AccessDetail },
  accessToList: { method: 'POST', path: '/rest/media/accessto/get', auth: evidence('edit'), body: AccessListRequest, data: AccessRequestPage },
  /** approve with an expiry (custody 'shared' on every granted item) or refuse */
  accessToSave: { method: 'POST', path: '/rest/media/accessto/appsave', auth: evidence('edit'), body: AccessDecideRequest, data: AccessRequest },
  accessToView: { method: 'POST', path: '/rest/media/accessto/view', auth: evidence('edit'), body: AccessIdRequest, data: AccessDetail },
  shareAdd: { method: 'POST', path: '/rest/media/share/add', auth: evidence('edit'), body: ShareAddRequest, data: ShareAddAnswer },
  shareList: { method: 'POST', path: '/rest/media/share/get', auth: evidence('edit'), body: ShareListRequest, data: ShareLinkPage },
  shareRevoke: { method: 'POST', path: '/rest/media/share/revoke', auth: evidence('edit'), body: AccessIdRequest, data: ShareLink },
  /** the public share page's call (no login): the link's items with short-lived signed addresses */
  shareOpen: { method: 'POST', path: '/rest/share/open', auth: pub, body: ShareOpenRequest, data: ShareOpenAnswer },

  // incidents, cases, law-enforcement files (issue 15 section 3; schemas/cases.ts). Incidents,
  // violations and incident files: 10221 (lawDoc); cases and case files: 10223 (case)
  incidentAdd: { method: 'POST', path: '/rest/yw/jingqing/add', auth: menu(ArchiveMenu.LAW_DOC, 'add'), body: IncidentAddRequest, data: CaseRecord },
  incidentCancel: { method: 'POST', path: '/rest/yw/jingqing/cancel', auth: menu(ArchiveMenu.LAW_DOC, 'edit'), body: CaseCancelRequest, data: CaseRecord },
  incidentList: { method: 'POST', path: '/rest/yw/jingqing/zfgd_list', auth: menu(ArchiveMenu.LAW_DOC, 'view'), body: CaseListRequest, data: pageOf(CaseRecord) },
  incidentMediaWrite: { method: 'POST', path: '/rest/yw/jingqing/mediaview_write', auth: menu(ArchiveMenu.LAW_DOC, 'edit'), body: CaseMediaWriteRequest, data: CaseMediaWriteAnswer },
  incidentMedia: { method: 'POST', path: '/rest/yw/jingqing/mediaview_relation', auth: menu(ArchiveMenu.LAW_DOC, 'view'), body: CaseIdRequest, data: CaseMediaAnswer },
  /** the terminals the incident was sent to, with delivery */
  incidentSendList: { method: 'POST', path: '/rest/yw/jingqing/sendlist', auth: menu(ArchiveMenu.LAW_DOC, 'view'), body: CaseIdRequest, data: z.array(IncidentSend) },
  /** send the incident to terminals as a console-service instant message */
  incidentSend: { method: 'POST', path: '/rest/yw/jingqing/jingqingsend', auth: menu(ArchiveMenu.LAW_DOC, 'edit'), body: IncidentSendRequest, data: IncidentSendAnswer },
  caseAdd: { method: 'POST', path: '/rest/yw/anjian/add', auth: menu(ArchiveMenu.CASE, 'add'), body: CaseAddRequest, data: CaseRecord },
  caseCancel: { method: 'POST', path: '/rest/yw/anjian/cancel', auth: menu(ArchiveMenu.CASE, 'edit'), body: CaseCancelRequest, data: CaseRecord },
  caseList: { method: 'POST', path: '/rest/yw/anjian/zfgd_list', auth: menu(ArchiveMenu.CASE, 'view'), body: CaseListRequest, data: pageOf(CaseRecord) },
  caseMediaWrite: { method: 'POST', path: '/rest/yw/anjian/mediaview_write', auth: menu(ArchiveMenu.CASE, 'edit'), body: CaseMediaWriteRequest, data: CaseMediaWriteAnswer },
  caseMedia: { method: 'POST', path: '/rest/yw/anjian/mediaview_relation', auth: menu(ArchiveMenu.CASE, 'view'), body: CaseIdRequest, data: CaseMediaAnswer },
  violationList: { method: 'POST', path: '/rest/yw/violation/zfgd_list', auth: menu(ArchiveMenu.LAW_DOC, 'view'), body: ViolationListRequest, data: pageOf(CaseRecord) },
  violationAdd: { method: 'POST', path: '/rest/yw/violation/add', auth: menu(ArchiveMenu.LAW_DOC, 'add'), body: ViolationAddRequest, data: CaseRecord },
  violationCancel: { method: 'POST', path: '/rest/yw/violation/cancel', auth: menu(ArchiveMenu.LAW_DOC, 'edit'), body: CaseCancelRequest, data: CaseRecord },
  /** `{id, reason}`: the handling result */
  violationClose: { method: 'POST', path: '/rest/yw/violation/close', auth: menu(ArchiveMenu.LAW_DOC, 'edit'), body: CaseCancelRequest, data: CaseRecord },
  violationMediaWrite: { method: 'POST', path: '/rest/yw/violation/mediaview_write', auth: menu(ArchiveMenu.LAW_DOC, 'edit'), body: CaseMediaWriteRequest, data: CaseMediaWriteAnswer },
  violationMedia: { method: 'POST', path: '/rest/yw/violation/mediaview_relation', auth: menu(ArchiveMenu.LAW_DOC, 'view'), body: CaseIdRequest, data: CaseMediaAnswer },
  violationOfficers: { method: 'POST', path: '/rest/yw/violation/officers', auth: menu(ArchiveMenu.LAW_DOC, 'view'), body: ViolationOfficersRequest, data: z.array(ViolationOfficer) },
  // case samples (典型案例): 10224 (/data/archive/sample)
  sampleAdd: { method: 'POST', path: '/rest/yw/anjian/sample_add', auth: menu(ArchiveMenu.SAMPLE, 'add'), body: SampleAddRequest, data: CaseSample },
  sampleDel: { method: 'POST', path: '/rest/yw/anjian/sample_del', auth: menu(ArchiveMenu.SAMPLE, 'edit'), body: CaseIdRequest, data: z.null() },
  sampleList: { method: 'POST', path: '/rest/yw/anjian/sample_list', auth: menu(ArchiveMenu.SAMPLE, 'view'), body: SampleListRequest, data: pageOf(CaseSample) },
  sampleMedia: { method: 'POST', path: '/rest/yw/anjian/sample_media', auth: menu(ArchiveMenu.SAMPLE, 'view'), body: CaseIdRequest, data: CaseMediaAnswer },
  /** files of `kind`; the server checks that kind's menu (incident 10221, case 10223) */
  archiveList: { method: 'POST', path: '/rest/yw/zfda/get', auth: anyMenu('view', ArchiveMenu.LAW_DOC, ArchiveMenu.CASE), body: ArchiveListRequest, data: pageOf(CaseRecord) },
  archiveGet: { method: 'POST', path: '/rest/yw/zfda/get_by_id', auth: anyMenu('view', ArchiveMenu.LAW_DOC, ArchiveMenu.CASE), body: CaseIdRequest, data: ArchiveFile },
  archiveEdit: { method: 'POST', path: '/rest/yw/zfda/edit', auth: anyMenu('edit', ArchiveMenu.LAW_DOC, ArchiveMenu.CASE), body: ArchiveEditRequest, data: CaseRecord },

  // alarms (schemas/alarms.ts). The bell's calls need view on 10104 or 10154 (`bell`), its list
  // the mode's own menu; history and acknowledgement per mode: dispatch 10104, GB 10154. The
  // sound settings are for every console.
  alarmSettings: { method: 'GET', path: '/rest/system/alarm/setting', auth: session, data: AlarmSoundSettings },
  alarmIsAlarm: { method: 'GET', path: '/rest/system/alarm/is_alarm', auth: bell, data: IsAlarmResponse },
  /** bell list, dispatch mode */
  alarmList: { method: 'GET', path: '/rest/system/alarm/get', auth: menu(MenuId.DISPATCH_ALARM, 'view'), data: AlarmListResponse },
  /** bell list, GB mode (same answer) */
  alarmLight: { method: 'GET', path: '/rest/monitor/alarmhistory/alarmlight', auth: menu(MenuId.MONITOR_ALARM, 'view'), data: AlarmListResponse },
  /** mark read for the caller `{ids: [{id, eid}]}` */
  alarmRead: { method: 'POST', path: '/rest/system/alarm/read', auth: bell, body: AlarmReadRequest, data: AlarmChanged },
  alarmReadAll: { method: 'POST', path: '/rest/system/alarm/read_all', auth: bell, data: AlarmChanged },
  alarmPosition: { method: 'POST', path: '/rest/system/alarm/position', auth: bell, body: AlarmPositionRequest, data: z.array(AlarmPosition) },
  /** GB mode's locate: a refusal names 10154 */
  alarmGbPosition: { method: 'POST', path: '/rest/monitor/alarmhistory/position', auth: anyMenu('view', MenuId.MONITOR_ALARM, MenuId.DISPATCH_ALARM), body: AlarmGbPositionRequest, data: AlarmGbPositionResponse },
  alarmCategories: { method: 'GET', path: '/rest/gis/alarmhis/alermcate', auth: bell, data: z.array(AlarmCategory) },
  alarmSearch: { method: 'POST', path: '/rest/gis/alarmhis/search', auth: menu(MenuId.DISPATCH_ALARM, 'view'), body: AlarmSearchRequest, data: pageOf(Alarm) },
  alarmGbSearch: { method: 'POST', path: '/rest/monitor/alarmhistory/search', auth: menu(MenuId.MONITOR_ALARM, 'view'), body: AlarmSearchRequest, data: pageOf(Alarm) },
  alarmExport: { method: 'GET', path: '/rest/gis/alarmhis/export', auth: menu(MenuId.DISPATCH_ALARM, 'view'), file: true, query: AlarmExportQuery },
  alarmGbExport: { method: 'GET', path: '/rest/monitor/alarmhistory/export', auth: menu(MenuId.MONITOR_ALARM, 'view'), file: true, query: AlarmExportQuery },
  alarmSure: { method: 'POST', path: '/rest/system/alarm/sure_alarm', auth: menu(MenuId.DISPATCH_ALARM, 'edit'), body: AlarmSureRequest, data: AlarmChanged },
  alarmGbSure: { method: 'POST', path: '/rest/monitor/alarmhistory/sure_alarm', auth: menu(MenuId.MONITOR_ALARM, 'edit'), body: AlarmSureRequest, data: AlarmChanged },
  /** acknowledge every visible unacknowledged alarm (GET as the spec shows; audited) */
  alarmSureAll: { method: 'GET', path: '/rest/system/alarm/sure_all_alarm', auth: menu(MenuId.DISPATCH_ALARM, 'edit'), query: AlarmSureAllQuery, data: AlarmChanged },
  /** the same for GB mode (AlarmHistory, 10154 edit; the spec shows only the dispatch path) */
  alarmGbSureAll: { method: 'GET', path: '/rest/monitor/alarmhistory/sure_all_alarm', auth: menu(MenuId.MONITOR_ALARM, 'edit'), query: AlarmSureAllQuery, data: AlarmChanged },
  alarmPic: { method: 'GET', path: '/rest/mini/rtcapt/alarm_pic', auth: menu(MenuId.FACE_ALARM, 'view'), query: AlarmPicQuery, data: AlarmPicResponse },
  /** alarm pictures under web_root (`/rest/mini/rtcapt/file/<name>`) */
  alarmPicFile: { method: 'GET', path: '/rest/mini/rtcapt/file/:name', auth: session, file: true },
  /** AI engine results (face / plate) with pictures: `Authorization: Bearer <AI engine token>` */
  aiAlarm: { method: 'POST', path: '/rest/ai/engine/alarm', auth: pub, body: AiAlarmRequest, data: AiAlarmResponse },
} as const satisfies Record<string, EndpointDef>;

export type ApiName = keyof typeof Api;
type Def<N extends ApiName> = (typeof Api)[N];
/** Endpoints answering an envelope (`call()` on the console) and those answering a file (`download()`). */
export type JsonApiName = { [N in ApiName]: Def<N> extends { data: z.ZodType } ? N : never }[ApiName];
export type FileApiName = Exclude<ApiName, JsonApiName>;

/** What the handler receives: the parsed POST body (zod output), `undefined` without a body schema. */
export type ApiBody<N extends ApiName> = Def<N> extends { body: infer S extends z.ZodType } ? z.output<S> : undefined;
/** What the handler receives: the parsed query string (zod output), `undefined` without a query schema. */
export type ApiQuery<N extends ApiName> = Def<N> extends { query: infer S extends z.ZodType } ? z.output<S> : undefined;
/** What a handler may return as `data` (zod input: the schema serialises it). */
export type ApiDataInput<N extends ApiName> = Def<N> extends { data: infer S extends z.ZodType } ? z.input<S> : never;
/** The `data` a caller receives (zod output of the answer schema). */
export type ApiData<N extends ApiName> = Def<N> extends { data: infer S extends z.ZodType } ? z.output<S> : never;
/**
 * What a caller sends: the body (POST) or the query (GET) before validation; multipart endpoints
 * take their fields and files as they are; endpoints without input take nothing.
 */
export type ApiInput<N extends ApiName> =
  Def<N> extends { encoding: 'multipart' }
    ? Record<string, unknown> | FormData
    : Def<N> extends { body: infer S extends z.ZodType }
      ? z.input<S>
      : Def<N> extends { query: infer S extends z.ZodType }
        ? z.input<S>
        : Record<string, never> | undefined;

/**
 * Whether a caller with these menu permissions passes an auth rule: the server's rule, read by
 * the console to hide what would be refused (`admin` needs the account flag, which the console
 * passes as `isAdmin`). Unit scope is the server's alone.
 */
export function allows(perms: PermissionMap | undefined, rule: EndpointAuth, isAdmin = false): boolean {
  switch (rule.kind) {
    case 'public':
    case 'session':
      return true;
    case 'admin':
      return isAdmin;
    case 'menu':
      return can(perms, rule.menu, rule.action);
    case 'anyMenu':
      return rule.menus.some((menu) => can(perms, menu, rule.action));
  }
}

/** The endpoint name of a path (operation log `action`), undefined for unknown paths. */
export function apiNameOfPath(path: string): ApiName | undefined {
  return (Object.keys(Api) as ApiName[]).find((name) => Api[name].path === path);
}
