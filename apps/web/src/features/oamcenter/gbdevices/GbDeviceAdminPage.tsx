import { MenuId, type GbDevice, type GbPlayerConfig } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useGbMode } from '../../../app/session/useGbMode';
import { CrudTable, useCrud } from '../../../components/crud';
import type { DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { unitSearchItem } from '../../../components/unit-tree';
import { oamKeys } from '../oamcenter.api';
import { call } from '../../../api/http';
import { gbLocalTime } from '../../video/gb/gbTime';
import { formatDeviceInfo, formatPosition } from './format';
import { GbChannelsDrawer } from './GbChannelsDrawer';
import { GbDeviceFormDialog } from './GbDeviceFormDialog';
import { fetchGbConfig, fetchGbDevices, gbDeviceKeys } from './gbDevices.api';

/** The GB settings page the "GB mode is off" notice links to. */
export const GB_SETTINGS_PATH = '/system/player/gbconfig';

/** Why the list may be empty: GB mode off (with a link to its settings), or where devices register. */
function GbNotice({ config, gbOn, none }: { config: GbPlayerConfig | null; gbOn: boolean; none: boolean }) {
  const { t } = useTranslation('oamcenter');
  if (!gbOn)
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="gb-devices-off"
        message={t('gbDevice.off.title')}
        description={
          <>
            {t('gbDevice.off.body')} <Link to={GB_SETTINGS_PATH}>{t('gbDevice.off.link')}</Link>
          </>
        }
        style={{ marginBottom: 16 }}
      />
    );
  if (!none) return null;
  const sip = config?.ocx_config;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="gb-devices-empty"
      message={t('gbDevice.empty.title')}
      description={
        sip ? (
          <>
            <Typography.Paragraph style={{ marginBottom: 8 }}>{t('gbDevice.empty.body')}</Typography.Paragraph>
            <Descriptions size="small" column={1} bordered style={{ maxWidth: 560 }}>
              <Descriptions.Item label={t('gbDevice.empty.sipId')}>{sip.ocxSip}</Descriptions.Item>
              <Descriptions.Item label={t('gbDevice.empty.domain')}>{sip.SipDomain}</Descriptions.Item>
              <Descriptions.Item label={t('gbDevice.empty.address')}>
                <span data-testid="gb-devices-sip-address">{`${sip.ocxIp}:${sip.ocxPort}`}</span>
              </Descriptions.Item>
            </Descriptions>
            <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
              {t('gbDevice.empty.password')}
            </Typography.Paragraph>
          </>
        ) : (
          t('gbDevice.empty.password')
        )
      }
      style={{ marginBottom: 16 }}
    />
  );
}

