import type { ApiName } from './endpoints';

/**
 * The operations of the operation log (OperationLog, menu 10431): the endpoints that change state
 * an operator answers for, and the exports of data. Each is written with who, unit, target, source
 * address and result; the console names it by its label. Reads are not operations, even those the
 * spec sends as POST (lists, searches, trees, points), nor is the traffic of devices and the AI
 * engine (positions, SOS, state: their own histories keep it), nor a console's own heartbeat and
 * read marks. A new endpoint that changes state belongs here (the parity tests check the labels).
 */
export const AUDITED_ENDPOINTS = [
  // session and system
  'login',
  'logout',
  'changePassword',
  'register',
  'settingsUpdate',
  'playUpdate',
  // GB28181: PTZ and presets of a GB camera
  'gbPtz',
  'gbDeviceUpdate',
  'gbDeviceRefresh',
  'uploadBackground',
  'announceAdd',
  'announceUpdatePost',
  'announceDelete',
  'announcePublish',
  'downloadAdd',
  'downloadUpdate',
  'downloadDelete',
  'downloadIsIndex',
  // organisation
  'unitAdd',
  'unitUpdate',
  'unitMove',
  'unitDelete',
  'accountAdd',
  'accountUpdate',
  'accountStatus',
  'accountResetPassword',
  'accountDelete',
  'forceOffline',
  'roleAdd',
  'roleUpdate',
  'roleDelete',
  'roleAuthUpdate',
  'dictAdd',
  'dictUpdate',
  'dictDelete',
  'logExport',
  // devices
  'deviceAdd',
  'deviceUpdate',
  'deviceDelete',
  'deviceResetSecret',
  'deviceImport',
  'deviceSettingsUpdate',
  'deviceProvision',
  'workstationAdd',
  'workstationUpdate',
  'workstationDelete',
  'workstationResetSecret',
  'workstationProvision',
  'modelAdd',
  'modelUpdate',
  'modelDelete',
  'gisSendRestart',
  'gisSendCmd',
  'gisRemoteKill',
  // map, fences, zones, groups
  'fenceAdd',
  'fenceUpdate',
  'fenceDelete',
  'zoneAdd',
  'zoneUpdate',
  'zoneDelete',
  'groupAdd',
  'groupFromDevices',
  'groupEdit',
  'groupDelete',
  'messAdd',
  'messSaveEdit',
  'messDelete',
  'messSend',
  'mapUpload',
  'mapFileDelete',
  'geocodeSettingsUpdate',
  'trackExport',
  // alarms
  'alarmSure',
  'alarmGbSure',
  'alarmSureAll',
  'alarmGbSureAll',
  'alarmExport',
  'alarmGbExport',
  // evidence library (the custody chain records each item's views and plays as well)
  'mediaFlag',
  'mediaFlagAll',
  'mediaRevise',
  'mediaEditAll',
  'mediaDelete',
  'mediaRevert',
  'mediaHardDelete',
  'mediaDownload',
  // retention and sensitive words
  'retentionUpdate',
  'retentionRun',
  'sensitiveWordAdd',
  'sensitiveWordEdit',
  'sensitiveWordDelete',
  'mediaDownloadAll',
  'mediaCustodyExport',
  // scores and random checks (each also on the item's custody chain)
  'mediaScoreUpdate',
  'rubricAdd',
  'rubricEdit',
  'rubricActive',
  'checkDraw',
  'checkResult',
  // access requests and share links (the custody chain records grants and each share visit as well)
  'accessFromAdd',
  'accessFromDel',
  'accessToSave',
  'shareAdd',
  'shareRevoke',
  // history replay (revisions, marks and downloads through the library)
  'replaySave',
  'replayDownload',
  'mediafileDownload',
  'playbackFlag',
  // incidents, cases, files (the custody chain records each link and unlink as well)
  'incidentAdd',
  'incidentCancel',
  'incidentMediaWrite',
  'incidentSend',
  'caseAdd',
  'caseCancel',
  'caseMediaWrite',
  'archiveEdit',
  'violationAdd',
  'violationCancel',
  'violationClose',
  'violationMediaWrite',
  'sampleAdd',
  'sampleDel',
] as const satisfies readonly ApiName[];

export type AuditedEndpoint = (typeof AUDITED_ENDPOINTS)[number];

const audited: ReadonlySet<string> = new Set(AUDITED_ENDPOINTS);

/** Whether a request to this endpoint is written to the operation log. */
export function isAudited(name: ApiName): name is AuditedEndpoint {
  return audited.has(name);
}
