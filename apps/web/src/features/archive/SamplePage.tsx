import { ArchiveMenu, type CaseSample } from '@bwc/protocol';
import { Card, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { SearchItem } from '../../components/search-bar';
import { formatTime } from '../../format/time';
import { archiveKeys } from './archiveKeys';
import { linkedMediaColumn } from './linkedMediaColumn';
import { LinkedMediaDrawer } from './LinkedMedia';

/**
 * /data/archive/sample: the case samples (典型案例) of the caller's units with their summaries;
 * their linked media open read-only. Cases are marked on /data/archive/case.
 */
export function SamplePage() {
  const { t } = useTranslation('archive');
  const [mediaOf, setMediaOf] = useState<CaseSample | null>(null);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.sampleKeywordPlaceholder'),
      },
      { type: 'dateTimeRange', names: ['start', 'end'], label: t('filter.time') },
    ],
    [t],
  );

  const columns = useMemo<DataTableColumn<CaseSample>[]>(
    () => [
      { title: t('column.no'), dataIndex: 'no', key: 'no', width: 170 },
      { title: t('column.title'), dataIndex: 'title', key: 'title', width: 180, ellipsis: true },
      {
        title: t('column.summary'),
        dataIndex: 'summary',
        key: 'summary',
        width: 240,
        render: (v: string) => (
          <Typography.Paragraph ellipsis={{ rows: 2, tooltip: v }} style={{ marginBottom: 0 }}>
            {v}
          </Typography.Paragraph>
        ),
      },
      {
        title: t('column.occurredAt'),
        dataIndex: 'occurred_at',
        key: 'occurred_at',
        width: 170,
        render: (v: string) => formatTime(v),
      },
      { title: t('column.unit'), dataIndex: 'unit_name', key: 'unit_name', width: 140, ellipsis: true },
      linkedMediaColumn<CaseSample>({ title: t('column.media'), button: t('action.media') }, setMediaOf),
      {
        // who marked it, and when below
        title: t('column.markedBy'),
        dataIndex: 'marked_by_name',
        key: 'marked_by_name',
        width: 170,
        render: (v: string, row) => (
          <>
            {v}
            <br />
            <Typography.Text type="secondary">{formatTime(row.marked_at)}</Typography.Text>
          </>
        ),
      },
      {
        kind: 'operation',
        width: 100,
        actions: [
          {
            key: 'unsample',
            label: t('action.unmarkSample'),
            danger: true,
            confirm: t('action.unmarkConfirm'),
            onClick: (row) => call('sampleDel', { id: row.id }, { success: true }),
            permission: { menu: ArchiveMenu.SAMPLE, action: 'edit' },
          },
        ],
      },
    ],
    [t],
  );

  return (
    <Card title={t('title.sample')}>
      <DataTable<CaseSample>
        queryKey={[...archiveKeys.samples]}
        fetch={({ page, limit, filters }) => call('sampleList', { page, limit, ...filters })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1350 }}
      />
      <LinkedMediaDrawer record={mediaOf} sample onClose={() => setMediaOf(null)} />
    </Card>
  );
}
