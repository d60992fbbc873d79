import { MenuId, type DevicePoint } from '@bwc/protocol';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Permission } from '../../app/session/Permission';
import type { useDeviceActions } from './deviceActions';

interface Props {
  point: DevicePoint;
  actions: ReturnType<typeof useDeviceActions>;
  onDetail: (point: DevicePoint) => void;
  /** opens the device's conversation in the messages tab (when the console service is on) */
  onMessage?: (point: DevicePoint) => void;
}

/** Detail, message, remote restart and remote kill / wake of one device. */
export function DeviceActionsBar({ point, actions, onDetail, onMessage }: Props) {
  const { t } = useTranslation('dispatch');
  return (
    <Space size={4} wrap>
      <Button size="small" type="link" onClick={() => onDetail(point)}>
        {t('action.detail')}
      </Button>
      {onMessage && (
        <Button size="small" type="link" data-testid="info-message" onClick={() => onMessage(point)}>
          {t('im.message')}
        </Button>
      )}
      <Permission menu={MenuId.EMERGENCY} action="edit">
        <Button size="small" type="link" onClick={() => actions.restart(point)}>
          {t('action.restart')}
        </Button>
        {point.remote_kill === 1 ? (
          <Button size="small" type="link" onClick={() => actions.remote(point, 'remote_wakeon')}>
            {t('action.wake')}
          </Button>
        ) : (
          <Button size="small" type="link" danger onClick={() => actions.remote(point, 'remote_kill')}>
            {t('action.kill')}
          </Button>
        )}
      </Permission>
    </Space>
  );
}
