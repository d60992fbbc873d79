import { call } from '../../api/http';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Empty, Modal, Spin } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { AddressLocation } from '../../components/address-location';
import { CapabilityFlags, DeviceStateTag } from './DeviceState';
import { resolveAddress } from './address';

interface Props {
  id: number | null;
  mapOn: boolean;
  onClose: () => void;
}

export function formatTime(iso: string | null): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '-';
}

/** Detail dialog of one device (get_devicedetail); an unknown id says so. */
export function DeviceDetailDialog({ id, mapOn, onClose }: Props) {
  const { t } = useTranslation('dispatch');
  const detail = useQuery({
    queryKey: ['dispatch', 'deviceDetail', id],
    queryFn: ({ signal }) => call('gisDeviceDetail', { ids: [id] }, { signal }),
    enabled: id !== null,
  });
  const device = detail.data?.[0];
  return (
    <Modal open={id !== null} title={t('detail.title')} width={640} footer={null} onCancel={onClose} destroyOnHidden>
      {detail.isLoading ? (
        <Spin />
      ) : !device ? (
        <Empty description={t('detail.notFound')} />
      ) : (
        <Descriptions bordered size="small" column={2} data-testid="device-detail">
          <Descriptions.Item label={t('host.name')}>{device.hostname}</Descriptions.Item>
          <Descriptions.Item label={t('detail.hostcode')}>{device.hostcode || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('host.hostbody')}>{device.did}</Descriptions.Item>
          <Descriptions.Item label="IMEI">{device.imei}</Descriptions.Item>
          <Descriptions.Item label={t('detail.unit')}>{device.unitname}</Descriptions.Item>
          <Descriptions.Item label={t('detail.model')}>{device.model_name || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('detail.cluster')}>{device.jq_hostcode || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('detail.state')}>
            <DeviceStateTag point={device} />
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.flags')} span={2}>
            <CapabilityFlags typecate={device.typecate} />
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.battery')}>
            {device.battery === null ? '-' : `${device.battery}%`}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.speed')}>
            {device.speed === null ? '-' : `${device.speed} km/h`}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.gpsTime')}>{formatTime(device.gps_time)}</Descriptions.Item>
          <Descriptions.Item label={t('detail.lastSeen')}>{formatTime(device.last_seen)}</Descriptions.Item>
          <Descriptions.Item label={t('detail.position')} span={2}>
            <AddressLocation lng={device.lng} lat={device.lat} mapOn={mapOn} resolve={resolveAddress} />
          </Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
