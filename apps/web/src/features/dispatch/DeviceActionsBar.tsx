import { MenuId, SEND_CMD_TYPES, type DevicePoint } from '@bwc/protocol';
import { Button, Dropdown, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { Permission } from '../../app/session/Permission';
import { COMMAND_KEYS } from '../video/LiveView';
import { liveDeviceOfPoint } from '../video/liveSource';
import { openLive } from '../video/openLive';
import type { useDeviceActions } from './deviceActions';

interface Props {
  point: DevicePoint;
  actions: ReturnType<typeof useDeviceActions>;
  onDetail: (point: DevicePoint) => void;
  /** opens the device's conversation in the messages tab (when the console service is on) */
  onMessage?: (point: DevicePoint) => void;
}

/**
 * Detail, live video (a floating player; an offline device has none), message, camera commands
 * (send_cmd: the answer's msg is shown), remote restart and remote kill / wake of one device.
 */
export function DeviceActionsBar({ point, actions, onDetail, onMessage }: Props) {
  const { t } = useTranslation('dispatch');
  const { t: tv } = useTranslation('video');
  const online = point.lineon === 1 && point.remote_kill !== 1;
  return (
    <Space size={4} wrap>
      <Button size="small" type="link" onClick={() => onDetail(point)}>
        {t('action.detail')}
      </Button>
      <Button
        size="small"
        type="link"
        data-testid="info-live"
        disabled={!online}
        title={online ? undefined : tv('action.offline')}
        onClick={() => openLive(liveDeviceOfPoint(point))}
      >
        {tv('action.live')}
      </Button>
      {onMessage && (
        <Button size="small" type="link" data-testid="info-message" onClick={() => onMessage(point)}>
          {t('im.message')}
        </Button>
      )}
      <Permission menu={MenuId.EMERGENCY} action="edit">
        <Dropdown
          trigger={['click']}
          disabled={!online}
          menu={{
            items: SEND_CMD_TYPES.map((type) => ({ key: type, label: tv(COMMAND_KEYS[type]) })),
            onClick: ({ key }) => {
              const type = SEND_CMD_TYPES.find((known) => known === key);
              if (type) void call('gisSendCmd', { imei: point.imei, type }, { success: true }).catch(() => {});
            },
          }}
        >
          <Button size="small" type="link" data-testid="info-commands">
            {tv('action.commands')}
          </Button>
        </Dropdown>
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