/** /oamcenter/PlatformAdmin/downAdmin: the GB28181 devices that registered, in the caller's unit scope. */
export function GbDeviceAdminPage() {
  const { t } = useTranslation('oamcenter');
  const { gb } = useGbMode();
  const { dialog, editAction, permission } = useCrud<GbDevice>({
    menu: MenuId.GB_DEVICES,
    invalidate: [oamKeys.all],
  });
  const client = useQueryClient();
  const [channelsOf, setChannelsOf] = useState<GbDevice | null>(null);

  const config = useQuery({ queryKey: gbDeviceKeys.config, queryFn: ({ signal }) => fetchGbConfig(signal) });
  const any = useQuery({ queryKey: gbDeviceKeys.any, queryFn: () => fetchGbDevices(1, 1, {}) });
  // gbconfig/get says the saved mode; without the right to read it, the session's flag
  const gbOn = config.data ? config.data.status === 1 : gb;
  const noticeReady = config.isFetched && (!gbOn || any.isFetched);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'key',
        label: t('gbDevice.filter.keyword'),
        placeholder: t('gbDevice.filter.keywordPlaceholder'),
      },
      unitSearchItem(t('gbDevice.field.unit')),
      {
        type: 'select',
        name: 'lineon',
        label: t('gbDevice.field.state'),
        options: [
          { value: 1, label: t('gbDevice.state.online') },
          { value: 0, label: t('gbDevice.state.offline') },
        ],
        width: 110,
      },
    ],
    [t],
  );

  const columns = useMemo<DataTableColumn<GbDevice>[]>(
    () => [
      {
        title: t('gbDevice.field.gbid'),
        dataIndex: 'devgbid',
        key: 'devgbid',
        width: 180,
        className: 'bwc-nowrap',
        fixed: 'left',
      },
      { title: t('gbDevice.field.name'), dataIndex: 'name', key: 'name', width: 130, ellipsis: true, fixed: 'left' },
      {
        title: t('gbDevice.field.info'),
        key: 'info',
        width: 230,
        render: (_v, row) => formatDeviceInfo(row) || '—',
      },
      {
        title: t('gbDevice.field.address'),
        key: 'address',
        width: 200,
        className: 'bwc-nowrap',
        render: (_v, row) => (
          <>
            <Tag>{row.transport.toUpperCase() || '—'}</Tag>
            <span>{row.address || '—'}</span>
          </>
        ),
      },
      {
        title: t('gbDevice.field.state'),
        key: 'state',
        width: 80,
        render: (_v, row) =>
          row.lineon === 1 ? (
            <Tag color="green">{t('gbDevice.state.online')}</Tag>
          ) : (
            <Tag>{t('gbDevice.state.offline')}</Tag>
          ),
      },
      {
        title: t('gbDevice.field.times'),
        key: 'times',
        width: 200,
        className: 'bwc-nowrap',
        render: (_v, row) => (
          <>
            <div title={t('gbDevice.field.registered')}>{row.registered_at || t('gbDevice.never')}</div>
            <Typography.Text type="secondary" title={t('gbDevice.field.keepalive')}>
              {row.keepalive_at || t('gbDevice.never')}
            </Typography.Text>
          </>
        ),
      },
      {
        title: t('gbDevice.field.channels'),
        key: 'channel_count',
        width: 80,
        render: (_v, row) => (
          <Typography.Link data-testid="gb-device-channel-count" onClick={() => setChannelsOf(row)}>
            {row.channel_count}
          </Typography.Link>
        ),
      },
      {
        title: t('gbDevice.field.position'),
        key: 'position',
        width: 170,
        render: (_v, row) => {
          const at = formatPosition(row.lng, row.lat);
          if (!at) return t('gbDevice.none');
          return (
            <>
              <div className="bwc-nowrap">{at}</div>
              {row.position_time ? (
                <Typography.Text type="secondary" data-testid="gb-device-position-time">
                  {gbLocalTime(row.position_time)}
                </Typography.Text>
              ) : null}
            </>
          );
        },
      },
      { title: t('gbDevice.field.unit'), dataIndex: 'unit_name', key: 'unit_name', width: 120, ellipsis: true },
      {
        kind: 'operation',
        width: 230,
        fixed: 'right',
        actions: [
          editAction(t('action.edit')),
          {
            key: 'refresh',
            label: t('gbDevice.action.refresh'),
            permission: permission('edit'),
            // DeviceInfo and Catalog asked again; the table reloads after (the server's refusal is toasted)
            onClick: async (row) => {
              await call('gbDeviceRefresh', { id: row.id }, { success: t('gbDevice.refreshed', { name: row.name }) });
              await client.invalidateQueries({ queryKey: gbDeviceKeys.detail(row.devgbid) });
            },
          },
          { key: 'channels', label: t('gbDevice.action.channels'), onClick: (row) => setChannelsOf(row) },
        ],
      },
    ],
    [t, editAction, permission, client],
  );

  return (
    <Card title={t('gbDevice.title')} data-testid="gb-devices-page">
      {noticeReady ? <GbNotice config={config.data ?? null} gbOn={gbOn} none={any.data?.total === 0} /> : null}
      <CrudTable<GbDevice>
        queryKey={gbDeviceKeys.list}
        fetch={({ page, limit, filters }) => fetchGbDevices(page, limit, filters)}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1520 }}
        urlKey="gb"
      />
      <GbDeviceFormDialog {...dialog} />
      <GbChannelsDrawer device={channelsOf} onClose={() => setChannelsOf(null)} />
    </Card>
  );
}
