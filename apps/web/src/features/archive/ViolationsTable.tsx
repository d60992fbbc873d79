import { CASE_STATES, VIOLATION_TYPES, type CaseRecord } from '@bwc/protocol';
import { Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { useCrud } from '../../components/crud';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { DialogTarget } from '../../components/form-dialog';
import type { SearchItem } from '../../components/search-bar';
import { formatTime } from '../../format/time';
import { archiveKeys, menuOfKind, STATE_LABELS, VIOLATION_TYPE_LABELS } from './archiveKeys';
import { linkedMediaColumn } from './linkedMediaColumn';
import { LinkedMediaDrawer } from './LinkedMedia';
import { CancelDialog } from './RecordDialogs';
import { AddViolationDialog, OfficerPicker } from './ViolationDialogs';

const STATE_COLORS: Record<CaseRecord['state'], string> = { open: 'green', cancelled: 'default', closed: 'blue' };

/**
 * Violation records of the caller's units (a tab of /data/archive/lawDoc): officers' breaches of the
 * rules found in recordings, with filters, register, linked media, close with the result, cancel.
 */
export function ViolationsTable() {
  const { t } = useTranslation('archive');
  const { dialog, reload, addButton, permission } = useCrud<CaseRecord>({
    menu: menuOfKind('violation'),
    invalidate: [archiveKeys.all],
  });
  const [ending, setEnding] = useState<{ row: DialogTarget<CaseRecord>; close: boolean }>({ row: null, close: false });
  const [mediaOf, setMediaOf] = useState<CaseRecord | null>(null);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.violationKeywordPlaceholder'),
      },
      {
        type: 'custom',
        name: 'officer_id',
        label: t('filter.officer'),
        render: ({ value, onChange }) => (
          <OfficerPicker
            width={180}
            allowClear
            value={
              (Array.isArray(value) ? value[0] : value) ? Number(Array.isArray(value) ? value[0] : value) : undefined
            }
            onChange={(next) => onChange(next === undefined ? undefined : String(next))}
          />
        ),
      },
      {
        type: 'select',
        name: 'violation_type',
        label: t('filter.violationType'),
        options: VIOLATION_TYPES.map((v) => ({ value: v, label: t(VIOLATION_TYPE_LABELS[v]) })),
        width: 180,
      },
      { type: 'dateTimeRange', names: ['start', 'end'], label: t('filter.time') },
      {
        type: 'select',
        name: 'state',
        label: t('filter.state'),
        options: CASE_STATES.map((s) => ({ value: s, label: t(STATE_LABELS[s]) })),
        width: 110,
      },
      addButton(t('action.addViolation')),
    ],
    [t, addButton],
  );

  const columns = useMemo<DataTableColumn<CaseRecord>[]>(
    () => [
      { title: t('column.no'), dataIndex: 'no', key: 'no', width: 190 },
      { title: t('column.officer'), dataIndex: 'officer_name', key: 'officer_name', width: 120 },
      {
        title: t('column.violationType'),
        dataIndex: 'violation_type',
        key: 'violation_type',
        width: 170,
        render: (v: CaseRecord['violation_type']) => (v ? t(VIOLATION_TYPE_LABELS[v]) : ''),
      },
      { title: t('column.title'), dataIndex: 'title', key: 'title', ellipsis: true },
      {
        title: t('column.occurredAt'),
        dataIndex: 'occurred_at',
        key: 'occurred_at',
        width: 170,
        render: (v: string) => formatTime(v),
      },
      { title: t('column.unit'), dataIndex: 'unit_name', key: 'unit_name', width: 140, ellipsis: true },
      linkedMediaColumn<CaseRecord>({ title: t('column.media'), button: t('action.media') }, setMediaOf),
      {
        title: t('column.state'),
        dataIndex: 'state',
        key: 'state',
        width: 90,
        render: (s: CaseRecord['state'], row) => (
          <Tag color={STATE_COLORS[s]} title={row.cancel_reason}>
            {t(STATE_LABELS[s])}
          </Tag>
        ),
      },
      {
        kind: 'operation',
        width: 130,
        actions: [
          {
            key: 'close',
            label: t('action.finish'),
            onClick: (row) => setEnding({ row, close: true }),
            hidden: (row) => row.state !== 'open',
            permission: permission('edit'),
          },
          {
            key: 'cancel',
            label: t('action.cancel'),
            danger: true,
            onClick: (row) => setEnding({ row, close: false }),
            hidden: (row) => row.state !== 'open',
            permission: permission('edit'),
          },
        ],
      },
    ],
    [t, permission],
  );

  const endDone = () => setEnding({ row: null, close: ending.close });
  return (
    <>
      <DataTable<CaseRecord>
        queryKey={[...archiveKeys.lists, 'violation']}
        fetch={({ page, limit, filters }) => call('violationList', { page, limit, ...filters })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1300 }}
      />
      <AddViolationDialog {...dialog} />
      <CancelDialog
        kind="violation"
        close={ending.close}
        target={ending.row}
        onClose={endDone}
        onSaved={() => {
          endDone();
          void reload();
        }}
      />
      <LinkedMediaDrawer record={mediaOf} onClose={() => setMediaOf(null)} />
    </>
  );
}
