import { MenuId, type PushMessage, type TreeNode } from '@bwc/protocol';
import { Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { CrudPage, useCrud } from '../../../components/crud';
import type { DataTableColumn } from '../../../components/data-table';
import { GroupMemberPicker } from '../../../components/group-member-picker';
import type { SearchItem } from '../../../components/search-bar';
import { loadDeviceLevel } from '../../../components/unit-tree';
import { formatTime } from '../../../format/time';
import { MessageFormDialog } from './MessageFormDialog';
import { SendRecordsDialog } from './SendRecordsDialog';
import './msg-manage.css';

export const MESSAGE_LIST_KEY = ['msgpush', 'messages'] as const;

/** Only terminals with a cluster number log on to the cluster service, so only they receive messages. */
const withoutClusterNumber = (node: TreeNode): boolean => !node.jq_hostcode;

/**
 * /dispatch/msgManage (message push, menu 10105): messages of the user's units; send one now to
 * terminals picked in the group-member picker (offline ones and those without a cluster number
 * cannot be picked); each send's terminals with their delivery and read states.
 */
export function MsgManagePage() {
  const { t } = useTranslation('msgpush');
  const { dialog, reload, addButton, editAction, deleteAction, permission } = useCrud<PushMessage>({
    menu: MenuId.MSG_MANAGE,
    invalidate: [['msgpush']],
  });
  const [sending, setSending] = useState<PushMessage | null>(null);
  const [records, setRecords] = useState<{ message: PushMessage; sendId: number | null } | null>(null);

  const send = async (members: TreeNode[]) => {
    const message = sending!;
    const answer = await call(
      'messSend',
      { messid: message.id, device: members.map((m) => Number(m.id)) },
      { success: t('send.sent', { count: members.length }) },
    );
    setSending(null);
    void reload();
    setRecords({ message, sendId: answer.id });
  };

  const columns = useMemo<DataTableColumn<PushMessage>[]>(
    () => [
      { title: t('column.title'), dataIndex: 'title', key: 'title', width: 140, ellipsis: true },
      {
        title: t('column.content'),
        dataIndex: 'content',
        key: 'content',
        ellipsis: { showTitle: false },
        render: (content: string) => (
          <Tooltip title={content} placement="topLeft">
            {content}
          </Tooltip>
        ),
      },
      { title: t('column.unit'), dataIndex: 'unitname', key: 'unitname', width: 120, ellipsis: true },
      { title: t('column.author'), dataIndex: 'author', key: 'author', width: 100 },
      { title: t('column.sends'), dataIndex: 'send_count', key: 'send_count', width: 80 },
      { title: t('column.lastSend'), dataIndex: 'last_send', key: 'last_send', width: 160, render: formatTime },
      {
        kind: 'operation',
        width: 280,
        actions: [
          { key: 'send', label: t('action.send'), onClick: (row) => setSending(row), permission: permission('add') },
          { key: 'records', label: t('action.records'), onClick: (row) => setRecords({ message: row, sendId: null }) },
          editAction(t('action.edit')),
          deleteAction({
            label: t('action.delete'),
            confirm: t('confirm.delete'),
            remove: (row) => call('messDelete', { ids: [row.id] }, { success: true }),
          }),
        ],
      },
    ],
    [t, permission, editAction, deleteAction],
  );

  const searchItems = useMemo<SearchItem[]>(
    () => [
      { type: 'text', name: 'keyword', label: t('filter.keyword'), placeholder: t('filter.keywordPlaceholder') },
      addButton(t('action.add')),
    ],
    [t, addButton],
  );

  return (
    <div data-testid="msg-manage-page">
      <CrudPage<PushMessage>
        title={t('title')}
        queryKey={MESSAGE_LIST_KEY}
        fetch={({ page, limit, filters }) => call('messList', { page, limit, ...filters })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1000 }}
        dialog={<MessageFormDialog {...dialog} />}
      >
        <GroupMemberPicker
          open={sending !== null}
          title={t('send.title', { title: sending?.title ?? '' })}
          loader={loadDeviceLevel}
          disabledNode={withoutClusterNumber}
          onSend={send}
          onCancel={() => setSending(null)}
        />
        <SendRecordsDialog
          message={records?.message ?? null}
          sendId={records?.sendId ?? null}
          onClose={() => setRecords(null)}
        />
      </CrudPage>
    </div>
  );
}
