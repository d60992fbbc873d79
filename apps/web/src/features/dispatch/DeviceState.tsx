import type { DevicePoint } from '@bwc/protocol';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATE_COLORS } from '../../map/images';
import { keysOf } from '../../i18n/keys';
import { markerState, type DeviceMarkerState } from '../../map/points';

const STATE_LABELS = keysOf('dispatch', {
  online: 'state.online',
  offline: 'state.offline',
  killed: 'state.killed',
  sos: 'state.sos',
} satisfies Record<DeviceMarkerState, string>);
/** capability flags 1 to 3 of typecate */
const FLAG_LABELS = keysOf('dispatch', { 1: 'flags.flag1', 2: 'flags.flag2', 3: 'flags.flag3' });

/** State tag of a device (online, offline, remotely killed, SOS) as the map icon shows it. */
export function DeviceStateTag({
  point,
  sos = false,
}: {
  point: Pick<DevicePoint, 'lineon' | 'remote_kill'>;
  sos?: boolean;
}) {
  const { t } = useTranslation('dispatch');
  const state = markerState(point, sos);
  return (
    <Tag color={STATE_COLORS[state]} data-testid="device-state" data-state={state}>
      {t(STATE_LABELS[state])}
    </Tag>
  );
}

/** Capability flags 1 to 3 of typecate (0 after a remote kill). */
export function CapabilityFlags({ typecate }: { typecate: number[] }) {
  const { t } = useTranslation('dispatch');
  return (
    <Space size={4} data-testid="device-flags" data-flags={typecate.slice(1).join(',')}>
      {typecate.slice(1, 4).map((flag, index) => (
        <Tag key={index} color={flag === 1 ? 'blue' : 'default'}>
          {t(FLAG_LABELS[(index + 1) as 1 | 2 | 3])} {flag === 1 ? t('flags.on') : t('flags.off')}
        </Tag>
      ))}
    </Space>
  );
}
