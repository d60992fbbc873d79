import { Api, apiNameOfPath, type ApiName } from '@bwc/protocol';
import dayjs from 'dayjs';
import type { FilterValues } from '../../../components/search-bar';

/** Audited actions the filter offers, with a label each in `configcenter:oplog.actionName.<name>`. */
export const OPLOG_ACTIONS = [
  'login',
  'logout',
  'changePassword',
  'register',
  'settingsUpdate',
  'playUpdate',
  'uploadBackground',
  'announceAdd',
  'announceUpdatePost',
  'announceDelete',
  'announcePublish',
  'downloadAdd',
  'downloadUpdate',
  'downloadDelete',
  'downloadIsIndex',
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
] as const satisfies readonly ApiName[];

const LABELLED: ReadonlySet<string> = new Set(OPLOG_ACTIONS);

/** The label key of a logged endpoint path, or null when the console has no name for it (the path is shown). */
export function actionLabelKey(path: string): string | null {
  const name = apiNameOfPath(path);
  return name && LABELLED.has(name) ? `oplog.actionName.${name}` : null;
}

export function actionPath(name: (typeof OPLOG_ACTIONS)[number]): string {
  return Api[name].path;
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
