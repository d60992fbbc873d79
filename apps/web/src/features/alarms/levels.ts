import type { AlarmLevel } from '@bwc/protocol';
import { keysOf } from '../../i18n/keys';

export const LEVEL_COLORS: Record<AlarmLevel, string> = { criticle: 'red', middle: 'orange', normal: 'blue' };

/** Severity labels, in the `alarm` catalogue (alarm history and the bell). */
export const LEVEL_LABELS = keysOf('alarm', {
  criticle: 'level.criticle',
  middle: 'level.middle',
  normal: 'level.normal',
} satisfies Record<AlarmLevel, string>);
