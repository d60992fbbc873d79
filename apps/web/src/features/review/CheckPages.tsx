import { MenuId, type CheckBatch, type CheckBatchDetail } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Drawer, Empty, Result, Space, Spin, Tag } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../api/http';
import { usePermission } from '../../app/session/Permission';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { FilterValues, SearchItem } from '../../components/search-bar';
import { unitSearchItem } from '../../components/unit-tree';
import { formatTime } from '../../format/time';
import { BatchDetail } from './BatchDetail';
import { DrawDialog } from './DrawDialog';
import { RESULT_COLORS, RESULT_LABELS, reviewKeys } from './reviewKeys';

/** A batch's detail, loaded by id (checkrandom/get). */
function BatchById({ id }: { id: number }) {
  const { t } = useTranslation('review');
  const batch = useQuery({
    queryKey: reviewKeys.batch(id),
    queryFn: ({ signal }) => call('checkBatch', { id }, { signal }),
    // a fresh draw is put in the cache; results invalidate it
    staleTime: 30_000,
  });
  if (batch.isPending) return <Spin />;
  if (batch.isError) return <Result status="warning" title={t('batch.loadFailed')} />;
  return <BatchDetail detail={batch.data} />;
}

/**
 * /data/check/random (10231): draw a random sample of recordings into a check batch, then record
 * a result per item. The batch shown is in the address (`?batch=<id>`), so a reload keeps it.
 */
export function CheckRandomPage() {
  const { t } = useTranslation('review');
  const canDraw = usePermission(MenuId.CHECK_RANDOM, 'add');
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [drawing, setDrawing] = useState(false);
  const id = Number(params.get('batch'));

  const drawn = (detail: CheckBatchDetail) => {
    queryClient.setQueryData(reviewKeys.batch(detail.batch.id), detail);
    void queryClient.invalidateQueries({ queryKey: reviewKeys.records });
    setParams({ batch: String(detail.batch.id) });
  };

  return (
    <Card
      title={t('title.random')}
      extra={
        canDraw && (
          <Button type="primary" onClick={() => setDrawing(true)} data-testid="draw-open">
            {t('draw.open')}
          </Button>
        )
      }
    >
      {Number.isInteger(id) && id > 0 ? <BatchById id={id} /> : <Empty description={t('draw.empty')} />}
      <DrawDialog open={drawing} onClose={() => setDrawing(false)} onDrawn={drawn} />
    </Card>
  );
}

/** The checkrecord/get payload of the record list's filters. */
export function recordQuery(filters: FilterValues) {
  const out: Record<string, string | number> = {};
  for (const [name, raw] of Object.entries(filters)) {
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!value) continue;
    if (name === 'start' || name === 'end') {
      if (dayjs(value).isValid()) out[name] = dayjs(value).toISOString();
    } else if ((name === 'unit_id' || name === 'done') && /^\d+$/.test(value)) out[name] = Number(value);
  }
  return out;
}

/** /data/check/record (10232): the check batches of the caller's units with their results. */
export function CheckRecordPage() {
  const { t } = useTranslation('review');
  const [open, setOpen] = useState<CheckBatch | null>(null);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      unitSearchItem(t('filter.unit')),
      { type: 'dateTimeRange', names: ['start', 'end'], label: t('filter.drawnAt') },
      {
        type: 'select',
        name: 'done',
        label: t('filter.state'),
        width: 110,
        options: [
          { value: '1', label: t('filter.done') },
          { value: '0', label: t('filter.open') },
        ],
      },
    ],
    [t],
  );

  const columns = useMemo<DataTableColumn<CheckBatch>[]>(
    () => [
      { title: t('batch.id'), dataIndex: 'id', key: 'id', width: 80 },
      {
        title: t('batch.at'),
        dataIndex: 'created_at',
        key: 'created_at',
        width: 170,
        render: (v: string) => formatTime(v),
      },
      { title: t('batch.unit'), dataIndex: 'unit_name', key: 'unit_name', width: 150, ellipsis: true },
      { title: t('batch.byName'), dataIndex: 'created_by_name', key: 'created_by_name', width: 110 },
      {
        title: t('batch.drawn'),
        key: 'drawn',
        width: 100,
        render: (_: unknown, row: CheckBatch) => t('batch.drawnOf', { drawn: row.drawn, requested: row.requested }),
      },
      {
        title: t('batch.results'),
        key: 'results',
        width: 300,
        render: (_: unknown, row: CheckBatch) => (
          <Space size={4} wrap>
            {(['pass', 'fail', 'doubtful', 'pending'] as const).map((r) => (
              <Tag key={r} color={RESULT_COLORS[r]}>
                {t(RESULT_LABELS[r])} {row[r]}
              </Tag>
            ))}
          </Space>
        ),
      },
      { title: t('batch.note'), dataIndex: 'note', key: 'note', ellipsis: true },
      {
        kind: 'action',
        key: 'open',
        title: t('batch.detail'),
        width: 90,
        label: t('batch.detail'),
        onClick: (row) => setOpen(row),
      },
    ],
    [t],
  );

  return (
    <Card title={t('title.record')}>
      <DataTable<CheckBatch>
        queryKey={[...reviewKeys.records]}
        fetch={({ page, limit, filters }) => call('checkRecords', { page, limit, ...recordQuery(filters) })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1100 }}
      />
      <Drawer
        open={open !== null}
        width={1100}
        title={t('batch.title', { id: open?.id ?? '' })}
        onClose={() => setOpen(null)}
        destroyOnHidden
      >
        {open && <BatchById id={open.id} />}
      </Drawer>
    </Card>
  );
}
