import { RETENTION_REASON, type EditRecordEntry } from '@bwc/protocol';
import { Card, Tag } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { call } from '../../api/http';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { FilterValues, SearchItem } from '../../components/search-bar';
import { formatTime } from '../../format/time';
import { currentLanguage } from '../../i18n';
import { RECORD_KINDS } from './labels';
import { evidenceKeys } from './LibraryPage';
import './data.css';

type Entry = z.output<typeof EditRecordEntry>;
type Kind = Entry['kind'];

const KIND_COLORS: Record<Kind, string> = { revise: 'blue', delete: 'orange', revert: 'green', harddel: 'red' };

/** The mediaEditRecord payload of the filters: kind, keyword, time range (ISO). */
export function recordQuery(filters: FilterValues): Record<string, string> {
  const out: Record<string, string> = {};
  const one = (name: string) => {
    const raw = filters[name];
    return (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  };
  const kind = one('kind');
  if (kind && kind in RECORD_KINDS) out.kind = kind;
  if (one('keyword')) out.keyword = one('keyword');
  for (const name of ['start', 'end']) {
    const value = one(name);
    if (value && dayjs(value).isValid()) out[name] = dayjs(value).toISOString();
  }
  return out;
}

/** /data/edit/record (10271): revisions and deletions of evidence, newest first. */
export function EditRecordPage() {
  const { t } = useTranslation('data');
  const { t: tr } = useTranslation('retention');
  const lang = currentLanguage();
  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'select',
        name: 'kind',
        label: t('record.kindLabel'),
        width: 120,
        options: (['revise', 'delete', 'revert', 'harddel'] as const).map((k) => ({ value: k, label: t(RECORD_KINDS[k]) })),
      },
      { type: 'text', name: 'keyword', label: t('filter.keyword'), width: 200 },
      { type: 'dateTimeRange', names: ['start', 'end'], label: t('record.at') },
    ],
    [t],
  );
  const columns = useMemo<DataTableColumn<Entry>[]>(
    () => [
      { title: t('record.at'), dataIndex: 'at', key: 'at', width: 160, render: (at: string) => formatTime(at) },
      {
        title: t('record.kindLabel'),
        dataIndex: 'kind',
        key: 'kind',
        width: 100,
        render: (kind: Kind) => <Tag color={KIND_COLORS[kind]}>{t(RECORD_KINDS[kind])}</Tag>,
      },
      { title: t('column.title'), dataIndex: 'media_title', key: 'media', width: 180, ellipsis: true },
      {
        title: t('record.user'),
        dataIndex: 'user_name',
        key: 'user',
        width: 110,
        // the retention job acts as no user
        render: (v: string, row: Entry) => v || (row.reason === RETENTION_REASON ? tr('actor') : ''),
      },
      { title: t('column.unit'), dataIndex: 'unit_name', key: 'unit', width: 120, ellipsis: true },
      {
        title: t('field.reason'),
        dataIndex: 'reason',
        key: 'reason',
        width: 180,
        ellipsis: true,
        render: (v: string) => (v === RETENTION_REASON ? tr('reason') : v),
      },
      { title: t('record.detail'), dataIndex: 'detail', key: 'detail', ellipsis: true },
    ],
    [t, tr],
  );
  return (
    <Card title={t('view.record')} className="bwc-data-library" data-testid="evidence-record">
      <DataTable<Entry>
        queryKey={[...evidenceKeys.all, 'record', lang]}
        fetch={({ page, limit, filters }) => call('mediaEditRecord', { page, limit, ...recordQuery(filters) })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1100 }}
      />
    </Card>
  );
}
