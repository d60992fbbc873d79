import { MenuId, type DownloadEntry } from '@bwc/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Card } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { formatTime } from '../../../format/time';
import { downloadEntryFile } from '../../home/home.api';
import { formatFileSize } from '../upload/uploadCheck';
import { DownloadFormDialog } from './DownloadFormDialog';

export const DOWNLOAD_LIST_KEY = ['downloads', 'list'] as const;
const edit = { menu: MenuId.DOWNLOADS, action: 'edit' } as const;

/** /system/download_2: download entries with filter, paging, add, edit, delete and the home flag. */
export function DownloadAdminPage() {
  const { t } = useTranslation('system');
  const client = useQueryClient();
  const [editing, setEditing] = useState<DownloadEntry | 'new' | null>(null);

  // the home page and the download center read the entries too
  const reload = useCallback(
    () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['downloads'] }),
        client.invalidateQueries({ queryKey: ['home'] }),
      ]),
    [client],
  );

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
        permission: edit,
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
          { key: 'edit', label: t('download.action.edit'), onClick: (row) => setEditing(row), permission: edit },
          {
            key: 'delete',
            label: t('download.action.delete'),
            danger: true,
            confirm: t('download.confirm.delete'),
            onClick: (row) => call('downloadDelete', { ids: [row.id] }, { success: true }).then(reload),
            permission: edit,
          },
        ],
      },
    ],
    [t, reload],
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
      {
        type: 'button',
        key: 'add',
        label: t('download.action.add'),
        primary: true,
        onClick: () => setEditing('new'),
        permission: { menu: MenuId.DOWNLOADS, action: 'add' },
      },
    ],
    [t],
  );

  return (
    <Card title={t('download.title')}>
      <DataTable<DownloadEntry>
        queryKey={DOWNLOAD_LIST_KEY}
        fetch={({ page, limit, filters }) => call('downloadList', { page, limit, ...filters })}
        columns={columns}
        searchItems={searchItems}
      />
      <DownloadFormDialog
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void reload();
        }}
      />
    </Card>
  );
}
