import { HOST_LIST_PAGE_SIZE, TABLE_INDEX_COLUMN_WIDTH, type DevicePoint } from '@bwc/protocol';
import { MessageOutlined, PhoneOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Button, Space, Table, Tooltip } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { nameWithCode } from '../../map/points';
import { openCall } from '../call/openCall';
import { liveDeviceOfPoint } from '../video/liveSource';

interface Props {
  devices: DevicePoint[];
  loading?: boolean;
  /** GB (GB/T 28181) mode hides voice calls */
  gb: boolean;
  onLocate: (point: DevicePoint) => void;
  /** opens the conversation with the device's user in the messages tab */
  onMessage?: (point: DevicePoint) => void;
}

/**
 * Host list (spec part 2 section 2.4): index, name with code, host body, video and voice call; 30 a
 * page. Memoised: with thousands of rows a render costs, and live positions do not change it.
 */
export const HostList = memo(function HostList({ devices, loading, gb, onLocate, onMessage }: Props) {
  const { t } = useTranslation('dispatch');
  // a video call is the terminal's live picture with the call's audio (call/)
  const call = (row: DevicePoint, video: boolean) =>
    openCall({ target: row.id, name: nameWithCode(row), ...(video ? { video: liveDeviceOfPoint(row) } : {}) });
  return (
    <Table<DevicePoint>
      data-testid="host-list"
      rowKey="id"
      size="small"
      bordered
      loading={loading}
      dataSource={devices}
      onRow={(row) => ({ onClick: () => onLocate(row), style: { cursor: 'pointer' } })}
      pagination={
        devices.length > HOST_LIST_PAGE_SIZE
          ? { pageSize: HOST_LIST_PAGE_SIZE, showSizeChanger: false, size: 'small', simple: true }
          : false
      }
      columns={[
        {
          title: t('host.index'),
          key: 'index',
          width: TABLE_INDEX_COLUMN_WIDTH,
          render: (_v, _r, i) => String(i + 1).padStart(2, '0'),
        },
        // one line each (the panel is 340 px wide): what does not fit ends in "…", whole in the tooltip
        {
          title: t('host.name'),
          key: 'name',
          ellipsis: true,
          className: 'bwc-nowrap',
          render: (_v, row) => nameWithCode(row),
        },
        { title: t('host.hostbody'), dataIndex: 'did', key: 'did', width: 90, ellipsis: true, className: 'bwc-nowrap' },
        {
          title: t('host.operation'),
          key: 'op',
          // "Operation" on one line (headers do not wrap, app/global.css), three small buttons
          width: 88,
          render: (_v, row) => (
            <Space size={0} onClick={(event) => event.stopPropagation()}>
              <Tooltip title={t('host.videoCall')}>
                <Button
                  size="small"
                  type="text"
                  icon={<VideoCameraOutlined />}
                  aria-label={t('host.videoCall')}
                  data-testid="host-video-call"
                  onClick={() => call(row, true)}
                />
              </Tooltip>
              {!gb && (
                <Tooltip title={t('host.voiceCall')}>
                  <Button
                    size="small"
                    type="text"
                    icon={<PhoneOutlined />}
                    aria-label={t('host.voiceCall')}
                    data-testid="host-voice-call"
                    onClick={() => call(row, false)}
                  />
                </Tooltip>
              )}
              {onMessage && (
                <Tooltip title={t('im.message')}>
                  <Button
                    size="small"
                    type="text"
                    icon={<MessageOutlined />}
                    aria-label={t('im.message')}
                    data-testid="host-message"
                    onClick={() => onMessage(row)}
                  />
                </Tooltip>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
});
