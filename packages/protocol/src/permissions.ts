import { z } from 'zod';

/** Actions a role may hold on a menu id (spec part 1 section 6, part 2 section 6). Delete falls under edit. */
export const ACTIONS = ['view', 'edit', 'add'] as const;
export const Action = z.enum(ACTIONS);
export type Action = z.infer<typeof Action>;

/** user_auth map of one module: an action is allowed when its value is 1. */
export const UserAuth = z.object({ view: z.literal(1).optional(), edit: z.literal(1).optional(), add: z.literal(1).optional() });
export type UserAuth = z.infer<typeof UserAuth>;

export interface ModuleDef {
  /** menu id, the permission key */
  id: number;
  /** module code matched by the console to build its menu */
  bh: string;
  /** parent menu id, 0 for a root area */
  pid: number;
  /** route name; the i18n label is `menu.<key>` */
  key: string;
  /** full route path */
  path: string;
}

type Node = [id: number, bh: string, key: string, segment: string, children?: Node[]];

/**
 * Every route area of both spec parts. Fixed ids the spec names: 10104 dispatch alarm history,
 * 10154 monitor alarm history (the alarm widget needs view on one of them), 10095 face alarm pictures.
 */
const TREE: Node[] = [
  [10001, '_1', 'system', '/system', [
    [10002, '_101', 'systemset', 'systemset'],
    [10003, '_102', 'player', 'player'],
    [10004, '_103', 'noticeEdit', 'noticeEdit'],
    [10005, '_104', 'download_2', 'download_2'],
  ]],
  [10100, '_2', 'dispatch', '/dispatch', [
    [10101, '_201', 'Emergency', 'emergency'],
    [10102, '_202', 'cluster', 'cluster'],
    [10103, '_203', 'history', 'history'],
    [10104, '_204', 'DispatchAlarmHistory', 'alarm'],
    [10105, '_205', 'msgManage', 'msgManage'],
    [10106, '_206', 'video', 'video'],
    [10107, '_207', 'voiceManage', 'voiceManage'],
    [10108, '_208', 'dispatchFourg', 'fourg'],
  ]],
  [10150, '_3', 'monitor', '/monitor', [
    [10151, '_301', 'VideoPatrol', 'patrol'],
    [10152, '_302', 'playback', 'playback'],
    [10153, '_303', 'track', 'track'],
    [10154, '_304', 'AlarmHistory', 'alarm'],
    [10155, '_305', 'monitorFourg', 'fourg'],
  ]],
  [10200, '_4', 'data', '/data', [
    [10210, '_401', 'manage', 'manage', [
      [10211, '_40101', 'law', 'law'], [10212, '_40102', 'sensitivity', 'sensitivity'], [10213, '_40103', 'outside', 'outside'],
    ]],
    [10220, '_402', 'archive', 'archive', [
      [10221, '_40201', 'lawDoc', 'lawDoc'], [10222, '_40202', 'alram', 'alram'], [10223, '_40203', 'case', 'case'], [10224, '_40204', 'sample', 'sample'],
    ]],
    [10230, '_403', 'check', 'check', [[10231, '_40301', 'random', 'random'], [10232, '_40302', 'checkRecord', 'record']]],
    [10240, '_404', 'analyse', 'analyse', [
      [10241, '_40401', 'base', 'base'], [10242, '_40402', 'compare', 'compare'], [10243, '_40403', 'assets', 'assets'],
      [10244, '_40404', 'trend', 'trend'], [10245, '_40405', 'trendLink', 'trendLink'], [10246, '_40406', 'step', 'step'],
    ]],
    [10250, '_405', 'supervision', 'supervision', [
      [10251, '_40501', 'warn', 'warn'], [10252, '_40502', 'supervisions', 'supervisions'], [10253, '_40503', 'station', 'station'],
      [10254, '_40504', 'logger', 'logger'], [10255, '_40505', 'rank', 'rank'], [10256, '_40506', 'manager', 'manager'],
      [10257, '_40507', 'personLog', 'personLog'],
    ]],
    [10260, '_406', 'peerreview', 'peerreview', [[10261, '_40601', 'review', 'review'], [10262, '_40602', 'approval', 'approval']]],
    [10270, '_407', 'edit', 'edit', [[10271, '_40701', 'editRecord', 'record'], [10272, '_40702', 'deleted', 'deleted']]],
  ]],
  [10090, '_5', 'ai', '/ai', [
    [10091, '_501', 'capture', 'capture'], [10095, '_502', 'face', 'face'], [10092, '_503', 'licensePlate', 'licensePlate'],
    [10093, '_504', 'portraitGallery', 'portraitGallery'], [10094, '_505', 'licensePlateLibrary', 'licensePlateLibrary'],
    [10096, '_506', 'aiBigData', 'bigData'], [10097, '_507', 'eventHeat', 'eventHeat'], [10098, '_508', 'eventAggregation', 'eventAggregation'],
    [10099, '_509', 'eventHistogram', 'eventHistogram'],
  ]],
  [10300, '_6', 'oamcenter', '/oamcenter', [
    [10310, '_601', 'deviceAdmin', 'deviceAdmin', [
      [10311, '_60101', 'recorderAdmin', 'recorderAdmin'], [10312, '_60102', 'manAdmin', 'manAdmin'], [10313, '_60103', 'workAdmin', 'workAdmin'],
      [10314, '_60104', 'recorderModel', 'recorderModel'], [10315, '_60105', 'machineAdmin', 'machineAdmin'],
    ]],
    [10320, '_602', 'serverAdmin', 'serverAdmin'],
    [10330, '_603', 'RemoteAdmin', 'RemoteAdmin', [
      [10331, '_60301', 'RecorderUpdateAdmin', 'RecorderUpdateAdmin'], [10332, '_60302', 'SoftwareUpdateAdmin', 'SoftwareUpdateAdmin'],
      [10333, '_60303', 'RecorderUpdateState', 'RecorderUpdateState'],
    ]],
    [10340, '_604', 'PlatformAdmin', 'PlatformAdmin', [
      [10341, '_60401', 'MediaGateway', 'MediaGateway'], [10342, '_60402', 'UpAdmin', 'UpAdmin'], [10343, '_60403', 'downAdmin', 'downAdmin'],
      [10344, '_60404', 'ResourceRetrival', 'ResourceRetrival'], [10345, '_60405', 'CollectServe', 'CollectServe'],
    ]],
    [10350, '_605', 'PowerAdmin', 'PowerAdmin'],
    [10360, '_606', 'RingAdmin', 'RingAdmin', [
      [10361, '_60601', 'RingList', 'RingList'], [10362, '_60602', 'PointList', 'PointList'], [10363, '_60603', 'HeartList', 'HeartList'],
      [10364, '_60604', 'StepList', 'StepList'], [10365, '_60605', 'RecordingList', 'RecordingList'], [10366, '_60606', 'SignList', 'SignList'],
      [10367, '_60607', 'RingLog', 'RingLog'],
    ]],
  ]],
  [10400, '_7', 'configcenter', '/configcenter', [
    [10410, '_701', 'userAdmin', 'userAdmin', [[10411, '_70101', 'accountAdmin', 'accountAdmin'], [10412, '_70102', 'RoleAdmin', 'RoleAdmin']]],
    [10420, '_702', 'UnitAdmin', 'UnitAdmin'],
    [10430, '_703', 'LogAudit', 'LogAudit', [
      [10431, '_70301', 'OperationLog', 'OperationLog'], [10432, '_70302', 'RecorderLog', 'RecorderLog'], [10433, '_70303', 'WorderLog', 'WorderLog'],
    ]],
    [10440, '_704', 'MapConfig', 'MapConfig', [[10441, '_70401', 'ElectronicFence', 'ElectronicFence'], [10442, '_70402', 'ZoneAdmin', 'ZoneAdmin']]],
    [10450, '_705', 'DataDictionary', 'DataDictionary'],
    [10460, '_706', 'Admin', 'Admin', [
      [10461, '_70601', 'ModuleAdmin', 'ModuleAdmin'], [10462, '_70602', 'SensitiveWordAdmin', 'SensitiveWordAdmin'],
      [10463, '_70603', 'BadFileAdmin', 'BadFileAdmin'], [10464, '_70604', 'BlcakWhiteList', 'BlcakWhiteList'],
    ]],
  ]],
];

