import { z } from 'zod';
import { IdInput, pageOf, PageQuery } from './envelope';
import { Alarm } from './schemas/alarm-record';
import {
  AiAlarmRequest,
  AiAlarmResponse,
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
  LiveStopped,
  MediaGatewayInfo,
  MediaKickRequest,
} from './schemas/live';
import { LivePlay } from './schemas/live-stream';
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
import { Routes, type EndpointRoute, type RouteName } from './routes';

/** The input and answer schemas of one endpoint; its path, method and auth rule are its route (routes.ts). */
interface EndpointSchemas {
  /** schema of the POST body (the server validates with it, the console's `call()` types its input) */
  body?: z.ZodType;
  /** schema of the query string */
  query?: z.ZodType;
  /** schema of the success envelope's `data`: the server serialises with it, the console's `call()` types its answer */
  data?: z.ZodType;
}

/**
 * One endpoint: its route (method, path, auth rule, encoding), its input schemas, and either `data`
 * (the answer's schema) or `file: true` (the answer is a file; errors still come as envelopes).
 */
export type EndpointDef = EndpointRoute &
  Omit<EndpointSchemas, 'data'> &
  ({ data: z.ZodType; file?: undefined } | { file: true; data?: undefined });

/** A route answering an envelope must name its answer's schema; a file route has none. */
type SchemasOf<R extends EndpointRoute> = R extends { file: true }
  ? Omit<EndpointSchemas, 'data'>
  : EndpointSchemas & { data: z.ZodType };

