import {
  AudioOutlined,
  CheckCircleOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FileImageOutlined,
  FlagOutlined,
  ShareAltOutlined,
  UploadOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { MenuId, type EvidenceView, type MediaItem, type MediaType } from '@bwc/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Space, Tag, Tooltip, Typography } from 'antd';
import { Suspense, useCallback, useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/http';
import { lazyPage } from '../../app/routing/lazyPage';
import { usePermission } from '../../app/session/Permission';
import { DataTable, useTableUrlState, type DataTableColumn } from '../../components/data-table';
import type { SearchItem } from '../../components/search-bar';
import { UnitTreeSelect, isTerminal, loadDeviceLevel, unitSearchItem } from '../../components/unit-tree';
import { formatTime } from '../../format/time';
import { currentLanguage } from '../../i18n';
import { CustodyDialog } from './CustodyDialog';
import { PLAYABLE_LABELS, TYPE_LABELS, VIEW_TITLES } from './labels';
import { BulkEditDialog, DeleteDialog, FlagDialog, ReviseDialog } from './MediaDialogs';
import { FILTERS, formatDuration, formatSize, mediaQuery } from './mediaQuery';
import { OfficerSelect } from './OfficerSelect';
import { PlayerDialog } from './PlayerDialog';
import { useBulkReport } from './useBulkReport';
import './data.css';

const UploadDialog = lazyPage(() => import('./upload/UploadDialog'), 'UploadDialog');
const ShareDialog = lazyPage(() => import('../access/ShareDialog'), 'ShareDialog');

export type LibraryView = Exclude<EvidenceView, 'deleted'>;

/** The menu of each library screen: its permissions gate the buttons (the server checks again). */
export const VIEW_MENUS: Record<LibraryView, number> = {
  law: MenuId.LAW_MEDIA,
  sensitivity: MenuId.SENSITIVE_MEDIA,
  outside: MenuId.OUTSIDE_MEDIA,
  alarm: MenuId.ALARM_RECORDINGS,
};

export const evidenceKeys = { all: ['evidence'] as const, list: ['evidence', 'list'] as const };

const TABLE_WIDTH = 1400;

const TYPE_ICONS: Record<MediaType, typeof VideoCameraOutlined> = {
  1: VideoCameraOutlined,
  2: AudioOutlined,
  3: FileImageOutlined,
};

/** The thumbnail, or the media type's icon while there is none. */
export function Thumb({ item }: { item: MediaItem }) {
  const Icon = TYPE_ICONS[item.media_type];
  return item.thumb_url ? (
    <img className="bwc-data-thumb" src={item.thumb_url} alt="" loading="lazy" />
  ) : (
    <span className="bwc-data-thumb bwc-data-thumb-empty" data-testid="thumb-placeholder">
      <Icon />
    </span>
  );
}

/** Signed download address of an item, opened in a new tab (the browser saves it). */
export async function downloadItem(item: MediaItem): Promise<void> {
  const answer = await call('mediaDownload', { id: item.id });
  window.open(answer.url, '_blank', 'noopener');
}

/** Signed address of one zip of the items' originals (with manifest.csv), opened like downloadItem. */
export async function downloadItems(ids: number[]): Promise<void> {
  const answer = await call('mediaDownloadAll', { ids });
  window.open(answer.url, '_blank', 'noopener');
}

/**
 * The evidence library (spec part 2 section 2.1 /data/manage/{law,sensitivity,outside}): search,
 * play, revise, mark, delete with a reason, custody record, download; bulk mark / edit / delete
 * of the checked rows; upload on the law and outside screens.
 */
export function LibraryPage({ view }: { view: LibraryView }) {
  const { t } = useTranslation('data');
  const menu = VIEW_MENUS[view];
  const canEdit = usePermission(menu, 'edit');
  const canAdd = usePermission(menu, 'add');
  const canListOfficers = usePermission(MenuId.ACCOUNTS, 'view');
  const queryClient = useQueryClient();
  const report = useBulkReport();
  const lang = currentLanguage();

  const [selected, setSelected] = useState<Key[]>([]);
  const [playing, setPlaying] = useState<MediaItem | null>(null);
  const [revising, setRevising] = useState<MediaItem | null>(null);
  const [flagging, setFlagging] = useState<MediaItem | null>(null);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const [bulkEditing, setBulkEditing] = useState<number[] | null>(null);
  const { t: ta } = useTranslation('access');
  const [sharing, setSharing] = useState<number[] | null>(null);
  const [custody, setCustody] = useState<MediaItem | null>(null);
  const [uploading, setUploading] = useState(false);

  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: evidenceKeys.all }), [queryClient]);
  const selectedIds = selected.map(Number);

  const flagAll = async (flg: 0 | 1) => {
    report(await call('mediaFlagAll', { ids: selectedIds, flg }));
    setSelected([]);
    await reload();
  };

  const yesNo = useMemo(
    () => [
      { value: '1', label: t('filter.yes') },
      { value: '0', label: t('filter.no') },
    ],
    [t],
  );

  const searchItems = useMemo<SearchItem[]>(
    () => [
      unitSearchItem(t('filter.unit'), FILTERS.unit),
      {
        type: 'custom',
        name: FILTERS.device,
        label: t('filter.device'),
        render: ({ value, onChange }) => (
          <UnitTreeSelect
            loader={loadDeviceLevel}
            value={value}
            onChange={(next) => onChange(next)}
            selectableNode={isTerminal}
            placeholder={t('filter.any')}
          />
        ),
      },
      {
        type: 'custom',
        name: FILTERS.user,
        label: t('filter.officer'),
        visible: canListOfficers,
        render: ({ value, onChange }) => <OfficerSelect value={value} onChange={onChange} />,
      },
      { type: 'text', name: FILTERS.keyword, label: t('filter.keyword'), placeholder: t('filter.keywordHint'), width: 200 },
      { type: 'dateTimeRange', names: [FILTERS.recordedStart, FILTERS.recordedEnd], label: t('filter.recorded') },
      { type: 'dateTimeRange', names: [FILTERS.uploadedStart, FILTERS.uploadedEnd], label: t('filter.uploaded') },
      {
        type: 'select',
        name: FILTERS.mediaType,
        label: t('filter.type'),
        width: 100,
        options: ([1, 2, 3] as const).map((type) => ({ value: String(type), label: t(TYPE_LABELS[type]) })),
      },
      {
        type: 'select',
        name: FILTERS.flg,
        label: t('filter.mark'),
        width: 100,
        options: [
          { value: '1', label: t('flag.marked') },
          { value: '0', label: t('flag.unmarked') },
        ],
      },
      { type: 'text', name: FILTERS.category, label: t('field.category'), width: 120 },
      { type: 'select', name: FILTERS.linked, label: t('filter.linked'), width: 90, options: yesNo },
      { type: 'select', name: FILTERS.scored, label: t('filter.scored'), width: 90, options: yesNo },
    ],
    [t, yesNo, canListOfficers],
  );
  useTableUrlState(searchItems);

  const columns = useMemo<DataTableColumn<MediaItem>[]>(
    () => [
      { title: t('column.thumb'), key: 'thumb', width: 84, render: (_: unknown, row: MediaItem) => <Thumb item={row} /> },
      {
        title: t('column.title'),
        dataIndex: 'title',
        key: 'title',
        width: 200,
        render: (title: string, row: MediaItem) => (
          <div className="bwc-data-title">
            <Typography.Link onClick={() => setPlaying(row)} title={title} ellipsis>
              {title}
            </Typography.Link>
            {row.incident_no && <Typography.Text type="secondary">{row.incident_no}</Typography.Text>}
          </div>
        ),
      },
      {
        title: t('column.type'),
        dataIndex: 'media_type',
        key: 'media_type',
        width: 70,
        render: (type: MediaType) => t(TYPE_LABELS[type]),
      },
      {
        title: t('column.duration'),
        dataIndex: 'duration',
        key: 'duration',
        width: 80,
        render: (d: number | null) => formatDuration(d) || '-',
      },
      {
        title: t('column.recordedAt'),
        dataIndex: 'recorded_at',
        key: 'recorded_at',
        width: 150,
        className: 'bwc-nowrap',
        render: (at: string) => formatTime(at),
      },
      {
        title: t('column.deviceOfficer'),
        key: 'device',
        width: 150,
        render: (_: unknown, row: MediaItem) => (
          <div className="bwc-data-title">
            {/* the device by its number (its name is its carrier's, the officer below in the demo) */}
            <span title={row.hostname || undefined}>{row.hostbody || row.hostname || '-'}</span>
            <Typography.Text type="secondary">{row.user_name || '-'}</Typography.Text>
          </div>
        ),
      },
      { title: t('column.unit'), dataIndex: 'unit_name', key: 'unit', width: 120, ellipsis: true },
      { title: t('column.size'), dataIndex: 'size', key: 'size', width: 90, render: (size: number) => formatSize(size) },
      {
        title: t('column.mark'),
        dataIndex: 'flg',
        key: 'flg',
        width: 80,
        render: (flg: number, row: MediaItem) =>
          flg ? (
            <Tooltip title={row.flg_note || undefined}>
              <Tag color="orange" icon={<FlagOutlined />} data-testid="flag-tag">
                {t('flag.marked')}
              </Tag>
            </Tooltip>
          ) : (
            '-'
          ),
      },
      {
        title: t('column.score'),
        dataIndex: 'score',
        key: 'score',
        width: 70,
        render: (score: number | null) => (score === null ? t('column.notScored') : score.toFixed(1)),
      },
      {
        title: t('column.playable'),
        dataIndex: 'playable',
        key: 'playable',
        width: 100,
        render: (state: MediaItem['playable']) => (
          <Tag color={state === 'ready' ? 'green' : state === 'pending' ? 'blue' : state === 'failed' ? 'red' : undefined}>
            {t(PLAYABLE_LABELS[state])}
          </Tag>
        ),
      },
      {
        kind: 'operation',
        width: 200,
        fixed: 'right',
        actions: [
          { key: 'play', label: t('action.play'), onClick: (row) => setPlaying(row) },
          { key: 'revise', label: t('action.revise'), onClick: (row) => setRevising(row), permission: { menu, action: 'edit' } },
          {
            key: 'mark',
            label: t('action.mark'),
            onClick: (row) => setFlagging(row),
            permission: { menu, action: 'edit' },
          },
          { key: 'custody', label: t('action.custody'), onClick: (row) => setCustody(row) },
          { key: 'download', label: t('action.download'), onClick: (row) => downloadItem(row).catch(() => undefined) },
          {
            key: 'delete',
            label: t('action.delete'),
            danger: true,
            onClick: (row) => setDeleting([row.id]),
            permission: { menu, action: 'edit' },
          },
        ],
      },
    ],
    [t, menu],
  );

  const uploadable = canAdd && (view === 'law' || view === 'outside');

  return (
    <Card
      title={t(VIEW_TITLES[view])}
      className="bwc-data-library"
      data-testid={`evidence-${view}`}
      extra={
        <Space>
          <Link to="/data/access" data-testid="evidence-access">
            {ta('library.access')}
          </Link>
          {uploadable && (
            <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="evidence-upload">
              {t('action.upload')}
            </Button>
          )}
        </Space>
      }
    >
      {canEdit && (
        <Space className="bwc-data-bulk" data-testid="evidence-bulk" wrap>
          <Typography.Text type="secondary">{t('bulk.selected', { count: selected.length })}</Typography.Text>
          <Button size="small" icon={<FlagOutlined />} disabled={selected.length === 0} onClick={() => void flagAll(1).catch(() => undefined)}>
            {t('bulk.mark')}
          </Button>
          <Button
            size="small"
            icon={<CheckCircleOutlined />}
            disabled={selected.length === 0}
            onClick={() => void flagAll(0).catch(() => undefined)}
          >
            {t('bulk.unmark')}
          </Button>
          <Button
            size="small"
            icon={<DownloadOutlined />}
            disabled={selected.length === 0}
            onClick={() => void downloadItems(selectedIds).catch(() => undefined)}
            data-testid="evidence-bulk-download"
          >
            {t('bulk.download')}
          </Button>
          <Button
            size="small"
            icon={<ShareAltOutlined />}
            disabled={selected.length === 0}
            onClick={() => setSharing(selectedIds)}
            data-testid="evidence-bulk-share"
          >
            {ta('library.share')}
          </Button>
          <Button size="small" icon={<EditOutlined />} disabled={selected.length === 0} onClick={() => setBulkEditing(selectedIds)}>
            {t('bulk.edit')}
          </Button>
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            disabled={selected.length === 0}
            onClick={() => setDeleting(selectedIds)}
            data-testid="evidence-bulk-delete"
          >
            {t('bulk.delete')}
          </Button>
        </Space>
      )}
      <DataTable<MediaItem>
        queryKey={[...evidenceKeys.list, view, lang]}
        fetch={({ page, limit, filters }) => call('mediaList', { page, limit, ...mediaQuery(filters, view) })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: TABLE_WIDTH }}
        selection={canEdit ? { type: 'checkbox', selectedRowKeys: selected, onChange: (keys) => setSelected(keys) } : undefined}
      />
      <PlayerDialog item={playing} onClose={() => setPlaying(null)} />
      <ReviseDialog item={revising} onClose={() => setRevising(null)} onSaved={() => void reload()} />
      <FlagDialog item={flagging} onClose={() => setFlagging(null)} onSaved={() => void reload()} />
      <DeleteDialog
        ids={deleting}
        onClose={() => setDeleting(null)}
        onDone={(result) => {
          report(result);
          setSelected([]);
          void reload();
        }}
      />
      <BulkEditDialog
        ids={bulkEditing}
        onClose={() => setBulkEditing(null)}
        onDone={(result) => {
          report(result);
          void reload();
        }}
      />
      <CustodyDialog item={custody} onClose={() => setCustody(null)} />
      {sharing && (
        <Suspense fallback={null}>
          <ShareDialog ids={sharing} onClose={() => setSharing(null)} />
        </Suspense>
      )}
      {uploading && (
        <Suspense fallback={null}>
          <UploadDialog open outside={view === 'outside'} onClose={() => setUploading(false)} onUploaded={() => void reload()} />
        </Suspense>
      )}
    </Card>
  );
}

/** /data/manage/law (10211). */
export function LawMediaPage() {
  return <LibraryPage view="law" />;
}
/** /data/manage/sensitivity (10212). */
export function SensitiveMediaPage() {
  return <LibraryPage view="sensitivity" />;
}
/** /data/manage/outside (10213). */
export function OutsideMediaPage() {
  return <LibraryPage view="outside" />;
}
/** /data/archive/alram (10222): the live video SOS alarms had recorded. */
export function AlarmRecordingsPage() {
  return <LibraryPage view="alarm" />;
}