function flatten(nodes: Node[], pid: number, parentPath: string, out: ModuleDef[]): ModuleDef[] {
  for (const [id, bh, key, segment, children] of nodes) {
    const path = segment.startsWith('/') ? segment : `${parentPath}/${segment}`;
    out.push({ id, bh, pid, key, path });
    if (children) flatten(children, id, path, out);
  }
  return out;
}

/** The module catalogue, parents before children, in menu order. */
export const MODULES: readonly ModuleDef[] = Object.freeze(flatten(TREE, 0, '', []));

export const MODULE_BY_ID: ReadonlyMap<number, ModuleDef> = new Map(MODULES.map((m) => [m.id, m]));
export const MODULE_BY_BH: ReadonlyMap<string, ModuleDef> = new Map(MODULES.map((m) => [m.bh, m]));

/** Menu ids named by the spec or used by the foundation's routes. */
export const MenuId = {
  SYSTEM: 10001,
  SYSTEM_SETTINGS: 10002,
  DISPATCH_CONFIG: 10003,
  ANNOUNCEMENTS: 10004,
  DOWNLOADS: 10005,
  DISPATCH_ALARM: 10104,
  MONITOR_ALARM: 10154,
  FACE_ALARM: 10095,
  ACCOUNTS: 10411,
  ROLES: 10412,
  UNITS: 10420,
  OPERATION_LOG: 10431,
  DATA_DICTIONARY: 10450,
  EMERGENCY: 10101,
  CLUSTER: 10102,
  HISTORY: 10103,
  MSG_MANAGE: 10105,
  DISPATCH_VIDEO: 10106,
  VOICE_MANAGE: 10107,
  VIDEO_PATROL: 10151,
  MEDIA_GATEWAY: 10341,
  /** downAdmin: the GB devices registered with the SIP platform (issue 16) */
  GB_DEVICES: 10343,
  RECORDERS: 10311,
  RECORDER_MODELS: 10314,
  TRACK: 10153,
  ELECTRONIC_FENCE: 10441,
  ZONES: 10442,
  PLAYBACK: 10152,
  LAW_MEDIA: 10211,
  ALARM_RECORDINGS: 10222,
  SENSITIVE_MEDIA: 10212,
  OUTSIDE_MEDIA: 10213,
  CHECK_RANDOM: 10231,
  CHECK_RECORD: 10232,
  PEER_REVIEW: 10261,
  EDIT_RECORD: 10271,
  DELETED_MEDIA: 10272,
  WORKSTATIONS: 10313,
  SENSITIVE_WORDS: 10462,
} as const;