/** The schemas of every route of routes.ts, in the same order; a route missing here does not compile. */
// prettier-ignore
const schemas = {
  // login, session, licence (spec part 1 section 7)
  loginGet: { data: LoginPageInfo },
  login: { body: LoginRequest, data: LoginResult },
  logout: { data: z.null() },
  pageInfo: { data: PageInfo },
  background: {},
  serverVersion: { data: ServerVersion },
  home: { data: HomeData },
  registration: { data: RegistrationStatus },
  versionInfo: { data: VersionInfo },
  register: { body: RegisterRequest, data: RegistrationStatus },
  heartbeatCreate: { data: HeartbeatResult },
  heartbeatCheck: { data: HeartbeatResult },
  userInfo: { data: UserInfo },
  userContext: { data: UserContext },
  changePassword: { body: ChangePasswordRequest, data: z.null() },

  // system settings (systerm_auth: menu 10002; dispatch config: menu 10003); the server picks the
  // menu from the settings type, these entries name the stricter default
  settingsGet: { query: SettingsTypeInput, data: SettingsAnswer },
  settingsUpdate: { body: SettingsTypeInput.loose(), data: SettingsAnswer },
  playGet: { data: PlayConfig },
  playUpdate: { body: PlayConfig, data: PlayConfig },
  uploadBackground: { data: SettingsSchemas.backset },
  mapConfig: { data: MapConfig },
  // GB player (spec part 2 sections 5 and 7.2; schemas/gb28181.ts): its configuration for the GB
  // monitor screens, and whether the signed-in user can be used for GB
  gbConfig: { data: GbPlayerConfig },
  gbCheckUser: { data: GbUserCheck },
  gbStatus: { data: GbPlatformStatus },
  // GB devices (issue 16; schemas/gb28181.ts): the GB equipment tree and a device's detail for the
  // monitor screens, PTZ and presets, the device's recordings (RecordInfo), the admins' device list.
  // Unit-scoped by the device's unit.
  gbDeviceTree: { body: GbDeviceTreeRequest, data: z.array(GbTreeNode) },
  gbDeviceDetail: { body: GbDetailRequest, data: GbDeviceDetail },
  gbPtz: { body: GbPtzRequest, data: z.null() },
  gbPlay: { body: GbPlayRequest, data: GbPlayAnswer },
  gbPlaybackControl: { body: GbPlaybackControlRequest, data: z.null() },
  gbRecordSearch: { body: GbRecordSearchRequest, data: z.array(GbRecording) },
  gbDevicePoints: { body: GbPointsRequest, data: GbPointsAnswer },
  gbDeviceList: { query: GbDeviceListQuery, data: pageOf(GbDevice) },
  gbDeviceUpdate: { body: GbDeviceUpdateRequest, data: GbDevice },
  gbDeviceRefresh: { body: GbDeviceRefreshRequest, data: GbDevice },

  // announcements
  announceList: { body: AnnounceListQuery, data: pageOf(Announcement) },
  announceGetById: { query: IdInput, data: Announcement },
  announcePublished: { query: PageQuery, data: pageOf(Announcement) },
  announceAdd: { body: AnnounceAddRequest, data: Announcement },
  announceUpdateGet: { body: IdInput, data: Announcement },
  announceUpdatePost: { body: AnnounceUpdateRequest, data: Announcement },
  announceDelete: { body: IdsRequest, data: z.null() },
  announcePublish: { body: IdsRequest, data: z.null() },

  // downloads
  downloadList: { query: DownloadListQuery, data: pageOf(DownloadEntry) },
  downloadCenter: { data: z.array(DownloadEntry) },
  downloadFile: { query: IdInput },
  downloadAdd: { data: DownloadEntry },
  downloadUpdate: { data: DownloadEntry },
  downloadDelete: { body: IdsRequest, data: z.null() },
  downloadIsIndex: { body: IsIndexRequest, data: DownloadEntry },

  // organisation: units, unit trees, accounts, online users, roles, operation log,
  // data dictionary. Every one is unit-scoped on the server.
  unitGet: { query: UnitListQuery, data: z.array(Unit) },
  unitAdd: { body: UnitAddRequest, data: IdInput },
  unitUpdate: { body: UnitUpdateRequest, data: z.null() },
  unitMove: { body: UnitMoveRequest, data: z.null() },
  unitDelete: { body: UnitDeleteRequest, data: z.null() },
  unitByCode: { body: UnitByCodeRequest, data: UnitInfo },
  unitTree: { body: UnitTreeRequest, data: z.array(TreeNode) },
  unitTreeDevices: { body: UnitTreeRequest, data: z.array(TreeNode) },
  unitSearch: { body: UnitTreeRequest, data: z.array(TreeNode) },

  accountList: { query: AccountListQuery, data: pageOf(Account) },
  accountAdd: { body: AccountAddRequest, data: IdInput },
  accountUpdate: { body: AccountUpdateRequest, data: z.null() },
  accountStatus: { body: AccountStatusRequest, data: z.null() },
  accountResetPassword: { body: AccountIdRequest, data: z.null() },
  accountDelete: { body: AccountIdRequest, data: z.null() },
  onlineUsers: { query: OnlineUserQuery, data: z.array(OnlineUser) },
  forceOffline: { body: ForceOfflineRequest, data: z.null() },

  roleList: { query: RoleListQuery, data: z.array(Role) },
  roleOptions: { data: z.array(RoleOption) },
  roleAdd: { body: RoleAddRequest, data: IdInput },
  roleUpdate: { body: RoleUpdateRequest, data: z.null() },
  roleDelete: { body: RoleIdRequest, data: z.null() },
  roleAuthGet: { query: RoleIdRequest, data: RoleAuthTree },
  roleAuthUpdate: { body: RoleAuthUpdateRequest, data: z.null() },

  logList: { query: OperationLogQuery, data: pageOf(OperationLogEntry) },
  logExport: { query: OperationLogExportQuery },

  dictTypes: { data: z.array(DictType) },
  dictList: { query: DictListQuery, data: z.array(DictEntry) },
  dictAdd: { body: DictAddRequest, data: IdInput },
  dictUpdate: { body: DictUpdateRequest, data: z.null() },
  dictDelete: { body: DictDeleteRequest, data: z.null() },

  // devices: recorder registry (ops centre), device API, dispatch map calls. Unit-scoped.
  deviceList: { query: DeviceListQuery, data: pageOf(Device) },
  deviceAdd: { body: DeviceAddRequest, data: DeviceWithSecret },
  deviceUpdate: { body: DeviceUpdateRequest, data: Device },
  deviceDelete: { body: DeviceIdRequest, data: z.null() },
  deviceResetSecret: { body: DeviceIdRequest, data: DeviceWithSecret },
  deviceImport: { data: DeviceImportResult },
  deviceImportTemplate: {},
  deviceSettingsGet: { data: DeviceSettings },
  deviceSettingsUpdate: { body: DeviceSettings, data: DeviceSettings },
  modelList: { query: RecorderModelListQuery, data: z.array(RecorderModel) },
  modelAdd: { body: RecorderModelAddRequest, data: IdInput },
  modelUpdate: { body: RecorderModelUpdateRequest, data: z.null() },
  modelDelete: { body: RecorderModelIdRequest, data: z.null() },

  // device API: `public` here, the handler authenticates the DEVICE (bearer device token from
  // deviceLogin, or HTTP Basic hostbody:secret); provision takes the provisioning key
  deviceLogin: { body: DeviceLoginRequest, data: DeviceLoginAnswer },
  devicePositions: { body: PositionBatchRequest, data: PositionBatchAnswer },
  deviceSos: { body: SosRequest, data: SosAnswer },
  deviceState: { body: DeviceStateRequest, data: z.null() },
  deviceCommands: { query: DeviceCommandsQuery, data: z.array(DeviceCommand) },
  deviceCommandAck: { body: DeviceCommandAck, data: z.null() },
  deviceConfig: { data: DeviceApiConfig },
  deviceProvision: { body: ProvisionRequest, data: ProvisionAnswer },

  // docking workstations (issue 15; schemas/workstations.ts): registry (workAdmin 10313) and the
  // workstation API (`public` here, the handler authenticates the station's bearer token)
  workstationList: { query: WorkstationListQuery, data: pageOf(Workstation) },
  workstationAdd: { body: WorkstationAddRequest, data: WorkstationWithSecret },
  workstationUpdate: { body: WorkstationUpdateRequest, data: Workstation },
  workstationDelete: { body: WorkstationIdRequest, data: z.null() },
  workstationResetSecret: { body: WorkstationIdRequest, data: WorkstationWithSecret },
  workstationLogin: { body: WorkstationLoginRequest, data: WorkstationLoginAnswer },
  workstationHeartbeat: { body: WorkstationHeartbeatRequest, data: WorkstationHeartbeatAnswer },
  workstationProvision: { body: WorkstationProvisionRequest, data: WorkstationProvisionAnswer },

  // dispatch map: positions, status and commands (spec part 2 section 7.2 gismoni)
  gisGetPoint: { body: DeviceIdsRequest, data: z.array(DevicePoint) },
  gisDeviceDetail: { body: DeviceIdsRequest, data: z.array(Device) },
  gisUnitDevicePoint: { body: UnitDevicePointRequest, data: z.array(DevicePoint) },
  gisStatus: { body: ImeiRequest, data: DeviceStatus },
  gisSendRestart: { body: SendRestartRequest, data: CommandQueued },
  gisSendCmd: { body: SendCmdRequest, data: CommandQueued },
  gisRemoteKill: { body: RemoteKillRequest, data: RemoteKillAnswer },

  // live video (issue 13; schemas/live.ts): ask a device to publish, get play paths, stop
  liveAdd: { body: LiveAddRequest, data: LivePlay },
  getVideo: { body: GetVideoRequest, data: GetVideoAnswer },
  liveDel: { body: LiveDelRequest, data: LiveStopped },
  liveDelImei: { body: LiveDelRequest, data: LiveStopped },
  liveAllDel: { data: LiveStopped },
  mediaGateway: { data: MediaGatewayInfo },
  mediaKick: { body: MediaKickRequest, data: z.null() },

  // geo: electronic fences and zones (configcenter MapConfig), history track, talk
  // groups of the dispatch map, maps (offline file, tiles, style, basemap, reverse geocoding)
  fenceList: { query: FenceListQuery, data: z.array(Fence) },
  fenceAdd: { body: FenceAddRequest, data: Fence },
  fenceUpdate: { body: FenceUpdateRequest, data: Fence },
  fenceDelete: { body: GeoIdRequest, data: z.null() },
  fenceEvents: { query: FenceEventQuery, data: pageOf(FenceEvent) },
  zoneList: { query: ZoneListQuery, data: z.array(Zone) },
  zoneAdd: { body: ZoneAddRequest, data: Zone },
  zoneUpdate: { body: ZoneUpdateRequest, data: Zone },
  zoneDelete: { body: GeoIdRequest, data: z.null() },

  trackHistory: { body: TrackQuery, data: TrackAnswer },
  trackMarks: { body: TrackMarkQuery, data: TrackMarkAnswer },
  trackExport: { query: TrackExportQuery },

  groupAdd: { body: GroupAddRequest, data: GroupAddAnswer },
  groupFromDevices: { body: GroupFromDevicesRequest, data: GroupFromDevicesAnswer },
  groupEdit: { body: GroupEditRequest, data: z.null() },
  groupGet: { body: GroupIdRequest, data: TalkGroup },
  groupList: { body: GroupListRequest, data: z.array(TalkGroup) },
  groupDelete: { body: GroupIdRequest, data: z.null() },

  // message push (/dispatch/msgManage, 10105; schemas/messages.ts): messages of the caller's
  // units, sent now to terminals of his units through the console service, per-terminal states
  messList: { body: MessListRequest, data: pageOf(PushMessage) },
  messAdd: { body: MessageAddRequest, data: PushMessage },
  messEdit: { body: MessageIdRequest, data: PushMessage },
  messSaveEdit: { body: MessageSaveEditRequest, data: PushMessage },
  messDelete: { body: MessageDelRequest, data: z.null() },
  messSendList: { body: SendListRequest, data: pageOf(PushSend) },
  messSend: { body: SendRequest, data: PushSend },
  messRecipients: { body: MessgListRequest, data: pageOf(PushRecipient) },

  mapStyle: { query: MapStyleQuery },
  mapInfo: { data: MapInfoAnswer },
  mapTile: {},
  mapBasemap: {},
  mapBasemapTile: {},
  mapUpload: { data: MapFileInfo },
  mapFileDelete: { data: z.null() },
  mapGeocode: { query: GeocodeQuery, data: GeocodeAnswer },
  geocodeSettingsGet: { data: GeocodeSettings },
  geocodeSettingsUpdate: { body: GeocodeSettings, data: z.null() },

  // evidence (issue 15; schemas/evidence.ts). Uploads are tus at UPLOAD_PATH / DEVICE_UPLOAD_PATH /
  // WORKSTATION_UPLOAD_PATH (not JSON routes, see schemas/evidence.ts); files are served at signed
  // addresses (`/media/evidence/...?token=`), with byte ranges
  mediaList: { body: MediaSearchRequest, data: MediaListAnswer },
  mediaView: { body: MediaIdRequest, data: MediaDetail },
  mediaFlag: { body: MediaFlagRequest, data: MediaItem },
  mediaFlagAllGet: { body: MediaIdsRequest, data: z.array(MediaFlagState) },
  mediaFlagAll: { body: MediaFlagAllRequest, data: MediaBulkAnswer },
  mediaRevise: { body: MediaReviseRequest, data: MediaItem },
  mediaRevisions: { body: MediaIdRequest, data: z.array(MediaRevision) },
  mediaEditAllGet: { body: MediaIdsRequest, data: MediaEditAllValues },
  mediaEditAll: { body: MediaEditAllRequest, data: MediaBulkAnswer },
  mediaDelete: { body: MediaDeleteRequest, data: MediaBulkAnswer },
  mediaRevert: { body: MediaIdsRequest, data: MediaBulkAnswer },
  mediaHardDelete: { body: MediaIdsRequest, data: MediaBulkAnswer },
  mediaEditRecord: { body: EditRecordQuery, data: pageOf(EditRecordEntry) },
  mediaGps: { body: MediaIdRequest, data: MediaGpsAnswer },
  mediaDownload: { body: MediaIdRequest, data: MediaDownloadAnswer },
  mediaDownloadAll: { body: MediaIdsRequest, data: MediaDownloadAllAnswer },
  mediaCustody: { body: MediaIdRequest, data: CustodyAnswer },

  // retention (issue 15 section 4; schemas/retention.ts): the policy and preview on 10272 view,
  // changes and a run now on 10272 edit. Sensitive words: 10462
  retentionGet: { data: RetentionPolicy },
  retentionUpdate: { body: RetentionUpdateRequest, data: RetentionPolicy },
  retentionPreview: { body: RetentionPreviewRequest, data: pageOf(RetentionDueItem) },
  retentionRun: { data: RetentionRunAnswer },
  sensitiveWordList: { body: SensitiveWordListRequest, data: pageOf(SensitiveWord) },
  sensitiveWordAdd: { body: SensitiveWordAddRequest, data: SensitiveWord },
  sensitiveWordEdit: { body: SensitiveWordEditRequest, data: SensitiveWord },
  sensitiveWordDelete: { body: SensitiveWordDeleteRequest, data: z.object({ deleted: z.number().int() }) },
  mediaCustodyExport: { query: CustodyExportQuery },
  // scores and random checks (issue 15 sections 2 and 5; schemas/review.ts): reading scores needs
  // view on a library menu, scoring edit (supervisors); checks: 10231 draw (add), result (edit); 10232 records
  mediaScoreGet: { body: MediaIdRequest, data: MediaScoreAnswer },
  mediaScoreUpdate: { body: MediaScoreUpdate, data: MediaScoreAnswer },
  videoScore: { body: VideoScoreQuery, data: pageOf(VideoScoreRow) },
  rubricList: { data: z.array(RubricVersion) },
  rubricAdd: { body: RubricAddRequest, data: RubricVersion },
  rubricEdit: { body: RubricEditRequest, data: RubricVersion },
  rubricActive: { body: RubricIdRequest, data: RubricVersion },
  checkDraw: { body: CheckDrawRequest, data: CheckBatchDetail },
  checkBatch: { body: CheckBatchIdRequest, data: CheckBatchDetail },
  checkResult: { body: CheckResultRequest, data: CheckItem },
  checkRecords: { body: CheckRecordQuery, data: pageOf(CheckBatch) },

  // history replay (issue 15 section 2; schemas/playback.ts): a device's recordings on a timeline,
  // through the library (custody, revisions, signed addresses)
  replayDevices: { body: PlaybackDeviceQuery, data: z.array(PlaybackDevice) },
  replaySearch: { body: PlaybackSearchRequest, data: PlaybackSearchAnswer },
  replayInfo: { body: PlaybackIdRequest, data: PlaybackInfo },
  replaySave: { body: PlaybackSaveRequest, data: MediaItem },
  replayDownload: { body: PlaybackIdRequest, data: MediaDownloadAnswer },
  mediafileSearch: { body: PlaybackSearchRequest, data: PlaybackSearchAnswer },
  mediafileMarks: { body: PlaybackSearchRequest, data: PlaybackMarksAnswer },
  mediafileDownload: { body: PlaybackIdRequest, data: MediaDownloadAnswer },
  playbackInfo: { body: PlaybackIdRequest, data: PlaybackInfo },
  playbackFlag: { body: PlaybackFlagRequest, data: MediaItem },

  // access to other units' items and external share links (issue 15 section 4; schemas/access.ts).
  // Requests: 'view' on a library menu; approvals and share links: 'edit' on one (and the unit in scope)
  accessFromList: { body: AccessListRequest, data: AccessRequestPage },
  accessUnits: { body: z.object({}), data: z.array(AccessUnit) },
  accessFromAdd: { body: AccessAddRequest, data: AccessRequest },
  accessFromDel: { body: AccessIdRequest, data: AccessRequest },
  accessFromView: { body: AccessIdRequest, data: AccessDetail },
  accessToList: { body: AccessListRequest, data: AccessRequestPage },
  accessToSave: { body: AccessDecideRequest, data: AccessRequest },
  accessToView: { body: AccessIdRequest, data: AccessDetail },
  shareAdd: { body: ShareAddRequest, data: ShareAddAnswer },
  shareList: { body: ShareListRequest, data: ShareLinkPage },
  shareRevoke: { body: AccessIdRequest, data: ShareLink },
  shareOpen: { body: ShareOpenRequest, data: ShareOpenAnswer },

  // incidents, cases, law-enforcement files (issue 15 section 3; schemas/cases.ts). Incidents,
  // violations and incident files: 10221 (lawDoc); cases and case files: 10223 (case)
  incidentAdd: { body: IncidentAddRequest, data: CaseRecord },
  incidentCancel: { body: CaseCancelRequest, data: CaseRecord },
  incidentList: { body: CaseListRequest, data: pageOf(CaseRecord) },
  incidentMediaWrite: { body: CaseMediaWriteRequest, data: CaseMediaWriteAnswer },
  incidentMedia: { body: CaseIdRequest, data: CaseMediaAnswer },
  incidentSendList: { body: CaseIdRequest, data: z.array(IncidentSend) },
  incidentSend: { body: IncidentSendRequest, data: IncidentSendAnswer },
  caseAdd: { body: CaseAddRequest, data: CaseRecord },
  caseCancel: { body: CaseCancelRequest, data: CaseRecord },
  caseList: { body: CaseListRequest, data: pageOf(CaseRecord) },
  caseMediaWrite: { body: CaseMediaWriteRequest, data: CaseMediaWriteAnswer },
  caseMedia: { body: CaseIdRequest, data: CaseMediaAnswer },
  violationList: { body: ViolationListRequest, data: pageOf(CaseRecord) },
  violationAdd: { body: ViolationAddRequest, data: CaseRecord },
  violationCancel: { body: CaseCancelRequest, data: CaseRecord },
  violationClose: { body: CaseCancelRequest, data: CaseRecord },
  violationMediaWrite: { body: CaseMediaWriteRequest, data: CaseMediaWriteAnswer },
  violationMedia: { body: CaseIdRequest, data: CaseMediaAnswer },
  violationOfficers: { body: ViolationOfficersRequest, data: z.array(ViolationOfficer) },
  // case samples (典型案例): 10224 (/data/archive/sample)
  sampleAdd: { body: SampleAddRequest, data: CaseSample },
  sampleDel: { body: CaseIdRequest, data: z.null() },
  sampleList: { body: SampleListRequest, data: pageOf(CaseSample) },
  sampleMedia: { body: CaseIdRequest, data: CaseMediaAnswer },
  archiveList: { body: ArchiveListRequest, data: pageOf(CaseRecord) },
  archiveGet: { body: CaseIdRequest, data: ArchiveFile },
  archiveEdit: { body: ArchiveEditRequest, data: CaseRecord },

  // alarms (schemas/alarms.ts). The bell's calls need view on 10104 or 10154 (`bell`), its list
  // the mode's own menu; history and acknowledgement per mode: dispatch 10104, GB 10154. The
  // sound settings are for every console.
  alarmSettings: { data: AlarmSoundSettings },
  alarmIsAlarm: { data: IsAlarmResponse },
  alarmList: { data: AlarmListResponse },
  alarmLight: { data: AlarmListResponse },
  alarmRead: { body: AlarmReadRequest, data: AlarmChanged },
  alarmReadAll: { data: AlarmChanged },
  alarmPosition: { body: AlarmPositionRequest, data: z.array(AlarmPosition) },
  alarmGbPosition: { body: AlarmGbPositionRequest, data: AlarmGbPositionResponse },
  alarmCategories: { data: z.array(AlarmCategory) },
  alarmSearch: { body: AlarmSearchRequest, data: pageOf(Alarm) },
  alarmGbSearch: { body: AlarmSearchRequest, data: pageOf(Alarm) },
  alarmExport: { query: AlarmExportQuery },
  alarmGbExport: { query: AlarmExportQuery },
  alarmSure: { body: AlarmSureRequest, data: AlarmChanged },
  alarmGbSure: { body: AlarmSureRequest, data: AlarmChanged },
  alarmSureAll: { query: AlarmSureAllQuery, data: AlarmChanged },
  alarmGbSureAll: { query: AlarmSureAllQuery, data: AlarmChanged },
  alarmPic: { query: AlarmPicQuery, data: AlarmPicResponse },
  alarmPicFile: {},
  aiAlarm: { body: AiAlarmRequest, data: AiAlarmResponse },
} as const satisfies { [N in RouteName]: SchemasOf<(typeof Routes)[N]> };

function withSchemas<R extends Record<string, EndpointRoute>, S extends { [N in keyof R]: EndpointSchemas }>(
  routes: R,
  schemasOf: S,
): { [N in keyof R]: R[N] & S[N] } {
  const joined = {} as { [N in keyof R]: R[N] & S[N] };
  for (const name of Object.keys(routes) as (keyof R)[]) joined[name] = { ...routes[name], ...schemasOf[name] };
  return joined;
}

/** The contract: each route with its schemas. The server validates every request and answer with it. */
export const Api = withSchemas(Routes, schemas);

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
