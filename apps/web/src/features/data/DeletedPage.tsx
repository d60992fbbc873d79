import { ClockCircleOutlined, DeleteOutlined, RollbackOutlined } from '@ant-design/icons';
import { EVIDENCE_RECOVERY_DAYS, MenuId, RETENTION_REASON, type MediaItem, type MediaType } from '@bwc/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Modal, Space, Tag, Typography } from 'antd';
import { lazy, Suspense, useCallback, useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/http';
import { usePermission } from '../../app/session/Permission';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { SearchItem } from '../../components/search-bar';
import { formatTime } from '../../format/time';
import { currentLanguage } from '../../i18n';
import { TYPE_LABELS } from './labels';
import { Thumb, evidenceKeys } from './LibraryPage';
import { FILTERS, formatSize, mediaQuery, purgeableAt } from './mediaQuery';
import { useBulkReport } from './useBulkReport';
import './data.css';

const RetentionDrawer = lazy(() =>
  import('../retention/RetentionDrawer').then((m) => ({ default: m.RetentionDrawer })),
);

/**
 * /data/edit/deleted (10272): items deleted with a reason, who and when, and from when they may be
 * removed for good. Restore needs edit, hard delete add on 10272; the server refuses a hard delete
 * inside the recovery window and says so.
 */
export function DeletedMediaPage() {
  const { t } = useTranslation('data');
  const { t: tr } = useTranslation('retention');
  const [retention, setRetention] = useState(false);
  const canRevert = usePermission(MenuId.DELETED_MEDIA, 'edit');
  const canPurge = usePermission(MenuId.DELETED_MEDIA, 'add');
  const queryClient = useQueryClient();
  const report = useBulkReport();
  const [selected, setSelected] = useState<Key[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [modal, contextHolder] = Modal.useModal();
  const lang = currentLanguage();

  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: evidenceKeys.all }), [queryClient]);

  const revert = useCallback(
    async (ids: number[]) => {
      report(await call('mediaRevert', { ids }));
      setSelected([]);
      await reload();
    },
    [report, reload],
  );

  const purge = useCallback(
    (ids: number[]) =>
      void modal.confirm({
        title: t('deleted.purgeTitle'),
        content: t('deleted.purgeQuestion', { count: ids.length }),
        okText: t('deleted.purge'),
        okButtonProps: { danger: true },
        onOk: async () => {
          setRefusal(null);
          try {
            report(await call('mediaHardDelete', { ids }, { silent: true }));
            setSelected([]);
          } catch (error) {
            // inside the recovery window the server refuses: its words stay on the page
            setRefusal(error instanceof ApiError ? error.msg : t('deleted.purgeFailed'));
          } finally {
            await reload();
          }
        },
      }),
    [modal, t, report, reload],
  );

  const searchItems = useMemo<SearchItem[]>(
    () => [
      { type: 'text', name: FILTERS.keyword, label: t('filter.keyword'), placeholder: t('filter.keywordHint'), width: 200 },
      { type: 'dateTimeRange', names: [FILTERS.recordedStart, FILTERS.recordedEnd], label: t('filter.recorded') },
      {
        type: 'select',
        name: FILTERS.mediaType,
        label: t('filter.type'),
        width: 100,
        options: ([1, 2, 3] as const).map((type) => ({ value: String(type), label: t(TYPE_LABELS[type]) })),
      },
    ],
    [t],
  );

  const columns = useMemo<DataTableColumn<MediaItem>[]>(
    () => [
      { title: t('column.thumb'), key: 'thumb', width: 84, render: (_: unknown, row: MediaItem) => <Thumb item={row} /> },
      { title: t('column.title'), dataIndex: 'title', key: 'title', width: 180, ellipsis: true },
      { title: t('column.type'), dataIndex: 'media_type', key: 'type', width: 70, render: (v: MediaType) => t(TYPE_LABELS[v]) },
      { title: t('column.unit'), dataIndex: 'unit_name', key: 'unit', width: 110, ellipsis: true },
      { title: t('column.size'), dataIndex: 'size', key: 'size', width: 90, render: (v: number) => formatSize(v) },
      {
        title: t('deleted.reason'),
        dataIndex: 'delete_reason',
        key: 'reason',
        width: 180,
        ellipsis: true,
        render: (v: string) => (v === RETENTION_REASON ? tr('reason') : v),
      },
      { title: t('deleted.by'), dataIndex: 'deleted_by_name', key: 'by', width: 100 },
      {
        title: t('deleted.at'),
        dataIndex: 'deleted_at',
        key: 'at',
        width: 150,
        className: 'bwc-nowrap',
        render: (at: string | null) => formatTime(at),
      },
      {
        title: t('deleted.purgeable'),
        key: 'purgeable',
        width: 170,
        render: (_: unknown, row: MediaItem) => {
          const at = purgeableAt(row.deleted_at);
          if (!at) return '-';
          return at.getTime() <= Date.now() ? (
            <Tag color="red" data-testid="purgeable-now">
              {t('deleted.purgeableNow')}
            </Tag>
          ) : (
            <span data-testid="purgeable-at">{formatTime(at.toISOString())}</span>
          );
        },
      },
      {
        kind: 'operation',
        width: 150,
        fixed: 'right',
        actions: [
          {
            key: 'revert',
            label: t('deleted.revert'),
            onClick: (row) => revert([row.id]).catch(() => undefined),
            permission: { menu: MenuId.DELETED_MEDIA, action: 'edit' },
          },
          {
            key: 'purge',
            label: t('deleted.purge'),
            danger: true,
            onClick: (row) => purge([row.id]),
            permission: { menu: MenuId.DELETED_MEDIA, action: 'add' },
          },
        ],
      },
    ],
    [t, tr, revert, purge],
  );

  const ids = selected.map(Number);
  return (
    <Card
      title={t('view.deleted')}
      className="bwc-data-library"
      data-testid="evidence-deleted"
      extra={
        <Button icon={<ClockCircleOutlined />} onClick={() => setRetention(true)} data-testid="retention-open">
          {tr('open')}
        </Button>
      }
    >
      {contextHolder}
      {retention && (
        <Suspense fallback={null}>
          <RetentionDrawer open onClose={() => setRetention(false)} onRun={() => void reload()} />
        </Suspense>
      )}
      <Alert type="info" showIcon className="bwc-data-note" message={t('deleted.window', { days: EVIDENCE_RECOVERY_DAYS })} />
      {refusal && (
        <Alert
          type="error"
          showIcon
          closable
          className="bwc-data-note"
          data-testid="deleted-refusal"
          message={refusal}
          onClose={() => setRefusal(null)}
        />
      )}
      {(canRevert || canPurge) && (
        <Space className="bwc-data-bulk" wrap>
          <Typography.Text type="secondary">{t('bulk.selected', { count: selected.length })}</Typography.Text>
          {canRevert && (
            <Button
              size="small"
              icon={<RollbackOutlined />}
              disabled={ids.length === 0}
              onClick={() => void revert(ids).catch(() => undefined)}
              data-testid="deleted-bulk-revert"
            >
              {t('deleted.revert')}
            </Button>
          )}
          {canPurge && (
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={ids.length === 0}
              onClick={() => purge(ids)}
              data-testid="deleted-bulk-purge"
            >
              {t('deleted.purge')}
            </Button>
          )}
        </Space>
      )}
      <DataTable<MediaItem>
        queryKey={[...evidenceKeys.list, 'deleted', lang]}
        fetch={({ page, limit, filters }) => call('mediaList', { page, limit, ...mediaQuery(filters, 'deleted') })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1300 }}
        selection={
          canRevert || canPurge
            ? { type: 'checkbox', selectedRowKeys: selected, onChange: (keys) => setSelected(keys) }
            : undefined
        }
      />
    </Card>
  );
}
