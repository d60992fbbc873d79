import { MESSAGE_RECIPIENTS_MAX, MESSAGE_STATE_REFRESH_MS, type PushMessage, type PushRecipient, type PushSend } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, Empty, Modal, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { formatTime } from '../../../format/time';

const SENDS_SHOWN = 100;

/** A terminal's state: read, else delivered, else waiting for its logon. */
function RecipientState({ row }: { row: PushRecipient }) {
  const { t } = useTranslation('msgpush');
  if (row.read) return <Tag color="green">{t('state.read')}</Tag>;
  if (row.delivered) return <Tag color="blue">{t('state.delivered')}</Tag>;
  return <Tag color="orange">{t('state.pending')}</Tag>;
}

export interface SendRecordsDialogProps {
  /** the message whose sends are shown; null while closed */
  message: PushMessage | null;
  /** the send to show first (the one just made), else the newest */
  sendId: number | null;
  onClose: () => void;
}

/**
 * The sends of a message and, for the send picked, each terminal's delivery and read state, read
 * again every MESSAGE_STATE_REFRESH_MS while the dialog is open.
 */
export function SendRecordsDialog({ message, sendId, onClose }: SendRecordsDialogProps) {
  const { t } = useTranslation('msgpush');
  const open = message !== null;
  const [picked, setPicked] = useState<number | null>(sendId);
  useEffect(() => setPicked(sendId), [sendId, message]);

  const sends = useQuery({
    queryKey: ['msgpush', 'sends', message?.id],
    queryFn: ({ signal }) => call('messSendList', { messid: message!.id, limit: SENDS_SHOWN }, { signal }),
    enabled: open,
    refetchInterval: open ? MESSAGE_STATE_REFRESH_MS : false,
  });
  const shown = picked ?? sends.data?.list[0]?.id ?? null;
  const recipients = useQuery({
    queryKey: ['msgpush', 'recipients', shown],
    queryFn: ({ signal }) => call('messRecipients', { sendid: shown!, limit: MESSAGE_RECIPIENTS_MAX }, { signal }),
    enabled: open && shown !== null,
    refetchInterval: open ? MESSAGE_STATE_REFRESH_MS : false,
  });

  const sendColumns = useMemo<DataTableColumn<PushSend>[]>(
    () => [
      { title: t('records.sendTime'), dataIndex: 'send_time', key: 'send_time', width: 180, render: formatTime },
      { title: t('records.sender'), dataIndex: 'sender', key: 'sender', width: 140 },
      { title: t('column.unit'), dataIndex: 'unitname', key: 'unitname', ellipsis: true },
      { title: t('records.total'), dataIndex: 'total', key: 'total', width: 90 },
      { title: t('records.delivered'), dataIndex: 'delivered', key: 'delivered', width: 90 },
      { title: t('records.read'), dataIndex: 'read', key: 'read', width: 90 },
    ],
    [t],
  );
  const recipientColumns = useMemo<DataTableColumn<PushRecipient>[]>(
    () => [
      { title: t('recipient.name'), dataIndex: 'hostname', key: 'hostname', ellipsis: true },
      { title: t('recipient.hostbody'), dataIndex: 'hostbody', key: 'hostbody', width: 130, className: 'bwc-nowrap' },
      {
        title: t('recipient.cluster'),
        dataIndex: 'jq_hostcode',
        key: 'jq_hostcode',
        width: 110,
        className: 'bwc-nowrap',
      },
      { title: t('recipient.unit'), dataIndex: 'unitname', key: 'unitname', width: 120, ellipsis: true },
      {
        title: t('recipient.state'),
        key: 'state',
        width: 90,
        render: (_value: unknown, row: PushRecipient) => <RecipientState row={row} />,
      },
      { title: t('recipient.deliveredAt'), dataIndex: 'delivered', key: 'delivered', width: 165, render: formatTime },
      { title: t('recipient.readAt'), dataIndex: 'read', key: 'read', width: 165, render: formatTime },
      {
        title: t('recipient.service'),
        dataIndex: 'online',
        key: 'online',
        width: 100,
        render: (online: number) =>
          online === 1 ? <Tag color="green">{t('state.online')}</Tag> : <Tag>{t('state.offline')}</Tag>,
      },
    ],
    [t],
  );

  const selectedKeys = useMemo<Key[]>(() => (shown === null ? [] : [shown]), [shown]);
  const noSends = sends.isSuccess && sends.data.list.length === 0;
  return (
    <Modal
      open={open}
      title={t('records.title', { title: message?.title ?? '' })}
      onCancel={onClose}
      footer={null}
      width={1100}
      destroyOnHidden
    >
      <div data-testid="send-records">
        {noSends ? (
          <Empty description={t('records.noSends')} />
        ) : (
          <>
            <DataTable<PushSend>
              urlKey="sends"
              dataSource={sends.data?.list ?? []}
              loading={sends.isPending}
              columns={sendColumns}
              size="small"
              selection={{ type: 'radio', selectedRowKeys: selectedKeys, onChange: (keys) => setPicked(Number(keys[0])) }}
            />
            <Typography.Title level={5} className="bwc-msgpush-heading">
              {t('records.recipients')}
            </Typography.Title>
            <Alert type="info" showIcon message={t('records.stateHelp')} className="bwc-msgpush-help" />
            {shown === null ? (
              <Empty description={t('records.pickSend')} />
            ) : (
              <div data-testid="send-recipients">
                <DataTable<PushRecipient>
                  urlKey="rcpt"
                  rowKey="uid"
                  dataSource={recipients.data?.list ?? []}
                  loading={recipients.isPending}
                  columns={recipientColumns}
                  size="small"
                />
              </div>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
