import { MenuId, type DownloadEntry } from '@bwc/protocol';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { CrudPage, useCrud } from '../../../components/crud';
import type { DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { formatTime } from '../../../format/time';
import { downloadEntryFile } from '../../home/home.api';
import { formatFileSize } from '../upload/uploadCheck';
import { DownloadFormDialog } from './DownloadFormDialog';

export const DOWNLOAD_LIST_KEY = ['downloads', 'list'] as const;

/** /system/download_2: download entries with filter, paging, add, edit, delete and the home flag. */
export function DownloadAdminPage() {
  const { t } = useTranslation('system');
  // the home page and the download center read the entries too
  const { dialog, reload, addButton, editAction, deleteAction, permission } = useCrud<DownloadEntry>({
    menu: MenuId.DOWNLOADS,
    invalidate: [['downloads'], ['home']],
  });

  const columns = useMemo<DataTableColumn<DownloadEntry>[]>(
    () => [
      { title: t('download.column.name'), dataIndex: 'name', key: 'name', ellipsis: true },
      { title: t('download.column.version'), dataIndex: 'version', key: 'version', width: 110 },
      { title: t('download.column.file_name'), dataIndex: 'file_name', key: 'file_name', ellipsis: true },
      {
        title: t('download.column.file_size'),
        dataIndex: 'file_size',
        key: 'file_size',
        width: 110,
        render: (size: number) => formatFileSize(size),
      },
      {
        title: t('download.column.create_time'),
        dataIndex: 'create_time',
        key: 'create_time',
        width: 180,
        render: formatTime,
      },
      {
        kind: 'switch',
        key: 'is_index',
        title: t('download.column.is_index'),
        width: 120,
        isOn: (row) => row.is_index === 1,
        onToggle: (row, on) =>
          call('downloadIsIndex', { id: row.id, is_index: on ? 1 : 0 }, { success: true }).then(reload),
        permission: permission('edit'),
      },
      {
        kind: 'operation',
        width: 220,
        actions: [
          {
            key: 'download',
            label: t('download.action.download'),
            onClick: (row) => void downloadEntryFile(row).catch(() => undefined),
          },
          editAction(t('download.action.edit')),
          deleteAction({
            label: t('download.action.delete'),
            confirm: t('download.confirm.delete'),
            remove: (row) => call('downloadDelete', { ids: [row.id] }, { success: true }),
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
        label: t('download.filter.keyword'),
        placeholder: t('download.filter.keywordPlaceholder'),
      },
      {
        type: 'select',
        name: 'is_index',
        label: t('download.filter.is_index'),
        options: [
          { value: 1, label: t('download.filter.onHome') },
          { value: 0, label: t('download.filter.notOnHome') },
        ],
      },
      addButton(t('download.action.add')),
    ],
    [t, addButton],
  );

  return (
    <CrudPage<DownloadEntry>
      title={t('download.title')}
      queryKey={DOWNLOAD_LIST_KEY}
      fetch={({ page, limit, filters }) => call('downloadList', { page, limit, ...filters })}
      columns={columns}
      searchItems={searchItems}
      dialog={<DownloadFormDialog {...dialog} />}
    />
  );
}
