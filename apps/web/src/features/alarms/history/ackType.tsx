import { ACK_TYPES, AckType } from '@bwc/protocol';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { keysOf } from '../../../i18n/keys';

/** How an alarm was acknowledged, by AckType. */
export const ACK_LABELS = keysOf('alarm', {
  [AckType.HANDLED]: 'ack.handled',
  [AckType.FALSE_ALARM]: 'ack.falseAlarm',
  [AckType.TRANSFERRED]: 'ack.transferred',
} satisfies Record<AckType, string>);

const ACK_COLORS: Record<AckType, string> = {
  [AckType.HANDLED]: 'green',
  [AckType.FALSE_ALARM]: 'default',
  [AckType.TRANSFERRED]: 'blue',
};

const isKnown = (type: number): type is AckType => (ACK_TYPES as readonly number[]).includes(type);

/** The outcome of an acknowledgement (nothing for alarms acknowledged before it was recorded). */
export function AckTypeTag({ type }: { type: number | null }) {
  const { t } = useTranslation('alarm');
  if (type === null) return null;
  return (
    <Tag color={isKnown(type) ? ACK_COLORS[type] : 'default'} data-testid="alarm-ack-type" data-type={type}>
      {isKnown(type) ? t(ACK_LABELS[type]) : t('ack.other', { type })}
    </Tag>
  );
}
