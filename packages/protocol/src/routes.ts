import { ArchiveMenu, can, EVIDENCE_MENUS, MenuId, type Action, type PermissionMap } from './permissions';

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

/**
 * Where and how an endpoint is called, without its schemas: method, path, auth rule, body encoding,
 * and `file: true` when the answer is a file (errors still come as envelopes). The schemas are
 * joined to each route in `endpoints.ts` (`Api`, with which the server validates every request);
 * the console's API client needs only this table, so its first load does not carry every schema
 * of the contract: a page that validates with a schema imports that schema itself.
 */
export interface EndpointRoute {
  method: 'GET' | 'POST';
  path: string;
  auth: EndpointAuth;
  /** POST body encoding: JSON unless `form` (x-www-form-urlencoded) or `multipart` (read by the handler) */
  encoding?: 'form' | 'multipart';
  file?: true;
}

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
 * evidence library (issue 15): the action on any of EVIDENCE_MENUS (the /data/manage screens, the
 * deleted list, history replay, alarm recordings);
 * the server then checks the menu of the `view` asked for (law 10211, sensitivity 10212, outside
 * 10213, deleted 10272) and the unit scope of every id
 */
const evidence = (action: Action) => anyMenu(action, ...EVIDENCE_MENUS);

/** Paths are absolute; the console prefixes nothing. One line per endpoint: a table (its schemas: endpoints.ts). */
// prettier-ignore
export const Routes = {
  // login, session, licence (spec part 1 section 7)
  loginGet: { method: 'GET', path: '/rest/index/login/get', auth: pub },
  login: { method: 'POST', path: '/rest/index/login/login', auth: pub },
  logout: { method: 'GET', path: '/rest/index/login/logout', auth: pub },
  pageInfo: { method: 'GET', path: '/rest/index/index/get', auth: pub },
  background: { method: 'GET', path: '/rest/index/index/background', auth: pub, file: true },
  serverVersion: { method: 'GET', path: '/rest/index/index/version', auth: pub },
  home: { method: 'GET', path: '/rest/index/index/home', auth: session },
  registration: { method: 'GET', path: '/rest/index/unregistered/get', auth: pub },
  versionInfo: { method: 'GET', path: '/rest/index/unregistered/get_info', auth: admin },
  /** public while unregistered (the login screen's registration step); admin only once registered */
  register: { method: 'POST', path: '/rest/index/unregistered/update', auth: pub },
  heartbeatCreate: { method: 'POST', path: '/rest/index/heartbeat/create', auth: session },
  heartbeatCheck: { method: 'GET', path: '/rest/index/heartbeat/check', auth: session },
  userInfo: { method: 'GET', path: '/rest/user/user/get_info', auth: session },
  userContext: { method: 'GET', path: '/rest/user/user/get_context', auth: session },
  changePassword: { method: 'POST', path: '/rest/user/user/change_password', auth: session, encoding: 'form' },

  // system settings (systerm_auth: menu 10002; dispatch config: menu 10003); the server picks the
  // menu from the settings type, these entries name the stricter default
  settingsGet: { method: 'GET', path: '/rest/system/config/system_get', auth: menu(MenuId.SYSTEM_SETTINGS, 'view') },
  settingsUpdate: { method: 'POST', path: '/rest/system/config/system_update', auth: menu(MenuId.SYSTEM_SETTINGS, 'edit') },
  playGet: { method: 'GET', path: '/rest/system/config/play_get', auth: session },
  playUpdate: { method: 'POST', path: '/rest/system/config/play_update', auth: menu(MenuId.DISPATCH_CONFIG, 'edit') },
  uploadBackground: { method: 'POST', path: '/rest/system/config/upload_background', auth: menu(MenuId.SYSTEM_SETTINGS, 'edit'), encoding: 'multipart' },
  mapConfig: { method: 'GET', path: '/rest/system/config/map_get', auth: session },
  // GB player (spec part 2 sections 5 and 7.2; schemas/gb28181.ts): its configuration for the GB
  // monitor screens, and whether the signed-in user can be used for GB
  gbConfig: { method: 'GET', path: '/rest/monitor/gbconfig/get', auth: anyMenu('view', MenuId.VIDEO_PATROL, MenuId.MONITOR_ALARM, MenuId.PLAYBACK) },
  gbCheckUser: { method: 'POST', path: '/rest/monitor/videopatrols/checkgbuser', auth: session },
  /** whether GB28181 access runs, for the GB settings page (dispatch config) */
  gbStatus: { method: 'GET', path: '/rest/system/config/gb_status', auth: menu(MenuId.DISPATCH_CONFIG, 'view') },
  // GB devices (issue 16; schemas/gb28181.ts): the GB equipment tree and a device's detail for the
  // monitor screens, PTZ and presets, the device's recordings (RecordInfo), the admins' device list.
  // Unit-scoped by the device's unit.
  gbDeviceTree: { method: 'POST', path: '/rest/monitor/videopatrols/getdevice', auth: anyMenu('view', MenuId.VIDEO_PATROL, MenuId.PLAYBACK) },
  gbDeviceDetail: { method: 'POST', path: '/rest/monitor/videopatrols/detaildevice', auth: anyMenu('view', MenuId.VIDEO_PATROL, MenuId.PLAYBACK) },
  gbPtz: { method: 'POST', path: '/rest/monitor/videopatrols/ptz', auth: menu(MenuId.VIDEO_PATROL, 'edit') },
  /** GB live video or playback of a channel: play paths with a 60 s token. Live needs a live menu (like live_add; checked in the handler), playback (start/end) a live menu or history replay's 10152 */
  gbPlay: { method: 'POST', path: '/rest/monitor/videopatrols/gbplay', auth: anyMenu('view', MenuId.EMERGENCY, MenuId.DISPATCH_VIDEO, MenuId.VIDEO_PATROL, MenuId.PLAYBACK) },
  /** pause / resume / seek / speed of a GB playback started by gbplay (MANSRTSP INFO); the playback's menus, and the device's unit in scope */
  gbPlaybackControl: { method: 'POST', path: '/rest/monitor/videoreplay/gbcontrol', auth: anyMenu('view', MenuId.EMERGENCY, MenuId.DISPATCH_VIDEO, MenuId.VIDEO_PATROL, MenuId.PLAYBACK) },
  gbRecordSearch: { method: 'POST', path: '/rest/monitor/videoreplay/gbsearch', auth: anyMenu('view', MenuId.PLAYBACK, MenuId.VIDEO_PATROL) },
  /** GB devices with a known position for the emergency map in GB mode (schemas/gb28181-points.ts) */
  gbDevicePoints: { method: 'POST', path: '/rest/gis/gismoni/gb_points', auth: menu(MenuId.EMERGENCY, 'view') },
  gbDeviceList: { method: 'GET', path: '/rest/oamcenter/gbdevice/list', auth: menu(MenuId.GB_DEVICES, 'view') },
  gbDeviceUpdate: { method: 'POST', path: '/rest/oamcenter/gbdevice/update', auth: menu(MenuId.GB_DEVICES, 'edit') },
  gbDeviceRefresh: { method: 'POST', path: '/rest/oamcenter/gbdevice/refresh', auth: menu(MenuId.GB_DEVICES, 'edit') },

  // announcements
  announceList: { method: 'POST', path: '/rest/system/announce/get', auth: menu(MenuId.ANNOUNCEMENTS, 'view') },
  /** published ones for every user (home, /emegencyNotice); drafts need menu view */
  announceGetById: { method: 'GET', path: '/rest/system/announce/get_by_id', auth: session },
  announcePublished: { method: 'GET', path: '/rest/system/announce/published', auth: session },
  announceAdd: { method: 'POST', path: '/rest/system/announce/add', auth: menu(MenuId.ANNOUNCEMENTS, 'add') },
  announceUpdateGet: { method: 'POST', path: '/rest/system/announce/update_get', auth: menu(MenuId.ANNOUNCEMENTS, 'edit') },
  announceUpdatePost: { method: 'POST', path: '/rest/system/announce/update_post', auth: menu(MenuId.ANNOUNCEMENTS, 'edit') },
  announceDelete: { method: 'POST', path: '/rest/system/announce/delete', auth: menu(MenuId.ANNOUNCEMENTS, 'edit') },
  announcePublish: { method: 'POST', path: '/rest/system/announce/publish', auth: menu(MenuId.ANNOUNCEMENTS, 'edit') },

  // downloads
  downloadList: { method: 'GET', path: '/rest/system/download/get', auth: menu(MenuId.DOWNLOADS, 'view') },
  downloadCenter: { method: 'GET', path: '/rest/system/download/center', auth: session },
  downloadFile: { method: 'GET', path: '/rest/system/download/file', auth: session, file: true },
  downloadAdd: { method: 'POST', path: '/rest/system/download/add', auth: menu(MenuId.DOWNLOADS, 'add'), encoding: 'multipart' },
  downloadUpdate: { method: 'POST', path: '/rest/system/download/update_post', auth: menu(MenuId.DOWNLOADS, 'edit'), encoding: 'multipart' },
  downloadDelete: { method: 'POST', path: '/rest/system/download/del', auth: menu(MenuId.DOWNLOADS, 'edit') },
  downloadIsIndex: { method: 'POST', path: '/rest/system/download/is_index_post', auth: menu(MenuId.DOWNLOADS, 'edit') },

  // organisation: units, unit trees, accounts, online users, roles, operation log,
  // data dictionary. Every one is unit-scoped on the server.
  unitGet: { method: 'GET', path: '/rest/user/unit/get', auth: menu(MenuId.UNITS, 'view') },
  unitAdd: { method: 'POST', path: '/rest/user/unit/add', auth: menu(MenuId.UNITS, 'add') },
  unitUpdate: { method: 'POST', path: '/rest/user/unit/update', auth: menu(MenuId.UNITS, 'edit') },
  unitMove: { method: 'POST', path: '/rest/user/unit/move', auth: menu(MenuId.UNITS, 'edit') },
  unitDelete: { method: 'POST', path: '/rest/user/unit/del', auth: menu(MenuId.UNITS, 'edit') },
  /** spec name: the unit with code `bh` (unit info for any screen) */
  unitByCode: { method: 'POST', path: '/rest/user/unit/edit', auth: session },
  /** unit tree selector (spec other/unitjson/*): one level of units under `id` (roots of the caller's scope without) */
  unitTree: { method: 'POST', path: '/rest/other/unitjson/gdlist', auth: session },
  /** same with device counts (lion_count: online devices below) and, once devices exist, the unit's devices as leaves */
  unitTreeDevices: { method: 'POST', path: '/rest/other/unitjson/gdlist_dv', auth: session },
  /** flat search of units by name or code (`text` or `key`) */
  unitSearch: { method: 'POST', path: '/rest/other/unitjson/dweilist', auth: session },

  accountList: { method: 'GET', path: '/rest/user/user/list', auth: menu(MenuId.ACCOUNTS, 'view') },
  accountAdd: { method: 'POST', path: '/rest/user/user/add', auth: menu(MenuId.ACCOUNTS, 'add') },
  accountUpdate: { method: 'POST', path: '/rest/user/user/update', auth: menu(MenuId.ACCOUNTS, 'edit') },
  accountStatus: { method: 'POST', path: '/rest/user/user/status', auth: menu(MenuId.ACCOUNTS, 'edit') },
  accountResetPassword: { method: 'POST', path: '/rest/user/user/reset_password', auth: menu(MenuId.ACCOUNTS, 'edit') },
  accountDelete: { method: 'POST', path: '/rest/user/user/del', auth: menu(MenuId.ACCOUNTS, 'edit') },
  onlineUsers: { method: 'GET', path: '/rest/other/user/online', auth: menu(MenuId.ACCOUNTS, 'view') },
  /** POST (it changes state): `{id}` account id */
  forceOffline: { method: 'POST', path: '/rest/other/user/del_online', auth: menu(MenuId.ACCOUNTS, 'edit') },

  roleList: { method: 'GET', path: '/rest/user/role/get', auth: menu(MenuId.ROLES, 'view') },
  /** roles the caller may assign in the account form */
  roleOptions: { method: 'GET', path: '/rest/user/role/options', auth: menu(MenuId.ACCOUNTS, 'view') },
  roleAdd: { method: 'POST', path: '/rest/user/role/add', auth: menu(MenuId.ROLES, 'add') },
  roleUpdate: { method: 'POST', path: '/rest/user/role/update', auth: menu(MenuId.ROLES, 'edit') },
  roleDelete: { method: 'POST', path: '/rest/user/role/del', auth: menu(MenuId.ROLES, 'edit') },
  roleAuthGet: { method: 'GET', path: '/rest/user/role/auth_get', auth: menu(MenuId.ROLES, 'view') },
  roleAuthUpdate: { method: 'POST', path: '/rest/user/role/auth_update', auth: menu(MenuId.ROLES, 'edit') },

  logList: { method: 'GET', path: '/rest/system/log/get', auth: menu(MenuId.OPERATION_LOG, 'view') },
  logExport: { method: 'GET', path: '/rest/system/log/export', auth: menu(MenuId.OPERATION_LOG, 'view'), file: true },

  dictTypes: { method: 'GET', path: '/rest/system/dict/types', auth: session },
  dictList: { method: 'GET', path: '/rest/system/dict/get', auth: session },
  dictAdd: { method: 'POST', path: '/rest/system/dict/add', auth: menu(MenuId.DATA_DICTIONARY, 'add') },
  dictUpdate: { method: 'POST', path: '/rest/system/dict/update', auth: menu(MenuId.DATA_DICTIONARY, 'edit') },
  dictDelete: { method: 'POST', path: '/rest/system/dict/del', auth: menu(MenuId.DATA_DICTIONARY, 'edit') },

  // devices: recorder registry (ops centre), device API, dispatch map calls. Unit-scoped.
  deviceList: { method: 'GET', path: '/rest/oam/recorder/get', auth: menu(MenuId.RECORDERS, 'view') },
  deviceAdd: { method: 'POST', path: '/rest/oam/recorder/add', auth: menu(MenuId.RECORDERS, 'add') },
  deviceUpdate: { method: 'POST', path: '/rest/oam/recorder/update', auth: menu(MenuId.RECORDERS, 'edit') },
  deviceDelete: { method: 'POST', path: '/rest/oam/recorder/del', auth: menu(MenuId.RECORDERS, 'edit') },
  /** a new device API secret, shown once */
  deviceResetSecret: { method: 'POST', path: '/rest/oam/recorder/reset_secret', auth: menu(MenuId.RECORDERS, 'edit') },
  deviceImport: { method: 'POST', path: '/rest/oam/recorder/import', auth: menu(MenuId.RECORDERS, 'add'), encoding: 'multipart' },
  /** empty .xlsx with the import columns (zh-CN headers, en-US: column keys) */
  deviceImportTemplate: { method: 'GET', path: '/rest/oam/recorder/import_template', auth: menu(MenuId.RECORDERS, 'view'), file: true },
  deviceSettingsGet: { method: 'GET', path: '/rest/oam/recorder/settings_get', auth: menu(MenuId.RECORDERS, 'view') },
  deviceSettingsUpdate: { method: 'POST', path: '/rest/oam/recorder/settings_update', auth: menu(MenuId.RECORDERS, 'edit') },
  modelList: { method: 'GET', path: '/rest/oam/recordermodel/get', auth: menu(MenuId.RECORDER_MODELS, 'view') },
  modelAdd: { method: 'POST', path: '/rest/oam/recordermodel/add', auth: menu(MenuId.RECORDER_MODELS, 'add') },
  modelUpdate: { method: 'POST', path: '/rest/oam/recordermodel/update', auth: menu(MenuId.RECORDER_MODELS, 'edit') },
  modelDelete: { method: 'POST', path: '/rest/oam/recordermodel/del', auth: menu(MenuId.RECORDER_MODELS, 'edit') },

  // device API: `public` here, the handler authenticates the DEVICE (bearer device token from
  // deviceLogin, or HTTP Basic hostbody:secret); provision takes the provisioning key
  deviceLogin: { method: 'POST', path: '/rest/device/api/login', auth: pub },
  devicePositions: { method: 'POST', path: '/rest/device/api/positions', auth: pub },
  deviceSos: { method: 'POST', path: '/rest/device/api/sos', auth: pub },
  deviceState: { method: 'POST', path: '/rest/device/api/status', auth: pub },
  deviceCommands: { method: 'GET', path: '/rest/device/api/commands', auth: pub },
  deviceCommandAck: { method: 'POST', path: '/rest/device/api/commands/ack', auth: pub },
  deviceConfig: { method: 'GET', path: '/rest/device/api/config', auth: pub },
  deviceProvision: { method: 'POST', path: '/rest/device/api/provision', auth: pub },

  // docking workstations (issue 15; schemas/workstations.ts): registry (workAdmin 10313) and the
  // workstation API (`public` here, the handler authenticates the station's bearer token)
  workstationList: { method: 'GET', path: '/rest/oam/workstation/get', auth: menu(MenuId.WORKSTATIONS, 'view') },
  workstationAdd: { method: 'POST', path: '/rest/oam/workstation/add', auth: menu(MenuId.WORKSTATIONS, 'add') },
  workstationUpdate: { method: 'POST', path: '/rest/oam/workstation/update', auth: menu(MenuId.WORKSTATIONS, 'edit') },
  workstationDelete: { method: 'POST', path: '/rest/oam/workstation/del', auth: menu(MenuId.WORKSTATIONS, 'edit') },
  /** a new workstation secret, shown once */
  workstationResetSecret: { method: 'POST', path: '/rest/oam/workstation/reset_secret', auth: menu(MenuId.WORKSTATIONS, 'edit') },
  workstationLogin: { method: 'POST', path: '/rest/workstation/api/login', auth: pub },
  workstationHeartbeat: { method: 'POST', path: '/rest/workstation/api/heartbeat', auth: pub },
  workstationProvision: { method: 'POST', path: '/rest/workstation/api/provision', auth: pub },

  // dispatch map: positions, status and commands (spec part 2 section 7.2 gismoni)
  gisGetPoint: { method: 'POST', path: '/rest/gis/gismoni/get_point', auth: menu(MenuId.EMERGENCY, 'view') },
  gisDeviceDetail: { method: 'POST', path: '/rest/gis/gismoni/get_devicedetail', auth: menu(MenuId.EMERGENCY, 'view') },
  gisUnitDevicePoint: { method: 'POST', path: '/rest/gis/gismoni/getUnitDevicePoint', auth: menu(MenuId.EMERGENCY, 'view') },
  gisStatus: { method: 'POST', path: '/rest/gis/gismoni/gisstatus', auth: menu(MenuId.EMERGENCY, 'view') },
  gisSendRestart: { method: 'POST', path: '/rest/gis/gismoni/send_restart', auth: menu(MenuId.EMERGENCY, 'edit') },
  gisSendCmd: { method: 'POST', path: '/rest/gis/gismoni/send_cmd', auth: menu(MenuId.EMERGENCY, 'edit') },
  /** remote kill or wake `{imei, action: remote_kill | remote_wakeon}` */
  gisRemoteKill: { method: 'POST', path: '/rest/gis/gismoni/remote_kill', auth: menu(MenuId.EMERGENCY, 'edit') },

  // live video (issue 13; schemas/live.ts): ask a device to publish, get play paths, stop
  liveAdd: { method: 'POST', path: '/rest/gis/gismoni/live_add', auth: live('view') },
  getVideo: { method: 'POST', path: '/rest/gis/gisvideo/getVideo', auth: live('view') },
  liveDel: { method: 'POST', path: '/rest/gis/gismoni/live_del', auth: live('view') },
  liveDelImei: { method: 'POST', path: '/rest/gis/gismoni/live_delimei', auth: live('edit') },
  liveAllDel: { method: 'POST', path: '/rest/gis/gismoni/live_alldel', auth: live('view') },
  /** ops centre media gateway: streams, publishers, viewers of this node; kick */
  mediaGateway: { method: 'GET', path: '/rest/oam/mediagateway/get', auth: menu(MenuId.MEDIA_GATEWAY, 'view') },
  mediaKick: { method: 'POST', path: '/rest/oam/mediagateway/kick', auth: menu(MenuId.MEDIA_GATEWAY, 'edit') },

  // geo: electronic fences and zones (configcenter MapConfig), history track, talk
  // groups of the dispatch map, maps (offline file, tiles, style, basemap, reverse geocoding)
  fenceList: { method: 'GET', path: '/rest/config/fence/get', auth: menu(MenuId.ELECTRONIC_FENCE, 'view') },
  fenceAdd: { method: 'POST', path: '/rest/config/fence/add', auth: menu(MenuId.ELECTRONIC_FENCE, 'add') },
  fenceUpdate: { method: 'POST', path: '/rest/config/fence/update', auth: menu(MenuId.ELECTRONIC_FENCE, 'edit') },
  fenceDelete: { method: 'POST', path: '/rest/config/fence/del', auth: menu(MenuId.ELECTRONIC_FENCE, 'edit') },
  /** crossings, newest first */
  fenceEvents: { method: 'GET', path: '/rest/config/fence/events', auth: menu(MenuId.ELECTRONIC_FENCE, 'view') },
  zoneList: { method: 'GET', path: '/rest/config/zone/get', auth: menu(MenuId.ZONES, 'view') },
  zoneAdd: { method: 'POST', path: '/rest/config/zone/add', auth: menu(MenuId.ZONES, 'add') },
  zoneUpdate: { method: 'POST', path: '/rest/config/zone/update', auth: menu(MenuId.ZONES, 'edit') },
  zoneDelete: { method: 'POST', path: '/rest/config/zone/del', auth: menu(MenuId.ZONES, 'edit') },

  /** positions of devices over a range, stops and gaps (gismoni history) */
  trackHistory: { method: 'POST', path: '/rest/gis/gismoni/history', auth: historyTrack },
  /** stops, gaps and device/fence events to mark on the timeline (gismoni history_mark) */
  trackMarks: { method: 'POST', path: '/rest/gis/gismoni/history_mark', auth: historyTrack },
  /** GPX 1.1 or KML 2.2 file */
  trackExport: { method: 'GET', path: '/rest/gis/track/export', auth: historyTrack, file: true },

  /** create group (spec 7.1): {channel_name, cate, remark, device: jq_hostcode list, bh} -> {groupid} */
  groupAdd: { method: 'POST', path: '/rest/gis/gischanneladd/add', auth: groups('add') },
  /** temporary group from devices selected on the map */
  groupFromDevices: { method: 'POST', path: '/rest/gis/gischanneladd/addgroup', auth: groups('add') },
  /** edit group (spec 7.1): {channel_id, channel_name, cate, remark, device: hostid list, bh} */
  groupEdit: { method: 'POST', path: '/rest/gis/gischanneledit/edit', auth: groups('edit') },
  groupGet: { method: 'POST', path: '/rest/gis/gischanneledit/get', auth: groups('view') },
  groupList: { method: 'POST', path: '/rest/gis/gischannel/grouplist', auth: groups('view') },
  groupDelete: { method: 'POST', path: '/rest/gis/gischannel/del_group', auth: groups('edit') },

  // message push (/dispatch/msgManage, 10105; schemas/messages.ts): messages of the caller's
  // units, sent now to terminals of his units through the console service, per-terminal states
  messList: { method: 'POST', path: '/rest/gis/gismessage/messlist', auth: menu(MenuId.MSG_MANAGE, 'view') },
  messAdd: { method: 'POST', path: '/rest/gis/gismessage/add', auth: menu(MenuId.MSG_MANAGE, 'add') },
  /** the stored message, to edit it */
  messEdit: { method: 'POST', path: '/rest/gis/gismessage/edit', auth: menu(MenuId.MSG_MANAGE, 'edit') },
  messSaveEdit: { method: 'POST', path: '/rest/gis/gismessage/saveEdit', auth: menu(MenuId.MSG_MANAGE, 'edit') },
  messDelete: { method: 'POST', path: '/rest/gis/gismessage/del', auth: menu(MenuId.MSG_MANAGE, 'edit') },
  messSendList: { method: 'POST', path: '/rest/gis/gismessagesend/sendlist', auth: menu(MenuId.MSG_MANAGE, 'view') },
  messSend: { method: 'POST', path: '/rest/gis/gismessagesend/send', auth: menu(MenuId.MSG_MANAGE, 'add') },
  /** the terminals of one send with their delivery and read states */
  messRecipients: { method: 'POST', path: '/rest/gis/gismessagesendlist/messglist', auth: menu(MenuId.MSG_MANAGE, 'view') },

  /** MapLibre style the console loads (online source, our tiles, or the built-in basemap) */
  mapStyle: { method: 'GET', path: '/rest/map/style', auth: session, file: true },
  mapInfo: { method: 'GET', path: '/rest/map/info', auth: session },
  /** tiles of the uploaded PMTiles/MBTiles file (`/rest/map/tiles/{z}/{x}/{y}` in the style) */
  mapTile: { method: 'GET', path: '/rest/map/tiles/:z/:x/:y', auth: session, file: true },
  /** built-in basemap layer as GeoJSON (`land` | `countries`) */
  mapBasemap: { method: 'GET', path: '/rest/map/basemap/:name', auth: session, file: true },
  /** built-in basemap as Mapbox vector tiles (gzip), `BASEMAP_TILE_LAYERS`, zoom 0 to `BASEMAP_TILE_MAXZOOM` */
  mapBasemapTile: { method: 'GET', path: '/rest/map/basemap/tiles/:z/:x/:y', auth: session, file: true },
  mapUpload: { method: 'POST', path: '/rest/map/upload', auth: menu(MenuId.DISPATCH_CONFIG, 'edit'), encoding: 'multipart' },
  mapFileDelete: { method: 'POST', path: '/rest/map/del', auth: menu(MenuId.DISPATCH_CONFIG, 'edit') },
  /** reverse geocoding with cache (AddressLocation) */
  mapGeocode: { method: 'GET', path: '/rest/map/geocode', auth: session },
  geocodeSettingsGet: { method: 'GET', path: '/rest/map/geocode_settings_get', auth: menu(MenuId.DISPATCH_CONFIG, 'view') },
  geocodeSettingsUpdate: { method: 'POST', path: '/rest/map/geocode_settings_update', auth: menu(MenuId.DISPATCH_CONFIG, 'edit') },

  // evidence (issue 15; schemas/evidence.ts). Uploads are tus at UPLOAD_PATH / DEVICE_UPLOAD_PATH /
  // WORKSTATION_UPLOAD_PATH (not JSON routes, see schemas/evidence.ts); files are served at signed
  // addresses (`/media/evidence/...?token=`), with byte ranges
  mediaList: { method: 'POST', path: '/rest/media/media/get', auth: evidence('view') },
  /** the item with a signed play address and its revisions; audited as viewed */
  mediaView: { method: 'POST', path: '/rest/media/mediaview/get', auth: evidence('view') },
  mediaFlag: { method: 'POST', path: '/rest/media/mediaflg_edit', auth: evidence('edit') },
  /** the marks of the checked items, to fill the bulk mark dialog (items outside the scope are left out) */
  mediaFlagAllGet: { method: 'POST', path: '/rest/media/media/flg_all_get', auth: evidence('view') },
  mediaFlagAll: { method: 'POST', path: '/rest/media/media/flg_all_update', auth: evidence('edit') },
  /** revise title, description, category, incident number; the original file is untouched */
  mediaRevise: { method: 'POST', path: '/rest/media/media_revise', auth: evidence('edit') },
  mediaRevisions: { method: 'POST', path: '/rest/mediarevise/filerevise/get', auth: evidence('view') },
  /** the values the checked items share, to fill the bulk edit dialog */
  mediaEditAllGet: { method: 'POST', path: '/rest/media/media/edit_all_get', auth: evidence('view') },
  mediaEditAll: { method: 'POST', path: '/rest/media/media/edit_all_update', auth: evidence('edit') },
  /** soft delete with a reason: to /data/edit/deleted for EVIDENCE_RECOVERY_DAYS */
  mediaDelete: { method: 'POST', path: '/rest/media/media/del_all_update', auth: evidence('edit') },
  mediaRevert: { method: 'POST', path: '/rest/mediarevise/mediadel/revert', auth: menu(MenuId.DELETED_MEDIA, 'edit') },
  /** permanent removal after the recovery window: its own permission, add on 10272 */
  mediaHardDelete: { method: 'POST', path: '/rest/mediarevise/mediadel/harddel', auth: menu(MenuId.DELETED_MEDIA, 'add') },
  /** /data/edit/record: revisions and deletions */
  mediaEditRecord: { method: 'POST', path: '/rest/mediarevise/filerevise/view', auth: menu(MenuId.EDIT_RECORD, 'view') },
  mediaGps: { method: 'POST', path: '/rest/media/gps', auth: evidence('view') },
  /** a signed download address; the file's hash is verified again when it is fetched */
  mediaDownload: { method: 'POST', path: '/rest/media/mediadown', auth: evidence('view') },
  /** a signed address of one zip of many originals (each hashed again while it streams) with manifest.csv */
  mediaDownloadAll: { method: 'POST', path: '/rest/media/mediadownload/download_all', auth: evidence('view') },
  /** the item's chain of custody and whether it verifies */
  mediaCustody: { method: 'POST', path: '/rest/media/checkrecord/view', auth: evidence('view') },

  // retention (issue 15 section 4; schemas/retention.ts): the policy and preview on 10272 view,
  // changes and a run now on 10272 edit. Sensitive words: 10462
  retentionGet: { method: 'POST', path: '/rest/mediarevise/retention/get', auth: menu(MenuId.DELETED_MEDIA, 'view') },
  retentionUpdate: { method: 'POST', path: '/rest/mediarevise/retention/update', auth: menu(MenuId.DELETED_MEDIA, 'edit') },
  /** items due within the next N days, listed before the job acts */
  retentionPreview: { method: 'POST', path: '/rest/mediarevise/retention/preview', auth: menu(MenuId.DELETED_MEDIA, 'view') },
  retentionRun: { method: 'POST', path: '/rest/mediarevise/retention/run', auth: menu(MenuId.DELETED_MEDIA, 'edit') },
  sensitiveWordList: { method: 'POST', path: '/rest/system/sensitiveword/get', auth: menu(MenuId.SENSITIVE_WORDS, 'view') },
  sensitiveWordAdd: { method: 'POST', path: '/rest/system/sensitiveword/add', auth: menu(MenuId.SENSITIVE_WORDS, 'add') },
  sensitiveWordEdit: { method: 'POST', path: '/rest/system/sensitiveword/edit', auth: menu(MenuId.SENSITIVE_WORDS, 'edit') },
  sensitiveWordDelete: { method: 'POST', path: '/rest/system/sensitiveword/del', auth: menu(MenuId.SENSITIVE_WORDS, 'edit') },
  /** the custody report of one item (metadata, sha256, chain check, every entry) as PDF or .xlsx */
  mediaCustodyExport: { method: 'GET', path: '/rest/media/checkrecord/export', auth: evidence('view'), file: true },
  // scores and random checks (issue 15 sections 2 and 5; schemas/review.ts): reading scores needs
  // view on a library menu, scoring edit (supervisors); checks: 10231 draw (add), result (edit); 10232 records
  mediaScoreGet: { method: 'POST', path: '/rest/media/media_score_get', auth: evidence('view') },
  mediaScoreUpdate: { method: 'POST', path: '/rest/media/media_score_update', auth: evidence('edit') },
  videoScore: { method: 'POST', path: '/rest/media/videoscore', auth: evidence('edit') },
  /** rubrics (/data/peerreview/review 10261): every version; a new one; a change (a new version when scored); the active one */
  rubricList: { method: 'POST', path: '/rest/media/rubric_get', auth: menu(MenuId.PEER_REVIEW, 'view') },
  rubricAdd: { method: 'POST', path: '/rest/media/rubric_add', auth: menu(MenuId.PEER_REVIEW, 'add') },
  rubricEdit: { method: 'POST', path: '/rest/media/rubric_edit', auth: menu(MenuId.PEER_REVIEW, 'edit') },
  rubricActive: { method: 'POST', path: '/rest/media/rubric_active', auth: menu(MenuId.PEER_REVIEW, 'edit') },
  checkDraw: { method: 'POST', path: '/rest/media/checkrandom/draw', auth: menu(MenuId.CHECK_RANDOM, 'add') },
  checkBatch: { method: 'POST', path: '/rest/media/checkrandom/get', auth: anyMenu('view', MenuId.CHECK_RANDOM, MenuId.CHECK_RECORD) },
  checkResult: { method: 'POST', path: '/rest/media/checkrandom/result', auth: menu(MenuId.CHECK_RANDOM, 'edit') },
  checkRecords: { method: 'POST', path: '/rest/media/checkrecord/get', auth: menu(MenuId.CHECK_RECORD, 'view') },

  // history replay (issue 15 section 2; schemas/playback.ts): a device's recordings on a timeline,
  // through the library (custody, revisions, signed addresses)
  replayDevices: { method: 'POST', path: '/rest/monitor/videoreplay/get', auth: replay('view') },
  replaySearch: { method: 'POST', path: '/rest/monitor/videoreplay/search', auth: replay('view') },
  /** the item with a signed play address; custody viewed */
  replayInfo: { method: 'POST', path: '/rest/monitor/videoreplay/getinfo', auth: replay('view') },
  replaySave: { method: 'POST', path: '/rest/monitor/videoreplay/saveinfo', auth: replay('edit') },
  replayDownload: { method: 'POST', path: '/rest/monitor/videoreplay/mediadown', auth: replay('view') },
  mediafileSearch: { method: 'POST', path: '/rest/gis/mediafile/search', auth: dispatchReplay('view') },
  /** recordings as spans and the devices' alarms as moments */
  mediafileMarks: { method: 'POST', path: '/rest/gis/mediafile/history_mark', auth: dispatchReplay('view') },
  mediafileDownload: { method: 'POST', path: '/rest/gis/mediafile/media_down', auth: dispatchReplay('view') },
  playbackInfo: { method: 'POST', path: '/rest/gis/playback/info_play', auth: dispatchReplay('view') },
  playbackFlag: { method: 'POST', path: '/rest/gis/playback/mediaflg_edit', auth: dispatchReplay('edit') },

  // access to other units' items and external share links (issue 15 section 4; schemas/access.ts).
  // Requests: 'view' on a library menu; approvals and share links: 'edit' on one (and the unit in scope)
  accessFromList: { method: 'POST', path: '/rest/media/accessfrom/get', auth: evidence('view') },
  accessUnits: { method: 'POST', path: '/rest/media/accessfrom/units', auth: evidence('view') },
  accessFromAdd: { method: 'POST', path: '/rest/media/accessfrom/add', auth: evidence('view') },
  /** withdraw a request (an approved one ends its grant) */
  accessFromDel: { method: 'POST', path: '/rest/media/accessfrom/del', auth: evidence('view') },
  accessFromView: { method: 'POST', path: '/rest/media/accessfrom/view', auth: evidence('view') },
  accessToList: { method: 'POST', path: '/rest/media/accessto/get', auth: evidence('edit') },
  /** approve with an expiry (custody 'shared' on every granted item) or refuse */
  accessToSave: { method: 'POST', path: '/rest/media/accessto/appsave', auth: evidence('edit') },
  accessToView: { method: 'POST', path: '/rest/media/accessto/view', auth: evidence('edit') },
  shareAdd: { method: 'POST', path: '/rest/media/share/add', auth: evidence('edit') },
  shareList: { method: 'POST', path: '/rest/media/share/get', auth: evidence('edit') },
  shareRevoke: { method: 'POST', path: '/rest/media/share/revoke', auth: evidence('edit') },
  /** the public share page's call (no login): the link's items with short-lived signed addresses */
  shareOpen: { method: 'POST', path: '/rest/share/open', auth: pub },

  // incidents, cases, law-enforcement files (issue 15 section 3; schemas/cases.ts). Incidents,
  // violations and incident files: 10221 (lawDoc); cases and case files: 10223 (case)
  incidentAdd: { method: 'POST', path: '/rest/yw/jingqing/add', auth: menu(ArchiveMenu.LAW_DOC, 'add') },
  incidentCancel: { method: 'POST', path: '/rest/yw/jingqing/cancel', auth: menu(ArchiveMenu.LAW_DOC, 'edit') },
  incidentList: { method: 'POST', path: '/rest/yw/jingqing/zfgd_list', auth: menu(ArchiveMenu.LAW_DOC, 'view') },
  incidentMediaWrite: { method: 'POST', path: '/rest/yw/jingqing/mediaview_write', auth: menu(ArchiveMenu.LAW_DOC, 'edit') },
  incidentMedia: { method: 'POST', path: '/rest/yw/jingqing/mediaview_relation', auth: menu(ArchiveMenu.LAW_DOC, 'view') },
  /** the terminals the incident was sent to, with delivery */
  incidentSendList: { method: 'POST', path: '/rest/yw/jingqing/sendlist', auth: menu(ArchiveMenu.LAW_DOC, 'view') },
  /** send the incident to terminals as a console-service instant message */
  incidentSend: { method: 'POST', path: '/rest/yw/jingqing/jingqingsend', auth: menu(ArchiveMenu.LAW_DOC, 'edit') },
  caseAdd: { method: 'POST', path: '/rest/yw/anjian/add', auth: menu(ArchiveMenu.CASE, 'add') },
  caseCancel: { method: 'POST', path: '/rest/yw/anjian/cancel', auth: menu(ArchiveMenu.CASE, 'edit') },
  caseList: { method: 'POST', path: '/rest/yw/anjian/zfgd_list', auth: menu(ArchiveMenu.CASE, 'view') },
  caseMediaWrite: { method: 'POST', path: '/rest/yw/anjian/mediaview_write', auth: menu(ArchiveMenu.CASE, 'edit') },
  caseMedia: { method: 'POST', path: '/rest/yw/anjian/mediaview_relation', auth: menu(ArchiveMenu.CASE, 'view') },
  violationList: { method: 'POST', path: '/rest/yw/violation/zfgd_list', auth: menu(ArchiveMenu.LAW_DOC, 'view') },
  violationAdd: { method: 'POST', path: '/rest/yw/violation/add', auth: menu(ArchiveMenu.LAW_DOC, 'add') },
  violationCancel: { method: 'POST', path: '/rest/yw/violation/cancel', auth: menu(ArchiveMenu.LAW_DOC, 'edit') },
  /** `{id, reason}`: the handling result */
  violationClose: { method: 'POST', path: '/rest/yw/violation/close', auth: menu(ArchiveMenu.LAW_DOC, 'edit') },
  violationMediaWrite: { method: 'POST', path: '/rest/yw/violation/mediaview_write', auth: menu(ArchiveMenu.LAW_DOC, 'edit') },
  violationMedia: { method: 'POST', path: '/rest/yw/violation/mediaview_relation', auth: menu(ArchiveMenu.LAW_DOC, 'view') },
  violationOfficers: { method: 'POST', path: '/rest/yw/violation/officers', auth: menu(ArchiveMenu.LAW_DOC, 'view') },
  // case samples (典型案例): 10224 (/data/archive/sample)
  sampleAdd: { method: 'POST', path: '/rest/yw/anjian/sample_add', auth: menu(ArchiveMenu.SAMPLE, 'add') },
  sampleDel: { method: 'POST', path: '/rest/yw/anjian/sample_del', auth: menu(ArchiveMenu.SAMPLE, 'edit') },
  sampleList: { method: 'POST', path: '/rest/yw/anjian/sample_list', auth: menu(ArchiveMenu.SAMPLE, 'view') },
  sampleMedia: { method: 'POST', path: '/rest/yw/anjian/sample_media', auth: menu(ArchiveMenu.SAMPLE, 'view') },
  /** files of `kind`; the server checks that kind's menu (incident 10221, case 10223) */
  archiveList: { method: 'POST', path: '/rest/yw/zfda/get', auth: anyMenu('view', ArchiveMenu.LAW_DOC, ArchiveMenu.CASE) },
  archiveGet: { method: 'POST', path: '/rest/yw/zfda/get_by_id', auth: anyMenu('view', ArchiveMenu.LAW_DOC, ArchiveMenu.CASE) },
  archiveEdit: { method: 'POST', path: '/rest/yw/zfda/edit', auth: anyMenu('edit', ArchiveMenu.LAW_DOC, ArchiveMenu.CASE) },

  // alarms (schemas/alarms.ts). The bell's calls need view on 10104 or 10154 (`bell`), its list
  // the mode's own menu; history and acknowledgement per mode: dispatch 10104, GB 10154. The
  // sound settings are for every console.
  alarmSettings: { method: 'GET', path: '/rest/system/alarm/setting', auth: session },
  alarmIsAlarm: { method: 'GET', path: '/rest/system/alarm/is_alarm', auth: bell },
  /** bell list, dispatch mode */
  alarmList: { method: 'GET', path: '/rest/system/alarm/get', auth: menu(MenuId.DISPATCH_ALARM, 'view') },
  /** bell list, GB mode (same answer) */
  alarmLight: { method: 'GET', path: '/rest/monitor/alarmhistory/alarmlight', auth: menu(MenuId.MONITOR_ALARM, 'view') },
  /** mark read for the caller `{ids: [{id, eid}]}` */
  alarmRead: { method: 'POST', path: '/rest/system/alarm/read', auth: bell },
  alarmReadAll: { method: 'POST', path: '/rest/system/alarm/read_all', auth: bell },
  alarmPosition: { method: 'POST', path: '/rest/system/alarm/position', auth: bell },
  /** GB mode's locate: a refusal names 10154 */
  alarmGbPosition: { method: 'POST', path: '/rest/monitor/alarmhistory/position', auth: anyMenu('view', MenuId.MONITOR_ALARM, MenuId.DISPATCH_ALARM) },
  alarmCategories: { method: 'GET', path: '/rest/gis/alarmhis/alermcate', auth: bell },
  alarmSearch: { method: 'POST', path: '/rest/gis/alarmhis/search', auth: menu(MenuId.DISPATCH_ALARM, 'view') },
  alarmGbSearch: { method: 'POST', path: '/rest/monitor/alarmhistory/search', auth: menu(MenuId.MONITOR_ALARM, 'view') },
  alarmExport: { method: 'GET', path: '/rest/gis/alarmhis/export', auth: menu(MenuId.DISPATCH_ALARM, 'view'), file: true },
  alarmGbExport: { method: 'GET', path: '/rest/monitor/alarmhistory/export', auth: menu(MenuId.MONITOR_ALARM, 'view'), file: true },
  alarmSure: { method: 'POST', path: '/rest/system/alarm/sure_alarm', auth: menu(MenuId.DISPATCH_ALARM, 'edit') },
  alarmGbSure: { method: 'POST', path: '/rest/monitor/alarmhistory/sure_alarm', auth: menu(MenuId.MONITOR_ALARM, 'edit') },
  /** acknowledge every visible unacknowledged alarm (GET as the spec shows; audited) */
  alarmSureAll: { method: 'GET', path: '/rest/system/alarm/sure_all_alarm', auth: menu(MenuId.DISPATCH_ALARM, 'edit') },
  /** the same for GB mode (AlarmHistory, 10154 edit; the spec shows only the dispatch path) */
  alarmGbSureAll: { method: 'GET', path: '/rest/monitor/alarmhistory/sure_all_alarm', auth: menu(MenuId.MONITOR_ALARM, 'edit') },
  alarmPic: { method: 'GET', path: '/rest/mini/rtcapt/alarm_pic', auth: menu(MenuId.FACE_ALARM, 'view') },
  /** alarm pictures under web_root (`/rest/mini/rtcapt/file/<name>`) */
  alarmPicFile: { method: 'GET', path: '/rest/mini/rtcapt/file/:name', auth: session, file: true },
  /** AI engine results (face / plate) with pictures: `Authorization: Bearer <AI engine token>` */
  aiAlarm: { method: 'POST', path: '/rest/ai/engine/alarm', auth: pub },
} as const satisfies Record<string, EndpointRoute>;

export type RouteName = keyof typeof Routes;

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
export function apiNameOfPath(path: string): RouteName | undefined {
  return (Object.keys(Routes) as RouteName[]).find((name) => Routes[name].path === path);
}
