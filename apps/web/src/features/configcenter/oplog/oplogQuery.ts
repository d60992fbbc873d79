import { apiNameOfPath, Routes, type AuditedEndpoint } from '@bwc/protocol';
import dayjs from 'dayjs';
import type { FilterValues } from '../../../components/search-bar';
import { keysOf } from '../../../i18n/keys';

/**
 * The operations of the log (the protocol's AUDITED_ENDPOINTS, every one: the type checks it), with
 * their labels in the `configcenter` catalogue; the filter offers them.
 */
export const OPLOG_ACTION_LABELS = keysOf('configcenter', {
  login: 'oplog.actionName.login',
  logout: 'oplog.actionName.logout',
  changePassword: 'oplog.actionName.changePassword',
  register: 'oplog.actionName.register',
  settingsUpdate: 'oplog.actionName.settingsUpdate',
  playUpdate: 'oplog.actionName.playUpdate',
  gbPtz: 'oplog.actionName.gbPtz',
  gbDeviceUpdate: 'oplog.actionName.gbDeviceUpdate',
  gbDeviceRefresh: 'oplog.actionName.gbDeviceRefresh',
  uploadBackground: 'oplog.actionName.uploadBackground',
  announceAdd: 'oplog.actionName.announceAdd',
  announceUpdatePost: 'oplog.actionName.announceUpdatePost',
  announceDelete: 'oplog.actionName.announceDelete',
  announcePublish: 'oplog.actionName.announcePublish',
  downloadAdd: 'oplog.actionName.downloadAdd',
  downloadUpdate: 'oplog.actionName.downloadUpdate',
  downloadDelete: 'oplog.actionName.downloadDelete',
  downloadIsIndex: 'oplog.actionName.downloadIsIndex',
  unitAdd: 'oplog.actionName.unitAdd',
  unitUpdate: 'oplog.actionName.unitUpdate',
  unitMove: 'oplog.actionName.unitMove',
  unitDelete: 'oplog.actionName.unitDelete',
  accountAdd: 'oplog.actionName.accountAdd',
  accountUpdate: 'oplog.actionName.accountUpdate',
  accountStatus: 'oplog.actionName.accountStatus',
  accountResetPassword: 'oplog.actionName.accountResetPassword',
  accountDelete: 'oplog.actionName.accountDelete',
  forceOffline: 'oplog.actionName.forceOffline',
  roleAdd: 'oplog.actionName.roleAdd',
  roleUpdate: 'oplog.actionName.roleUpdate',
  roleDelete: 'oplog.actionName.roleDelete',
  roleAuthUpdate: 'oplog.actionName.roleAuthUpdate',
  dictAdd: 'oplog.actionName.dictAdd',
  dictUpdate: 'oplog.actionName.dictUpdate',
  dictDelete: 'oplog.actionName.dictDelete',
  logExport: 'oplog.actionName.logExport',
  deviceAdd: 'oplog.actionName.deviceAdd',
  deviceUpdate: 'oplog.actionName.deviceUpdate',
  deviceDelete: 'oplog.actionName.deviceDelete',
  deviceResetSecret: 'oplog.actionName.deviceResetSecret',
  deviceImport: 'oplog.actionName.deviceImport',
  deviceSettingsUpdate: 'oplog.actionName.deviceSettingsUpdate',
  deviceProvision: 'oplog.actionName.deviceProvision',
  workstationAdd: 'oplog.actionName.workstationAdd',
  workstationUpdate: 'oplog.actionName.workstationUpdate',
  workstationDelete: 'oplog.actionName.workstationDelete',
  workstationResetSecret: 'oplog.actionName.workstationResetSecret',
  workstationProvision: 'oplog.actionName.workstationProvision',
  modelAdd: 'oplog.actionName.modelAdd',
  modelUpdate: 'oplog.actionName.modelUpdate',
  modelDelete: 'oplog.actionName.modelDelete',
  gisSendRestart: 'oplog.actionName.gisSendRestart',
  gisSendCmd: 'oplog.actionName.gisSendCmd',
  gisRemoteKill: 'oplog.actionName.gisRemoteKill',
  fenceAdd: 'oplog.actionName.fenceAdd',
  fenceUpdate: 'oplog.actionName.fenceUpdate',
  fenceDelete: 'oplog.actionName.fenceDelete',
  zoneAdd: 'oplog.actionName.zoneAdd',
  zoneUpdate: 'oplog.actionName.zoneUpdate',
  zoneDelete: 'oplog.actionName.zoneDelete',
  groupAdd: 'oplog.actionName.groupAdd',
  groupFromDevices: 'oplog.actionName.groupFromDevices',
  groupEdit: 'oplog.actionName.groupEdit',
  groupDelete: 'oplog.actionName.groupDelete',
  messAdd: 'oplog.actionName.messAdd',
  messSaveEdit: 'oplog.actionName.messSaveEdit',
  messDelete: 'oplog.actionName.messDelete',
  messSend: 'oplog.actionName.messSend',
  mapUpload: 'oplog.actionName.mapUpload',
  mapFileDelete: 'oplog.actionName.mapFileDelete',
  geocodeSettingsUpdate: 'oplog.actionName.geocodeSettingsUpdate',
  trackExport: 'oplog.actionName.trackExport',
  alarmSure: 'oplog.actionName.alarmSure',
  alarmGbSure: 'oplog.actionName.alarmGbSure',
  alarmSureAll: 'oplog.actionName.alarmSureAll',
  alarmGbSureAll: 'oplog.actionName.alarmGbSureAll',
  alarmExport: 'oplog.actionName.alarmExport',
  alarmGbExport: 'oplog.actionName.alarmGbExport',
  mediaFlag: 'oplog.actionName.mediaFlag',
  mediaFlagAll: 'oplog.actionName.mediaFlagAll',
  mediaRevise: 'oplog.actionName.mediaRevise',
  mediaEditAll: 'oplog.actionName.mediaEditAll',
  mediaDelete: 'oplog.actionName.mediaDelete',
  mediaRevert: 'oplog.actionName.mediaRevert',
  mediaHardDelete: 'oplog.actionName.mediaHardDelete',
  mediaDownload: 'oplog.actionName.mediaDownload',
  retentionUpdate: 'oplog.actionName.retentionUpdate',
  retentionRun: 'oplog.actionName.retentionRun',
  sensitiveWordAdd: 'oplog.actionName.sensitiveWordAdd',
  sensitiveWordEdit: 'oplog.actionName.sensitiveWordEdit',
  sensitiveWordDelete: 'oplog.actionName.sensitiveWordDelete',
  accessFromAdd: 'oplog.actionName.accessFromAdd',
  accessFromDel: 'oplog.actionName.accessFromDel',
  accessToSave: 'oplog.actionName.accessToSave',
  shareAdd: 'oplog.actionName.shareAdd',
  shareRevoke: 'oplog.actionName.shareRevoke',
  mediaDownloadAll: 'oplog.actionName.mediaDownloadAll',
  mediaCustodyExport: 'oplog.actionName.mediaCustodyExport',
  mediaScoreUpdate: 'oplog.actionName.mediaScoreUpdate',
  rubricAdd: 'oplog.actionName.rubricAdd',
  rubricEdit: 'oplog.actionName.rubricEdit',
  rubricActive: 'oplog.actionName.rubricActive',
  checkDraw: 'oplog.actionName.checkDraw',
  checkResult: 'oplog.actionName.checkResult',
  replaySave: 'oplog.actionName.replaySave',
  replayDownload: 'oplog.actionName.replayDownload',
  mediafileDownload: 'oplog.actionName.mediafileDownload',
  playbackFlag: 'oplog.actionName.playbackFlag',
  incidentAdd: 'oplog.actionName.incidentAdd',
  incidentCancel: 'oplog.actionName.incidentCancel',
  incidentMediaWrite: 'oplog.actionName.incidentMediaWrite',
  incidentSend: 'oplog.actionName.incidentSend',
  caseAdd: 'oplog.actionName.caseAdd',
  caseCancel: 'oplog.actionName.caseCancel',
  caseMediaWrite: 'oplog.actionName.caseMediaWrite',
  archiveEdit: 'oplog.actionName.archiveEdit',
  violationAdd: 'oplog.actionName.violationAdd',
  violationCancel: 'oplog.actionName.violationCancel',
  violationClose: 'oplog.actionName.violationClose',
  violationMediaWrite: 'oplog.actionName.violationMediaWrite',
  sampleAdd: 'oplog.actionName.sampleAdd',
  sampleDel: 'oplog.actionName.sampleDel',
} satisfies Record<AuditedEndpoint, string>);

export type OplogAction = keyof typeof OPLOG_ACTION_LABELS;
export const OPLOG_ACTIONS = Object.keys(OPLOG_ACTION_LABELS) as OplogAction[];

/** The label key of a logged endpoint path, or null when the console has no name for it (the path is shown). */
export function actionLabelKey(path: string): string | null {
  const name = apiNameOfPath(path);
  return name && name in OPLOG_ACTION_LABELS ? OPLOG_ACTION_LABELS[name as OplogAction] : null;
}

export function actionPath(name: OplogAction): string {
  return Routes[name].path;
}

/**
 * The list / export query of the search bar's filters: times picked in the browser's time zone
 * (`YYYY-MM-DD HH:mm:ss`) go out as ISO UTC instants, which is how the log stores them.
 */
export function oplogQuery(filters: FilterValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) {
    if (typeof value !== 'string' || value === '') continue;
    if (name === 'start' || name === 'end') {
      const instant = dayjs(value);
      if (instant.isValid()) out[name] = instant.toISOString();
    } else out[name] = value;
  }
  return out;
}
