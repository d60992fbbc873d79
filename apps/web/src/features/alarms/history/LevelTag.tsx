import type { AlarmLevel } from '@bwc/protocol';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { LEVEL_COLORS, LEVEL_LABELS } from '../levels';

/** Severity as a coloured tag in the user's language. */
export function LevelTag({ level }: { level: AlarmLevel }) {
  const { t } = useTranslation('alarm');
  return <Tag color={LEVEL_COLORS[level]}>{t(LEVEL_LABELS[level])}</Tag>;
}
