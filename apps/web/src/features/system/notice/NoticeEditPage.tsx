import { MenuId, type Announcement } from '@bwc/protocol';
import { Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { CrudPage, useCrud } from '../../../components/crud';
import type { DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { AnnouncementDialog } from '../../home/AnnouncementDialog';
import { formatTime } from '../../../format/time';
import { AnnouncementFormDialog } from './AnnouncementFormDialog';

export const ANNOUNCE_LIST_KEY = ['announcements', 'list'] as const;
const PUBLISHED = 1;

/** /system/noticeEdit: announcements with filter, paging, add, edit, delete, publish and details. */
export function NoticeEditPage() {
  const { t } = useTranslation('system');
  const [reading, setReading] = useState<number | null>(null);
  // the home page and /emegencyNotice read announcements too
  const { dialog, reload, addButton, editAction, deleteAction, permission } = useCrud<Announcement>({
    menu: MenuId.ANNOUNCEMENTS,
    invalidate: [['announcements'], ['home']],
  });

  const columns = useMemo<DataTableColumn<Announcement>[]>(
    () => [
      { title: t('notice.column.title'), dataIndex: 'title', key: 'title', ellipsis: true },
      {
        title: t('notice.column.status'),
        dataIndex: 'status',
        key: 'status',
        width: 110,
        render: (status: number) =>
          status === PUBLISHED ? (
            <Tag color="green">{t('notice.status.published')}</Tag>
          ) : (
            <Tag>{t('notice.status.draft')}</Tag>
          ),
      },
      { title: t('notice.column.author'), dataIndex: 'author', key: 'author', width: 130 },
      {
        title: t('notice.column.update_time'),
        dataIndex: 'update_time',
        key: 'update_time',
        width: 180,
        render: formatTime,
      },
      {
        title: t('notice.column.publish_time'),
        dataIndex: 'publish_time',
        key: 'publish_time',
        width: 180,
        render: formatTime,
      },
      {
        kind: 'operation',
        width: 240,
        actions: [
          { key: 'view', label: t('notice.action.view'), onClick: (row) => setReading(row.id) },
          editAction(t('notice.action.edit')),
          {
            key: 'publish',
            label: t('notice.action.publish'),
            confirm: t('notice.confirm.publish'),
            onClick: (row) => call('announcePublish', { ids: [row.id] }, { success: true }).then(reload),
            hidden: (row) => row.status === PUBLISHED,
            permission: permission('edit'),
          },
          deleteAction({
            label: t('notice.action.delete'),
            confirm: t('notice.confirm.delete'),
            remove: (row) => call('announceDelete', { ids: [row.id] }, { success: true }),
          }),
        ],
      },
    ],
    [t, reload, permission, editAction, deleteAction],
  );

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('notice.filter.keyword'),
        placeholder: t('notice.filter.keywordPlaceholder'),
      },
      {
        type: 'select',
        name: 'status',
        label: t('notice.filter.status'),
        options: [
          { value: 0, label: t('notice.status.draft') },
          { value: PUBLISHED, label: t('notice.status.published') },
        ],
      },
      addButton(t('notice.action.add')),
    ],
    [t, addButton],
  );

  return (
    <CrudPage<Announcement>
      title={t('notice.title')}
      queryKey={ANNOUNCE_LIST_KEY}
      fetch={({ page, limit, filters }) => call('announceList', { page, limit, ...filters })}
      columns={columns}
      searchItems={searchItems}
      dialog={<AnnouncementFormDialog {...dialog} />}
    >
      <AnnouncementDialog id={reading} onClose={() => setReading(null)} />
    </CrudPage>
  );
}
