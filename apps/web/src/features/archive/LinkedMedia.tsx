import { type CaseRecord, type MediaItem, type MediaType } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, Modal, Popconfirm, Space, Table, Tag, type TableColumnType } from 'antd';
import { useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { usePermission } from '../../app/session/Permission';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { SearchItem } from '../../components/search-bar';
import { formatTime } from '../../format/time';
import { PlayerDialog } from '../data/PlayerDialog';
import { SCORE_MENUS, useAnyPermission } from '../review/permission';
import { archiveKeys, MEDIA_TYPE_LABELS, menuOfKind } from './archiveKeys';

/** Bytes as B / KB / MB / GB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function useMediaColumns(): TableColumnType<MediaItem>[] {
  const { t } = useTranslation('archive');
  return useMemo(
    () => [
      { title: t('media.fileTitle'), dataIndex: 'title', key: 'title', ellipsis: true },
      {
        title: t('media.type'),
        dataIndex: 'media_type',
        key: 'media_type',
        width: 70,
        render: (v: MediaType) => t(MEDIA_TYPE_LABELS[v]),
      },
      {
        title: t('media.recordedAt'),
        dataIndex: 'recorded_at',
        key: 'recorded_at',
        width: 170,
        render: (v: string) => formatTime(v),
      },
      {
        title: t('media.officer'),
        key: 'officer',
        width: 140,
        render: (_v: unknown, r: MediaItem) => r.user_name || r.hostname || r.hostbody,
      },
      { title: t('column.unit'), dataIndex: 'unit_name', key: 'unit_name', width: 140, ellipsis: true },
      { title: t('media.size'), dataIndex: 'size', key: 'size', width: 90, render: (v: number) => formatBytes(v) },
    ],
    [t],
  );
}

const MEDIA_API = { incident: 'incidentMedia', case: 'caseMedia', violation: 'violationMedia' } as const;
const WRITE_API = { incident: 'incidentMediaWrite', case: 'caseMediaWrite', violation: 'violationMediaWrite' } as const;

/** Pick items of the library (the caller's units, not deleted) to link to a record. */
function MediaPicker({ record, onClose, onLinked }: { record: CaseRecord; onClose: () => void; onLinked: () => void }) {
  const { t } = useTranslation('archive');
  const [selected, setSelected] = useState<Key[]>([]);
  const [busy, setBusy] = useState(false);
  const base = useMediaColumns();
  const columns = useMemo<DataTableColumn<MediaItem>[]>(
    () => [
      ...base,
      {
        title: t('media.pickLinked'),
        dataIndex: 'linked',
        key: 'linked',
        width: 80,
        render: (v: number) => (v === 1 ? <Tag color="blue">{t('media.linkedYes')}</Tag> : null),
      },
    ],
    [base, t],
  );
  const searchItems = useMemo<SearchItem[]>(
    () => [
      { type: 'text', name: 'keyword', label: t('media.pickKeyword') },
      {
        type: 'select',
        name: 'linked',
        label: t('media.pickLinked'),
        options: [
          { value: 1, label: t('media.linkedYes') },
          { value: 0, label: t('media.linkedNo') },
        ],
        width: 110,
      },
    ],
    [t],
  );
  const link = async () => {
    setBusy(true);
    try {
      await call(
        WRITE_API[record.kind],
        { id: record.id, media_ids: selected.map(Number), action: 'link' },
        { success: true },
      );
      onLinked();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      width={1000}
      title={t('media.pickTitle')}
      onCancel={onClose}
      okText={t('media.linkSelected', { count: selected.length })}
      okButtonProps={{ disabled: selected.length === 0, loading: busy }}
      onOk={() => void link()}
      destroyOnHidden
    >
      <DataTable<MediaItem>
        queryKey={['archive', 'picker', record.id]}
        urlKey="pick"
        fetch={({ page, limit, filters }) => call('mediaList', { page, limit, view: 'law', ...filters })}
        columns={columns}
        searchItems={searchItems}
        selection={{ type: 'checkbox', selectedRowKeys: selected, onChange: (keys) => setSelected(keys) }}
        scroll={{ y: 420 }}
      />
    </Modal>
  );
}

/**
 * A record's linked items: unlink one, or pick more to link (while the record is open). `sample`:
 * a case sample's items, read through the sample menu, view only.
 */
export function LinkedMediaDrawer({
  record,
  onClose,
  sample = false,
}: {
  record: CaseRecord | null;
  onClose: () => void;
  sample?: boolean;
}) {
  const { t } = useTranslation('archive');
  const client = useQueryClient();
  const [picking, setPicking] = useState(false);
  const canEdit = usePermission(menuOfKind(record?.kind ?? 'incident'), 'edit') && !sample;
  const endpoint = sample ? 'sampleMedia' : MEDIA_API[record?.kind ?? 'incident'];
  const media = useQuery({
    queryKey: [...archiveKeys.media, endpoint, record?.id],
    queryFn: ({ signal }) => call(endpoint, { id: record!.id }, { signal }),
    enabled: record !== null,
  });
  const reload = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: archiveKeys.media }),
      client.invalidateQueries({ queryKey: archiveKeys.lists }),
    ]);
  const columns = useMediaColumns();
  const editable = canEdit && record?.state === 'open';
  // the player reads the item through the library (view on any of its menus, as mediaView asks)
  const canPlay = useAnyPermission(SCORE_MENUS, 'view');
  const [playing, setPlaying] = useState<MediaItem | null>(null);
  const withPlay = useMemo<TableColumnType<MediaItem>[]>(
    () =>
      canPlay
        ? [
            ...columns,
            {
              title: '',
              key: 'play',
              width: 70,
              render: (_v: unknown, item: MediaItem) => (
                <Button type="link" size="small" onClick={() => setPlaying(item)}>
                  {t('action.play')}
                </Button>
              ),
            },
          ]
        : columns,
    [columns, canPlay, t],
  );
  const withUnlink = useMemo<TableColumnType<MediaItem>[]>(
    () =>
      editable && record
        ? [
            ...withPlay,
            {
              title: '',
              key: 'unlink',
              width: 90,
              render: (_v: unknown, item: MediaItem) => (
                <Popconfirm
                  title={t('media.unlinkConfirm', { no: record.no })}
                  onConfirm={() =>
                    call(
                      WRITE_API[record.kind],
                      { id: record.id, media_ids: [item.id], action: 'unlink' },
                      { success: true },
                    ).then(reload)
                  }
                >
                  <Button type="link" danger size="small">
                    {t('action.unlink')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]
        : withPlay,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [withPlay, editable, record, t],
  );
  return (
    <Drawer
      open={record !== null}
      width={960}
      title={record ? t('media.title', { no: record.no }) : ''}
      onClose={onClose}
      extra={
        editable ? (
          <Button type="primary" onClick={() => setPicking(true)}>
            {t('action.link')}
          </Button>
        ) : null
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {!sample && record?.state === 'cancelled' && <Alert type="info" showIcon message={t('media.cancelledHint')} />}
        {!sample && record?.state === 'closed' && <Alert type="info" showIcon message={t('media.closedHint')} />}
        <Table<MediaItem>
          rowKey="id"
          size="small"
          loading={media.isPending && record !== null}
          dataSource={media.data ?? []}
          columns={withUnlink}
          pagination={false}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('media.empty')} /> }}
        />
      </Space>
      <PlayerDialog item={playing} onClose={() => setPlaying(null)} />
      {picking && record && (
        <MediaPicker
          record={record}
          onClose={() => setPicking(false)}
          onLinked={() => {
            setPicking(false);
            void reload();
          }}
        />
      )}
    </Drawer>
  );
}
