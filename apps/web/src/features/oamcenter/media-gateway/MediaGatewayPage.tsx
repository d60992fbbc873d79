import { MenuId, type MediaKickRequest, type MediaStreamInfo } from '@bwc/protocol';
import { ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Popconfirm, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../app/session/Permission';
import { QueryError } from '../../../components/crud';
import { fitScrollX } from '../../../components/data-table';
import { formatFileSize } from '../../system/upload/uploadCheck';
import { formatUptime, toKbps } from './format';
import { fetchMediaGateway, kickMedia, mediaGatewayKey } from './mediaGateway.api';

/** antd's column of expand icons (a stream's viewers), beside the stream columns */
const EXPAND_COLUMN_WIDTH = 48;

type MediaViewer = MediaStreamInfo['viewers'][number];

/**
 * The list is polled (the gateway pushes nothing). TanStack Query holds the interval back while
 * the document is hidden (refetchIntervalInBackground is off), so a tab in the background costs
 * the server nothing.
 */
export const MEDIA_GATEWAY_REFRESH_MS = 5_000;

const time = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm:ss');

/** /oamcenter/PlatformAdmin/MediaGateway: live streams of this node, their publishers and viewers. */
export function MediaGatewayPage() {
  const { t } = useTranslation('oamcenter');
  const canEdit = usePermission(MenuId.MEDIA_GATEWAY, 'edit');
  const queryClient = useQueryClient();

  const gateway = useQuery({
    queryKey: mediaGatewayKey,
    queryFn: ({ signal }) => fetchMediaGateway(signal),
    // After a failed read (the http layer has toasted its msg) the page waits for the refresh
    // button rather than toasting the same failure every 5 s.
    refetchInterval: (query) => (query.state.status === 'error' ? false : MEDIA_GATEWAY_REFRESH_MS),
    // back from a hidden tab: the list may be minutes old, read it at once
    refetchOnWindowFocus: 'always',
  });

  const kick = useMutation({
    mutationFn: (request: MediaKickRequest) => kickMedia(request),
    // also after a failure: "not publishing" / "no such viewer" means the list is out of date
    onSettled: () => queryClient.invalidateQueries({ queryKey: mediaGatewayKey }),
  });
  const kicking = (request: MediaKickRequest) =>
    kick.isPending && kick.variables.device_id === request.device_id && kick.variables.viewer === request.viewer;

  const viewerColumns: TableColumnsType<MediaViewer> = [
    { title: t('mediaGateway.viewer.username'), dataIndex: 'username', key: 'username' },
    { title: t('mediaGateway.viewer.address'), dataIndex: 'address', key: 'address' },
    {
      title: t('mediaGateway.viewer.protocol'),
      dataIndex: 'protocol',
      key: 'protocol',
      width: 90,
      render: (protocol: string) =>
        protocol === 'record' ? <Tag color="red">{t('mediaGateway.viewer.recording')}</Tag> : <Tag>{protocol}</Tag>,
    },
    { title: t('mediaGateway.viewer.since'), dataIndex: 'since', key: 'since', width: 170, render: time },
    {
      title: t('mediaGateway.viewer.bytesOut'),
      dataIndex: 'bytes_out',
      key: 'bytes_out',
      width: 110,
      render: formatFileSize,
    },
  ];
  const viewersOf = (stream: MediaStreamInfo): TableColumnsType<MediaViewer> =>
    canEdit
      ? [
          ...viewerColumns,
          {
            title: t('mediaGateway.operation'),
            key: 'operation',
            width: 110,
            render: (_v, viewer) => {
              const request = { device_id: stream.device_id, viewer: viewer.id };
              return (
                <Button type="link" size="small" loading={kicking(request)} onClick={() => kick.mutate(request)}>
                  {t('mediaGateway.action.disconnect')}
                </Button>
              );
            },
          },
        ]
      : viewerColumns;

  const streamColumns: TableColumnsType<MediaStreamInfo> = [
    {
      title: t('mediaGateway.stream.device'),
      key: 'device',
      render: (_v, row) => (
        <Space direction="vertical" size={0}>
          <span>{row.hostname}</span>
          <Typography.Text type="secondary">{row.hostbody}</Typography.Text>
        </Space>
      ),
    },
    { title: t('mediaGateway.stream.unit'), dataIndex: 'unitname', key: 'unitname', ellipsis: true },
    { title: t('mediaGateway.stream.address'), dataIndex: 'address', key: 'address', width: 170 },
    { title: t('mediaGateway.stream.since'), dataIndex: 'since', key: 'since', width: 170, render: time },
    {
      title: t('mediaGateway.stream.uptime'),
      dataIndex: 'uptime_s',
      key: 'uptime_s',
      width: 100,
      render: formatUptime,
    },
    {
      title: t('mediaGateway.stream.bitrate'),
      dataIndex: 'bitrate',
      key: 'bitrate',
      width: 110,
      render: (bitrate: number) => t('mediaGateway.kbps', { value: toKbps(bitrate) }),
    },
    {
      title: t('mediaGateway.stream.bytesIn'),
      dataIndex: 'bytes_in',
      key: 'bytes_in',
      width: 110,
      render: formatFileSize,
    },
    { title: t('mediaGateway.stream.viewers'), key: 'viewers', width: 80, render: (_v, row) => row.viewers.length },
  ];
  if (canEdit)
    streamColumns.push({
      title: t('mediaGateway.operation'),
      key: 'operation',
      width: 110,
      render: (_v, row) => (
        <Popconfirm
          title={t('mediaGateway.stopConfirm', { name: row.hostname || row.hostbody })}
          okText={t('common:action.ok')}
          cancelText={t('common:action.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => kick.mutate({ device_id: row.device_id })}
        >
          <Button type="link" danger size="small" loading={kicking({ device_id: row.device_id })}>
            {t('mediaGateway.action.stop')}
          </Button>
        </Popconfirm>
      ),
    });

  const data = gateway.data;
  const streams = data?.streams ?? [];

  const body =
    !data && gateway.isError ? (
      <QueryError error={gateway.error} onRetry={() => void gateway.refetch()} />
    ) : (
      <Table<MediaStreamInfo>
        rowKey="device_id"
        size="middle"
        bordered
        loading={gateway.isPending}
        dataSource={streams}
        pagination={false}
        scroll={fitScrollX({ x: 1000 }, streamColumns, EXPAND_COLUMN_WIDTH)}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('mediaGateway.empty')} />,
        }}
        columns={streamColumns}
        expandable={{
          rowExpandable: (row) => row.viewers.length > 0,
          expandedRowRender: (row) => (
            <Table<MediaViewer>
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={row.viewers}
              columns={viewersOf(row)}
            />
          ),
        }}
      />
    );

  return (
    <Card
      title={t('mediaGateway.title')}
      extra={
        <Button icon={<ReloadOutlined />} loading={gateway.isFetching} onClick={() => void gateway.refetch()}>
          {t('common:action.refresh')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('mediaGateway.note')}</Typography.Paragraph>
      {data && <NodeLine rtmpPort={data.rtmp_port} node={data.node} />}
      {data && gateway.isError && (
        <Alert type="warning" showIcon message={t('mediaGateway.paused')} style={{ marginBottom: 16 }} />
      )}
      {body}
    </Card>
  );
}

/** This node's id and RTMP ingest port, or the notice that devices cannot publish to it. */
function NodeLine({ rtmpPort, node }: { rtmpPort: number | null; node: string }) {
  const { t } = useTranslation('oamcenter');
  if (rtmpPort === null)
    return (
      <Alert
        type="warning"
        showIcon
        message={t('mediaGateway.rtmpOff')}
        description={t('mediaGateway.node', { node })}
        style={{ marginBottom: 16 }}
      />
    );
  return (
    <Typography.Paragraph>
      <Space size="large" wrap>
        <span>{t('mediaGateway.rtmpPort', { port: rtmpPort })}</span>
        <span>{t('mediaGateway.node', { node })}</span>
      </Space>
    </Typography.Paragraph>
  );
}
