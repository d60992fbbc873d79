import { DownloadOutlined } from '@ant-design/icons';
import type { DownloadEntry } from '@bwc/protocol';
import { Card } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { FilterValues, SearchItem } from '../../components/search-bar';
import { formatFileSize } from '../system/upload/uploadCheck';
import { formatTime } from '../../format/time';
import { downloadEntryFile, useDownloadCenter } from './home.api';
import './home.css';

/** Keyword filter of the center: name, description, version or file name contain it (any case). */
export function matchesKeyword(entry: DownloadEntry, filters: FilterValues): boolean {
  const raw = filters.keyword;
  const keyword = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase();
  if (!keyword) return true;
  return [entry.name, entry.description, entry.version, entry.file_name].some((field) =>
    field.toLowerCase().includes(keyword),
  );
}

/** /downloadCenter/download: every download entry with its download button. */
export function DownloadCenterPage() {
  const { t } = useTranslation('home');
  const { data, isPending } = useDownloadCenter();

  const columns = useMemo<DataTableColumn<DownloadEntry>[]>(
    () => [
      { title: t('center.column.name'), dataIndex: 'name', key: 'name' },
      { title: t('center.column.version'), dataIndex: 'version', key: 'version', width: 120 },
      { title: t('center.column.description'), dataIndex: 'description', key: 'description', ellipsis: true },
      { title: t('center.column.file_name'), dataIndex: 'file_name', key: 'file_name', ellipsis: true },
      {
        title: t('center.column.file_size'),
        dataIndex: 'file_size',
        key: 'file_size',
        width: 110,
        render: (size: number) => formatFileSize(size),
      },
      {
        title: t('center.column.create_time'),
        dataIndex: 'create_time',
        key: 'create_time',
        width: 180,
        render: formatTime,
      },
      {
        kind: 'action',
        key: 'download',
        title: t('center.column.download'),
        label: (
          <>
            <DownloadOutlined /> {t('download.action')}
          </>
        ),
        width: 120,
        onClick: (row) => void downloadEntryFile(row).catch(() => undefined),
      },
    ],
    [t],
  );
  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('center.filter.keyword'),
        placeholder: t('center.filter.keywordPlaceholder'),
      },
    ],
    [t],
  );

  return (
    <div className="home-section-page">
      <Card title={t('center.title')}>
        <DataTable<DownloadEntry>
          dataSource={data ?? []}
          loading={isPending}
          clientFilter={matchesKeyword}
          columns={columns}
          searchItems={searchItems}
        />
      </Card>
    </div>
  );
}