/**
 * The evidence library's menus (issue 15): the /data/manage screens, the deleted list, history
 * replay and the alarm recordings. An action on any of them opens the library's shared endpoints
 * (routes.ts `evidence`); the server then checks the menu of the screen asked for.
 */
export const EVIDENCE_MENUS = [
  MenuId.LAW_MEDIA,
  MenuId.SENSITIVE_MEDIA,
  MenuId.OUTSIDE_MEDIA,
  MenuId.DELETED_MEDIA,
  MenuId.PLAYBACK,
  MenuId.ALARM_RECORDINGS,
] as const;

/** The archive screens' menus (/data/archive, schemas/cases.ts): their routes' auth rules and the console's routes. */
export const ArchiveMenu = { LAW_DOC: 10221, ALARM_MEDIA: 10222, CASE: 10223, SAMPLE: 10224 } as const;

/** A user's permissions: menu id -> user_auth. */
export type PermissionMap = Record<number, UserAuth>;

export function can(perms: PermissionMap | undefined, menuId: number, action: Action): boolean {
  return perms?.[menuId]?.[action] === 1;
}

/** Ids of a module and all its descendants. */
export function descendantIds(id: number): number[] {
  const out = [id];
  for (const m of MODULES) if (out.includes(m.pid)) out.push(m.id);
  return out;
}
