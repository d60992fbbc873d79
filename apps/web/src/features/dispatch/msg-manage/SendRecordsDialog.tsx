import {
  MESSAGE_RECIPIENTS_MAX,
  MESSAGE_STATE_REFRESH_MS,
  type PushMessage,
  type PushRecipient,
  type PushSend,
} from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Empty, Modal, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { formatTime } from '../../../format/time';
import type { RealtimeSdk } from '../../../realtime/sdk/RealtimeSdk';
import { consoleSdk } from '../../../realtime/sdk/groupLogin';

const SENDS_SHOWN = 100;
/** While the console service tells of each delivery and read (notice_im_state), the states are read again this seldom. */
const STATE_FALLBACK_MS = 15_000;
/** Notices of deliveries and reads within this time (ms) make one read of the states. */
const STATE_COALESCE_MS = 300;

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
  /** the console service connection that tells of deliveries and reads (default: the console's) */
  sdk?: Pick<RealtimeSdk, 'on' | 'login'>;
}

/**
 * The sends of a message and, for the send picked, each terminal's delivery and read state: read
 * again as soon as the console service tells of a delivery or a read of the console's messages
 * (notice_im_state), and every MESSAGE_STATE_REFRESH_MS while the console is not logged onto the
 * service (STATE_FALLBACK_MS while it is).
 */
export function SendRecordsDialog({ message, sendId, onClose, sdk = consoleSdk }: SendRecordsDialogProps) {
  const { t } = useTranslation('msgpush');
  const open = message !== null;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!open) return;
    // a send to many terminals brings a burst of notices: one read per STATE_COALESCE_MS
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = sdk.on('notice_im_state', () => {
      timer ??= setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: ['msgpush', 'sends'] });
        void queryClient.invalidateQueries({ queryKey: ['msgpush', 'recipients'] });
      }, STATE_COALESCE_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [open, sdk, queryClient]);
  const every = open ? (sdk.login ? STATE_FALLBACK_MS : MESSAGE_STATE_REFRESH_MS) : false;
  const [picked, setPicked] = useState<number | null>(sendId);
  useEffect(() => setPicked(sendId), [sendId, message]);

  const sends = useQuery({
    queryKey: ['msgpush', 'sends', message?.id],
    queryFn: ({ signal }) => call('messSendList', { messid: message!.id, limit: SENDS_SHOWN }, { signal }),
    enabled: open,
    refetchInterval: every,
  });
  const shown = picked ?? sends.data?.list[0]?.id ?? null;
  const recipients = useQuery({
    queryKey: ['msgpush', 'recipients', shown],
    queryFn: ({ signal }) => call('messRecipients', { sendid: shown!, limit: MESSAGE_RECIPIENTS_MAX }, { signal }),
    enabled: open && shown !== null,
    refetchInterval: every,
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
              selection={{
                type: 'radio',
                selectedRowKeys: selectedKeys,
                onChange: (keys) => setPicked(Number(keys[0])),
              }}
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
