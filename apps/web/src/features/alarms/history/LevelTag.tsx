import type { AlarmLevel } from '@bwc/protocol';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export const LEVEL_COLORS: Record<AlarmLevel, string> = { criticle: 'red', middle: 'orange', normal: 'blue' };

/** Severity as a coloured tag in the user's language. */
export function LevelTag({ level }: { level: AlarmLevel }) {
  const { t } = useTranslation('alarm');
  return <Tag color={LEVEL_COLORS[level]}>{t(`level.${level}`)}</Tag>;
}
