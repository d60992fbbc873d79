import { ALARM_LEVELS, MenuId, Routes, type AlarmLevel } from '@bwc/protocol';
import dayjs from 'dayjs';
import type { FilterValues } from '../../../components/search-bar';

/** The two history pages: DispatchAlarmHistory (/dispatch/alarm) and AlarmHistory (/monitor/alarm, GB). */
export type HistoryMode = 'dispatch' | 'gb';

export interface HistoryApis {
  menu: number;
  search: 'alarmSearch' | 'alarmGbSearch';
  export: 'alarmExport' | 'alarmGbExport';
  sure: 'alarmSure' | 'alarmGbSure';
  sureAll: 'alarmSureAll' | 'alarmGbSureAll';
}

/** Endpoints and menu of each page (permissions on the server: view to read, edit to acknowledge). */
export const HISTORY_APIS: Record<HistoryMode, HistoryApis> = {
  dispatch: {
    menu: MenuId.DISPATCH_ALARM,
    search: 'alarmSearch',
    export: 'alarmExport',
    sure: 'alarmSure',
    sureAll: 'alarmSureAll',
  },
  gb: {
    menu: MenuId.MONITOR_ALARM,
    search: 'alarmGbSearch',
    export: 'alarmGbExport',
    sure: 'alarmGbSure',
    sureAll: 'alarmGbSureAll',
  },
};

/** URL parameter of the severity tab (the bell's view-all sets it): 0 criticle, 1 middle, 2 normal. */
export const NAV_PARAM = 'alarmNavActive';

/** The severity tab of a URL parameter; anything else (absent, 'all', 7, 'x') is every severity. */
export function navActiveOf(param: string | null | undefined): 0 | 1 | 2 | null {
  if (param === '0' || param === '1' || param === '2') return Number(param) as 0 | 1 | 2;
  return null;
}

export function levelOfNav(nav: 0 | 1 | 2): AlarmLevel {
  return ALARM_LEVELS[nav];
}

/** Filter names of the search bar (URL parameters and wire fields). */
export const FILTERS = {
  start: 'start',
  end: 'end',
  type: 'type',
  unit: 'unit_id',
  device: 'device',
  read: 'read',
  sure: 'sure',
} as const;

const PASSED: ReadonlySet<string> = new Set([FILTERS.type, FILTERS.unit, FILTERS.device, FILTERS.read, FILTERS.sure]);

/**
 * The search / export payload of the search bar's filters and the severity tab. Times picked in
 * the browser's time zone (`YYYY-MM-DD HH:mm:ss`) go out as ISO instants, which is how alarms
 * are stored; a unit picked as `device:<id>` (a terminal) is not a unit and is left out; empty
 * values are left out; anything else the URL carries is ignored.
 */
export function historyQuery(filters: FilterValues, nav: 0 | 1 | 2 | null): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, raw] of Object.entries(filters)) {
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value.trim() === '') continue;
    if (name === FILTERS.start || name === FILTERS.end) {
      const instant = dayjs(value);
      if (instant.isValid()) out[name] = instant.toISOString();
    } else if (name === FILTERS.unit) {
      if (/^\d+$/.test(value)) out[name] = Number(value);
    } else if (PASSED.has(name)) out[name] = value.trim();
  }
  if (nav !== null) out[NAV_PARAM] = nav;
  return out;
}

/** The URL of an alarm picture file (names are relative to web_root, the alarmPicFile path). */
export function pictureUrl(name: string, webRoot: string = Routes.alarmPicFile.path.replace(':name', '')): string {
  if (!name) return '';
  if (/^(https?:|data:|\/)/.test(name)) return name;
  return `${webRoot.endsWith('/') ? webRoot : `${webRoot}/`}${encodeURIComponent(name)}`;
}
