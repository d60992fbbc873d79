import type { Action } from './permissions';
import { MenuId } from './permissions';

/**
 * Who may call an endpoint. The server enforces it; the console reads it to hide what a user
 * cannot use. `menu` rules are also unit-scoped by the server where the data belongs to a unit.
 */
export type EndpointAuth =
  | { kind: 'public' }
  | { kind: 'session' }
  | { kind: 'admin' }
  | { kind: 'menu'; menu: number; action: Action };

export interface EndpointDef {
  method: 'GET' | 'POST';
  path: string;
  auth: EndpointAuth;
  /** body encoding for POST: json (default), form (x-www-form-urlencoded) or multipart */
  body?: 'json' | 'form' | 'multipart';
  /** answer is a file, not an envelope (errors still come as envelopes) */
  file?: boolean;
}

const pub = { kind: 'public' } as const;
const session = { kind: 'session' } as const;
const admin = { kind: 'admin' } as const;
const menu = (id: number, action: Action) => ({ kind: 'menu', menu: id, action }) as const;

/** Paths are absolute; the console prefixes nothing. */
export const Api = {
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
  changePassword: { method: 'POST', path: '/rest/user/user/change_password', auth: session, body: 'form' },

  // system settings (systerm_auth: menu 10002; dispatch config: menu 10003); the server picks the
  // menu from the settings type, these entries name the stricter default
  settingsGet: { method: 'GET', path: '/rest/system/config/system_get', auth: menu(MenuId.SYSTEM_SETTINGS, 'view') },
  settingsUpdate: { method: 'POST', path: '/rest/system/config/system_update', auth: menu(MenuId.SYSTEM_SETTINGS, 'edit') },
  playGet: { method: 'GET', path: '/rest/system/config/play_get', auth: session },
  playUpdate: { method: 'POST', path: '/rest/system/config/play_update', auth: menu(MenuId.DISPATCH_CONFIG, 'edit') },
  uploadBackground: { method: 'POST', path: '/rest/system/config/upload_background', auth: menu(MenuId.SYSTEM_SETTINGS, 'edit'), body: 'multipart' },
  mapConfig: { method: 'GET', path: '/rest/system/config/map_get', auth: session },

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
  downloadAdd: { method: 'POST', path: '/rest/system/download/add', auth: menu(MenuId.DOWNLOADS, 'add'), body: 'multipart' },
  downloadUpdate: { method: 'POST', path: '/rest/system/download/update_post', auth: menu(MenuId.DOWNLOADS, 'edit'), body: 'multipart' },
  downloadDelete: { method: 'POST', path: '/rest/system/download/del', auth: menu(MenuId.DOWNLOADS, 'edit') },
  downloadIsIndex: { method: 'POST', path: '/rest/system/download/is_index_post', auth: menu(MenuId.DOWNLOADS, 'edit') },

  // organisation (issue 3): units, unit trees, accounts, online users, roles, operation log,
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

  // devices (issue 4): recorder registry (ops centre), device API, dispatch map calls. Unit-scoped.
  deviceList: { method: 'GET', path: '/rest/oam/recorder/get', auth: menu(MenuId.RECORDERS, 'view') },
  deviceAdd: { method: 'POST', path: '/rest/oam/recorder/add', auth: menu(MenuId.RECORDERS, 'add') },
  deviceUpdate: { method: 'POST', path: '/rest/oam/recorder/update', auth: menu(MenuId.RECORDERS, 'edit') },
  deviceDelete: { method: 'POST', path: '/rest/oam/recorder/del', auth: menu(MenuId.RECORDERS, 'edit') },
  /** a new device API secret, shown once */
  deviceResetSecret: { method: 'POST', path: '/rest/oam/recorder/reset_secret', auth: menu(MenuId.RECORDERS, 'edit') },
  deviceImport: { method: 'POST', path: '/rest/oam/recorder/import', auth: menu(MenuId.RECORDERS, 'add'), body: 'multipart' },
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

  // dispatch map: positions, status and commands (spec part 2 section 7.2 gismoni)
  gisGetPoint: { method: 'POST', path: '/rest/gis/gismoni/get_point', auth: menu(MenuId.EMERGENCY, 'view') },
  gisDeviceDetail: { method: 'POST', path: '/rest/gis/gismoni/get_devicedetail', auth: menu(MenuId.EMERGENCY, 'view') },
  gisUnitDevicePoint: { method: 'POST', path: '/rest/gis/gismoni/getUnitDevicePoint', auth: menu(MenuId.EMERGENCY, 'view') },
  gisStatus: { method: 'POST', path: '/rest/gis/gismoni/gisstatus', auth: menu(MenuId.EMERGENCY, 'view') },
  gisSendRestart: { method: 'POST', path: '/rest/gis/gismoni/send_restart', auth: menu(MenuId.EMERGENCY, 'edit') },
  gisSendCmd: { method: 'POST', path: '/rest/gis/gismoni/send_cmd', auth: menu(MenuId.EMERGENCY, 'edit') },
  /** remote kill or wake `{imei, action: remote_kill | remote_wakeon}` */
  gisRemoteKill: { method: 'POST', path: '/rest/gis/gismoni/remote_kill', auth: menu(MenuId.EMERGENCY, 'edit') },

  // geo (issue 4): electronic fences and zones (configcenter MapConfig), history track, talk
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
  trackHistory: { method: 'POST', path: '/rest/gis/gismoni/history', auth: menu(MenuId.TRACK, 'view') },
  /** stops, gaps and device/fence events to mark on the timeline (gismoni history_mark) */
  trackMarks: { method: 'POST', path: '/rest/gis/gismoni/history_mark', auth: menu(MenuId.TRACK, 'view') },
  /** GPX 1.1 or KML 2.2 file */
  trackExport: { method: 'GET', path: '/rest/gis/track/export', auth: menu(MenuId.TRACK, 'view'), file: true },

  /** create group (spec 7.1): {channel_name, cate, remark, device: jq_hostcode list, bh} -> {groupid} */
  groupAdd: { method: 'POST', path: '/rest/gis/gischanneladd/add', auth: menu(MenuId.EMERGENCY, 'add') },
  /** temporary group from devices selected on the map */
  groupFromDevices: { method: 'POST', path: '/rest/gis/gischanneladd/addgroup', auth: menu(MenuId.EMERGENCY, 'add') },
  /** edit group (spec 7.1): {channel_id, channel_name, cate, remark, device: hostid list, bh} */
  groupEdit: { method: 'POST', path: '/rest/gis/gischanneledit/edit', auth: menu(MenuId.EMERGENCY, 'edit') },
  groupGet: { method: 'POST', path: '/rest/gis/gischanneledit/get', auth: menu(MenuId.EMERGENCY, 'view') },
  groupList: { method: 'POST', path: '/rest/gis/gischannel/grouplist', auth: menu(MenuId.EMERGENCY, 'view') },
  groupDelete: { method: 'POST', path: '/rest/gis/gischannel/del_group', auth: menu(MenuId.EMERGENCY, 'edit') },

  /** MapLibre style the console loads (online source, our tiles, or the built-in basemap) */
  mapStyle: { method: 'GET', path: '/rest/map/style', auth: session, file: true },
  mapInfo: { method: 'GET', path: '/rest/map/info', auth: session },
  /** tiles of the uploaded PMTiles/MBTiles file (`/rest/map/tiles/{z}/{x}/{y}` in the style) */
  mapTile: { method: 'GET', path: '/rest/map/tiles/:z/:x/:y', auth: session, file: true },
  /** built-in basemap layer as GeoJSON (`land` | `countries`) */
  mapBasemap: { method: 'GET', path: '/rest/map/basemap/:name', auth: session, file: true },
  /** built-in basemap as Mapbox vector tiles (gzip), `BASEMAP_TILE_LAYERS`, zoom 0 to `BASEMAP_TILE_MAXZOOM` */
  mapBasemapTile: { method: 'GET', path: '/rest/map/basemap/tiles/:z/:x/:y', auth: session, file: true },
  mapUpload: { method: 'POST', path: '/rest/map/upload', auth: menu(MenuId.DISPATCH_CONFIG, 'edit'), body: 'multipart' },
  mapFileDelete: { method: 'POST', path: '/rest/map/del', auth: menu(MenuId.DISPATCH_CONFIG, 'edit') },
  /** reverse geocoding with cache (AddressLocation) */
  mapGeocode: { method: 'GET', path: '/rest/map/geocode', auth: session },
  geocodeSettingsGet: { method: 'GET', path: '/rest/map/geocode_settings_get', auth: menu(MenuId.DISPATCH_CONFIG, 'view') },
  geocodeSettingsUpdate: { method: 'POST', path: '/rest/map/geocode_settings_update', auth: menu(MenuId.DISPATCH_CONFIG, 'edit') },

  // alarms (issue 5; schemas/alarms.ts). Bell calls need view on 10104 or 10154 (checked by the
  // server: either one); history and acknowledgement per mode: dispatch 10104, GB 10154
  alarmSettings: { method: 'GET', path: '/rest/system/alarm/setting', auth: session },
  alarmIsAlarm: { method: 'GET', path: '/rest/system/alarm/is_alarm', auth: session },
  /** bell list, dispatch mode */
  alarmList: { method: 'GET', path: '/rest/system/alarm/get', auth: session },
  /** bell list, GB mode (same answer) */
  alarmLight: { method: 'GET', path: '/rest/monitor/alarmhistory/alarmlight', auth: session },
  /** mark read for the caller `{ids: [{id, eid}]}` */
  alarmRead: { method: 'POST', path: '/rest/system/alarm/read', auth: session },
  alarmReadAll: { method: 'POST', path: '/rest/system/alarm/read_all', auth: session },
  alarmPosition: { method: 'POST', path: '/rest/system/alarm/position', auth: session },
  alarmGbPosition: { method: 'POST', path: '/rest/monitor/alarmhistory/position', auth: session },
  alarmCategories: { method: 'GET', path: '/rest/gis/alarmhis/alermcate', auth: session },
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
} as const satisfies Record<string, EndpointDef>;

export type ApiName = keyof typeof Api;

/** The endpoint name of a path (operation log `action`), undefined for unknown paths. */
export function apiNameOfPath(path: string): ApiName | undefined {
  return (Object.keys(Api) as ApiName[]).find((name) => Api[name].path === path);
}
