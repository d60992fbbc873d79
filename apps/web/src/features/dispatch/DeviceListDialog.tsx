import { GROUP_TEMP_TTL_H, HOST_LIST_PAGE_SIZE, MenuId, type DevicePoint } from '@bwc/protocol';
import { Alert, Button, Modal, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Permission } from '../../app/session/Permission';
import { NameWithCode } from '../../components/data-table';
import { BroadcastButton } from './broadcast/BroadcastButton';
import { DeviceActionsBar } from './DeviceActionsBar';
import { CapabilityFlags, DeviceStateTag } from './DeviceState';
import type { useDeviceActions } from './deviceActions';

interface Props {
  open: boolean;
  /** the devices of the selection, kept current by the caller */
  devices: DevicePoint[];
  /** opened by the voice broadcast tool */
  broadcast: boolean;
  actions: ReturnType<typeof useDeviceActions>;
  onDetail: (point: DevicePoint) => void;
  onClose: () => void;
}

/** Devices selected on the map: state, flags and commands; a temporary group from them, or a voice broadcast to them. */
export function DeviceListDialog({ open, devices, broadcast, actions, onDetail, onClose }: Props) {
  const { t } = useTranslation('dispatch');
  return (
    <Modal
      open={open}
      title={t(broadcast ? 'selection.broadcastTitle' : 'selection.title', { count: devices.length })}
      width={880}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <>
          {broadcast ? (
            <BroadcastButton devices={devices} actions={actions} onStarted={onClose} />
          ) : (
            <Permission menu={MenuId.EMERGENCY} action="add">
              <Button onClick={() => void actions.temporaryGroup(devices)}>{t('group.fromSelection')}</Button>
            </Permission>
          )}
          <Button type="primary" onClick={onClose}>
            {t('action.close')}
          </Button>
        </>
      }
    >
      {broadcast && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('broadcast.explain', { hours: GROUP_TEMP_TTL_H })}
        />
      )}
      <Table<DevicePoint>
        data-testid="selection-table"
        rowKey="id"
        size="small"
        bordered
        dataSource={devices}
        pagination={
          devices.length > HOST_LIST_PAGE_SIZE ? { pageSize: HOST_LIST_PAGE_SIZE, showSizeChanger: false } : false
        }
        columns={[
          { title: t('host.index'), key: 'index', width: 55, render: (_v, _r, i) => String(i + 1).padStart(2, '0') },
          {
            title: t('host.name'),
            key: 'name',
            render: (_v, row) => <NameWithCode name={row.hostname} code={row.hostcode} />,
          },
          { title: t('host.hostbody'), dataIndex: 'did', key: 'did', className: 'bwc-nowrap' },
          { title: t('detail.state'), key: 'state', render: (_v, row) => <DeviceStateTag point={row} /> },
          { title: t('detail.flags'), key: 'flags', render: (_v, row) => <CapabilityFlags typecate={row.typecate} /> },
          {
            title: t('host.operation'),
            key: 'op',
            render: (_v, row) => <DeviceActionsBar point={row} actions={actions} onDetail={onDetail} />,
          },
        ]}
      />
    </Modal>
  );
}
