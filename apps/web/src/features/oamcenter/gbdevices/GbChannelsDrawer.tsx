import type { GbChannel, GbDevice } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Drawer, Empty, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { QueryError } from '../../../components/crud';
import { gbDeviceKeys } from './gbDevices.api';
import { formatPosition } from './format';

export interface GbChannelsDrawerProps {
  /** the device whose channels show; null closed */
  device: GbDevice | null;
  onClose: () => void;
}

/** The channels a GB device reported in its Catalog (videopatrols/detaildevice, as the GB tree reads them). */
export function GbChannelsDrawer({ device, onClose }: GbChannelsDrawerProps) {
  const { t } = useTranslation('oamcenter');
  const devgbid = device?.devgbid ?? '';
  // Catalog PTZType (GB/T 28181-2016 A.2.1): 1 dome, 2 hemisphere, 3 fixed bullet, 4 remote-controlled bullet
  const ptzLabel = (type: number): string => {
    if (type === 1) return t('gbDevice.ptz.dome');
    if (type === 2) return t('gbDevice.ptz.hemisphere');
    if (type === 3) return t('gbDevice.ptz.fixed');
    if (type === 4) return t('gbDevice.ptz.remote');
    return t('gbDevice.ptz.unknown');
  };
  const detail = useQuery({
    queryKey: gbDeviceKeys.detail(devgbid),
    queryFn: ({ signal }) => call('gbDeviceDetail', { devgbid }, { signal }),
    enabled: device !== null,
  });

  const columns: TableColumnsType<GbChannel> = [
    {
      title: t('gbDevice.channel.gbid'),
      dataIndex: 'devgbid',
      key: 'devgbid',
      width: 190,
      className: 'bwc-nowrap',
      fixed: 'left',
    },
    { title: t('gbDevice.channel.name'), dataIndex: 'name', key: 'name', width: 200, ellipsis: true },
    {
      title: t('gbDevice.channel.status'),
      key: 'status',
      width: 80,
      render: (_v, c) =>
        c.status === 1 && device?.lineon === 1 ? (
          <Tag color="green">{t('gbDevice.state.online')}</Tag>
        ) : (
          <Tag>{t('gbDevice.state.offline')}</Tag>
        ),
    },
    {
      title: t('gbDevice.channel.ptz'),
      key: 'ptz',
      width: 110,
      render: (_v, c) => ptzLabel(c.ptztype),
    },
    {
      title: t('gbDevice.channel.model'),
      key: 'model',
      width: 160,
      render: (_v, c) => [c.manufacturer, c.model].filter(Boolean).join(' / ') || '—',
    },
    {
      title: t('gbDevice.channel.position'),
      key: 'position',
      width: 170,
      render: (_v, c) => formatPosition(c.lng, c.lat) ?? t('gbDevice.none'),
    },
    {
      title: t('gbDevice.channel.parent'),
      dataIndex: 'parent',
      key: 'parent',
      width: 190,
      render: (parent: string) => parent || '—',
    },
  ];

  const channels = detail.data?.channels ?? [];
  return (
    <Drawer
      open={device !== null}
      onClose={onClose}
      width={1120}
      title={device ? t('gbDevice.channel.title', { name: device.name }) : ''}
      destroyOnHidden
    >
      <div data-testid="gb-device-channels">
        {detail.isError && !detail.data ? (
          <QueryError error={detail.error} onRetry={() => void detail.refetch()} />
        ) : (
          <>
            <Typography.Paragraph type="secondary">
              {device?.devgbid}
              {detail.data ? ` · ${t('gbDevice.channel.count', { count: channels.length })}` : ''}
            </Typography.Paragraph>
            <Table<GbChannel>
              rowKey="devgbid"
              size="small"
              bordered
              loading={detail.isFetching}
              columns={columns}
              dataSource={channels}
              pagination={channels.length > 20 ? { pageSize: 20 } : false}
              scroll={{ x: 1100 }}
              locale={{
                emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('gbDevice.channel.empty')} />,
              }}
            />
          </>
        )}
      </div>
    </Drawer>
  );
}
