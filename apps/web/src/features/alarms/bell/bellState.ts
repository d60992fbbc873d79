import {
  ALARM_BELL_LINES_MAX,
  ALARM_LEVELS,
  type Alarm,
  type AlarmCounts,
  type AlarmLevel,
  type AlarmListResponse,
} from '@bwc/protocol';

/**
 * The alarm bell's list (spec part 1 sections 2 and 4): unread counts per severity and the rows of
 * each severity tab. Pure: the widget feeds it the REST snapshot, the pushed alarms and the
 * operator's read actions.
 */
export interface BellState {
  counts: AlarmCounts;
  lines: Record<AlarmLevel, Alarm[]>;
}

export type BellAction =
  /** the alarm list answer (first load and after every push-channel reconnect) */
  | { type: 'snapshot'; data: AlarmListResponse }
  /** an alarm_data push */
  | { type: 'pushed'; alarm: Alarm }
  /** the server accepted marking this alarm read */
  | { type: 'read'; id: number }
  /** the server accepted mark-all-read */
  | { type: 'readAll' };

export const EMPTY_BELL: BellState = {
  counts: { total: 0, criticle: 0, middle: 0, normal: 0 },
  lines: { criticle: [], middle: [], normal: [] },
};

/** Severity tab index as the history route's `alarmNavActive` query names it (0 criticle, 1 middle, 2 normal). */
export function navActiveOf(level: AlarmLevel): number {
  return ALARM_LEVELS.indexOf(level);
}

export function bellReducer(state: BellState, action: BellAction): BellState {
  switch (action.type) {
    case 'snapshot':
      return {
        counts: { ...action.data.count },
        lines: {
          criticle: [...action.data.lines.criticle],
          middle: [...action.data.lines.middle],
          normal: [...action.data.lines.normal],
        },
      };
    case 'pushed': {
      const level = action.alarm.alerm_level;
      // a push that crossed the snapshot (reconnect) is already listed: counting it again would lie
      if (ALARM_LEVELS.some((l) => state.lines[l].some((row) => row.id === action.alarm.id))) return state;
      const row: Alarm = { ...action.alarm, hasRead: 0, status: '0' };
      return {
        counts: { ...state.counts, total: state.counts.total + 1, [level]: state.counts[level] + 1 },
        lines: { ...state.lines, [level]: [row, ...state.lines[level]].slice(0, ALARM_BELL_LINES_MAX) },
      };
    }
    case 'read': {
      for (const level of ALARM_LEVELS) {
        const rows = state.lines[level];
        const at = rows.findIndex((row) => row.id === action.id);
        if (at < 0) continue;
        if (rows[at]!.hasRead === 1) return state;
        const next = [...rows];
        next[at] = { ...rows[at]!, hasRead: 1, status: '1' };
        return {
          counts: {
            ...state.counts,
            total: Math.max(0, state.counts.total - 1),
            [level]: Math.max(0, state.counts[level] - 1),
          },
          lines: { ...state.lines, [level]: next },
        };
      }
      return state;
    }
    case 'readAll':
      return EMPTY_BELL;
  }
}

/** Two-digit row number of the table (the server's `index` numbers its own answer, pushes shift it). */
export function rowIndex(position: number): string {
  return String(position + 1).padStart(2, '0');
}
