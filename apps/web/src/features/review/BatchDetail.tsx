import {
  CHECK_NOTE_MAX,
  CHECK_RESULTS,
  MenuId,
  type CheckBatch,
  type CheckBatchDetail,
  type CheckItem,
  type CheckResult,
  type MediaItem,
} from '@bwc/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { usePermission } from '../../app/session/Permission';
import { formatTime } from '../../format/time';
import { PlayerDialog } from '../data/PlayerDialog';
import { RESULT_COLORS, RESULT_LABELS, TYPE_LABELS, reviewKeys } from './reviewKeys';

/** The batch's figures and how it was drawn. */
export function BatchSummary({ batch }: { batch: CheckBatch }) {
  const { t } = useTranslation('review');
  const f = batch.filters;
  const filters = [
    f.recorded_start || f.recorded_end
      ? `${formatTime(f.recorded_start) || '…'} ~ ${formatTime(f.recorded_end) || '…'}`
      : '',
    f.media_type ? t(TYPE_LABELS[f.media_type] ?? 'type.1') : '',
  ].filter(Boolean);
  return (
    <Descriptions size="small" column={3} bordered data-testid="batch-summary">
      <Descriptions.Item label={t('batch.id')}>{batch.id}</Descriptions.Item>
      <Descriptions.Item label={t('batch.unit')}>{batch.unit_name}</Descriptions.Item>
      <Descriptions.Item label={t('batch.by')}>
        {batch.created_by_name} · {formatTime(batch.created_at)}
      </Descriptions.Item>
      <Descriptions.Item label={t('batch.drawn')}>
        {t('batch.drawnOf', { drawn: batch.drawn, requested: batch.requested })}
      </Descriptions.Item>
      <Descriptions.Item label={t('batch.results')} span={2}>
        <Space size={4} wrap>
          {(['pass', 'fail', 'doubtful', 'pending'] as const).map((r) => (
            <Tag key={r} color={RESULT_COLORS[r]}>
              {t(RESULT_LABELS[r])} {batch[r]}
            </Tag>
          ))}
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('batch.filters')} span={2}>
        {filters.join(' · ') || t('batch.noFilters')}
      </Descriptions.Item>
      <Descriptions.Item label={t('batch.seed')} span={1}>
        <Typography.Text copyable title={t('batch.seedHint')}>
          {`${batch.seed} / ${batch.max_media_id}`}
        </Typography.Text>
      </Descriptions.Item>
      {batch.note && (
        <Descriptions.Item label={t('batch.note')} span={3}>
          {batch.note}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}

/**
 * The items of a check batch with their results: play (the library's player), and with 'edit' on
 * 10231 the result buttons (pass / fail / doubtful) with an optional note.
 */
export function BatchDetail({ detail }: { detail: CheckBatchDetail }) {
  const { t } = useTranslation('review');
  const canRecord = usePermission(MenuId.CHECK_RANDOM, 'edit');
  const queryClient = useQueryClient();
  const [playing, setPlaying] = useState<MediaItem | null>(null);
  const [noting, setNoting] = useState<{ item: CheckItem; result: CheckResult } | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);

  const record = async (item: CheckItem, result: CheckResult, text: string) => {
    setBusy(true);
    try {
      await call(
        'checkResult',
        { batch_id: item.batch_id, media_id: item.media_id, result, note: text },
        { success: true },
      );
      await queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      setNoting(null);
    } catch {
      // shown by the http layer
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="batch-detail">
      <BatchSummary batch={detail.batch} />
      <Table<CheckItem>
        size="small"
        rowKey="media_id"
        style={{ marginTop: 12 }}
        dataSource={detail.items}
        pagination={false}
        columns={[
          { title: '#', dataIndex: 'pos', width: 55, render: (n: number) => String(n).padStart(2, '0') },
          {
            title: t('item.title'),
            key: 'title',
            ellipsis: true,
            render: (_: unknown, row) =>
              row.media ? (
                <Typography.Link onClick={() => setPlaying(row.media)}>{row.media.title}</Typography.Link>
              ) : (
                <Typography.Text type="secondary">{t('item.purged', { id: row.media_id })}</Typography.Text>
              ),
          },
          {
            title: t('item.recordedAt'),
            key: 'rec',
            width: 165,
            render: (_: unknown, row) => formatTime(row.media?.recorded_at),
          },
          {
            title: t('item.officer'),
            key: 'officer',
            width: 110,
            render: (_: unknown, row) => row.media?.user_name || '-',
          },
          {
            title: t('item.unit'),
            key: 'unit',
            width: 130,
            ellipsis: true,
            render: (_: unknown, row) => row.media?.unit_name ?? '-',
          },
          {
            title: t('item.result'),
            key: 'result',
            width: 200,
            render: (_: unknown, row) => (
              <div>
                <Tag color={RESULT_COLORS[row.result]}>{t(RESULT_LABELS[row.result])}</Tag>
                {row.checked_at && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {row.checked_by_name} {formatTime(row.checked_at)}
                  </Typography.Text>
                )}
                {row.note && <div>{row.note}</div>}
              </div>
            ),
          },
          {
            title: t('item.actions'),
            key: 'actions',
            width: 250,
            render: (_: unknown, row) => (
              <Space size={4} wrap>
                <Button
                  size="small"
                  disabled={!row.media}
                  onClick={() => setPlaying(row.media)}
                  data-testid={`play-${row.media_id}`}
                >
                  {t('item.play')}
                </Button>
                {canRecord &&
                  row.media &&
                  CHECK_RESULTS.map((r) => (
                    <Button
                      key={r}
                      size="small"
                      type={row.result === r ? 'primary' : 'default'}
                      danger={r === 'fail'}
                      data-testid={`result-${row.media_id}-${r}`}
                      onClick={() => {
                        setNote(row.note);
                        setNoting({ item: row, result: r });
                      }}
                    >
                      {t(RESULT_LABELS[r])}
                    </Button>
                  ))}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={noting !== null}
        title={noting ? t('item.recordTitle', { result: t(RESULT_LABELS[noting.result]) }) : ''}
        okButtonProps={{ 'data-testid': 'result-ok' }}
        confirmLoading={busy}
        onOk={() => noting && void record(noting.item, noting.result, note)}
        onCancel={() => setNoting(null)}
        destroyOnHidden
      >
        <Input.TextArea
          rows={3}
          value={note}
          maxLength={CHECK_NOTE_MAX}
          showCount
          placeholder={t('item.notePlaceholder')}
          onChange={(e) => setNote(e.target.value)}
          data-testid="result-note"
        />
      </Modal>
      <PlayerDialog item={playing} onClose={() => setPlaying(null)} />
    </div>
  );
}
