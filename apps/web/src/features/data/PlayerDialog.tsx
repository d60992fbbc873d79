import { FileImageOutlined } from '@ant-design/icons';
import type { MediaDetail, MediaItem, MediaRevision } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Empty, Modal, Result, Segmented, Spin, Table, Tabs, Typography } from 'antd';
import { Suspense, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { lazyPage } from '../../app/routing/lazyPage';
import { ImageZoom } from '../../components/image-zoom';
import { formatTime } from '../../format/time';
import { useMapSetup } from '../../map/mapSetup';
import { ScorePanel, ScoreTabLabel } from '../review/ScorePanel';
import { SOURCE_LABELS, TYPE_LABELS } from './labels';
import { PLAYBACK_RATES, fixAt, formatDuration, formatSize } from './mediaQuery';

const GpsTrackMap = lazyPage(() => import('./GpsTrackMap'), 'GpsTrackMap');

export const playerKeys = {
  view: (id: number) => ['evidence', 'view', id] as const,
  gps: (id: number) => ['evidence', 'gps', id] as const,
};

/** Video or audio with the rate menu; reports the playback position. */
function Playback({ detail, onTime }: { detail: MediaDetail; onTime: (seconds: number) => void }) {
  const { t } = useTranslation('data');
  const element = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const [rate, setRate] = useState(1);
  const video = detail.item.media_type === 1;
  const changeRate = (next: number) => {
    setRate(next);
    if (element.current) element.current.playbackRate = next;
  };
  const common = {
    ref: element,
    src: detail.play_url,
    controls: true,
    preload: 'metadata' as const,
    onTimeUpdate: () => onTime(element.current?.currentTime ?? 0),
    onSeeked: () => onTime(element.current?.currentTime ?? 0),
    // a new source starts at rate 1: keep the chosen one
    onLoadedMetadata: () => {
      if (element.current) element.current.playbackRate = rate;
    },
  };
  return (
    <div className="bwc-data-playback">
      {video ? (
        <video {...common} className="bwc-data-video" data-testid="player-video">
          <track kind="captions" />
        </video>
      ) : (
        <audio {...common} className="bwc-data-audio" data-testid="player-audio" />
      )}
      <div className="bwc-data-rates">
        <Typography.Text type="secondary">{t('player.rate')}</Typography.Text>
        <Segmented
          size="small"
          data-testid="player-rate"
          value={rate}
          onChange={(value) => changeRate(Number(value))}
          options={PLAYBACK_RATES.map((r) => ({ value: r, label: `${r}x` }))}
        />
      </div>
    </div>
  );
}

/** The GPS track beside the video / audio, the marker at the playback position. */
function GpsPanel({ item, position }: { item: MediaItem; position: number }) {
  const { t } = useTranslation('data');
  const gps = useQuery({
    queryKey: playerKeys.gps(item.id),
    queryFn: ({ signal }) => call('mediaGps', { id: item.id }, { signal, silent: true }),
    staleTime: 60_000,
  });
  const points = gps.data?.points;
  const setup = useMapSetup({ enabled: (points?.length ?? 0) > 0 });
  const [styleError, setStyleError] = useState<string | null>(null);
  const at = useMemo(
    () => (points && points.length > 0 ? fixAt(points, gps.data!.start || item.recorded_at, position) : null),
    [points, gps.data, item.recorded_at, position],
  );

  let body;
  if (gps.isPending) body = <Spin />;
  else if (gps.isError) body = <Result status="warning" title={t('player.gpsFailed')} />;
  else if (!points || points.length === 0) body = <Empty data-testid="gps-empty" description={t('player.noGps')} />;
  else if (styleError || setup.isError) body = <Result status="warning" title={t('player.mapFailed')} subTitle={styleError ?? undefined} />;
  else if (!setup.data) body = <Spin />;
  else
    body = (
      <Suspense fallback={<Spin />}>
        <GpsTrackMap
          styleUrl={setup.data.styleUrl}
          crs={setup.data.crs}
          points={points}
          at={at}
          label={t('player.gpsMarker')}
          onStyleError={setStyleError}
        />
      </Suspense>
    );
  return (
    <div className="bwc-data-gps" data-testid="player-gps">
      {body}
    </div>
  );
}

function Details({ item }: { item: MediaItem }) {
  const { t } = useTranslation('data');
  const resolution = item.width && item.height ? `${item.width} x ${item.height}` : '-';
  return (
    <Descriptions size="small" column={2} bordered data-testid="player-details">
      <Descriptions.Item label={t('field.title')} span={2}>
        {item.title}
      </Descriptions.Item>
      <Descriptions.Item label={t('field.sha256')} span={2}>
        <Typography.Text className="bwc-data-hash" copyable>
          {item.sha256}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('column.type')}>{t(TYPE_LABELS[item.media_type])}</Descriptions.Item>
      <Descriptions.Item label={t('column.size')}>{formatSize(item.size)}</Descriptions.Item>
      <Descriptions.Item label={t('column.duration')}>{formatDuration(item.duration) || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.resolution')}>{resolution}</Descriptions.Item>
      <Descriptions.Item label={t('field.codecs')}>
        {[item.video_codec, item.audio_codec].filter(Boolean).join(' / ') || '-'}
      </Descriptions.Item>
      <Descriptions.Item label={t('field.source')}>{t(SOURCE_LABELS[item.source])}</Descriptions.Item>
      <Descriptions.Item label={t('column.recordedAt')}>{formatTime(item.recorded_at)}</Descriptions.Item>
      <Descriptions.Item label={t('column.uploadedAt')}>{formatTime(item.uploaded_at)}</Descriptions.Item>
      <Descriptions.Item label={t('column.device')}>{[item.hostname, item.hostbody].filter(Boolean).join(' / ') || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('column.officer')}>{item.user_name || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('column.unit')}>{item.unit_name}</Descriptions.Item>
      <Descriptions.Item label={t('field.incidentNo')}>{item.incident_no || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.category')}>{item.category || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.fileName')}>{item.file_name}</Descriptions.Item>
      <Descriptions.Item label={t('field.description')} span={2}>
        {item.description || '-'}
      </Descriptions.Item>
    </Descriptions>
  );
}

function Revisions({ revisions }: { revisions: MediaRevision[] }) {
  const { t } = useTranslation('data');
  return (
    <Table<MediaRevision>
      size="small"
      rowKey="id"
      data-testid="player-revisions"
      dataSource={revisions}
      pagination={false}
      locale={{ emptyText: t('player.noRevisions') }}
      columns={[
        { title: t('record.at'), dataIndex: 'at', width: 160, render: (at: string) => formatTime(at) },
        { title: t('record.user'), dataIndex: 'user_name', width: 110 },
        { title: t('field.reason'), dataIndex: 'reason', width: 160, ellipsis: true },
        {
          title: t('record.detail'),
          key: 'changes',
          render: (_: unknown, row: MediaRevision) => (
            <ul className="bwc-data-changes">
              {row.changes.map((c) => (
                <li key={c.field}>
                  <Typography.Text strong>{c.field}</Typography.Text>: <del>{c.before || '-'}</del> → {c.after || '-'}
                </li>
              ))}
            </ul>
          ),
        },
      ]}
    />
  );
}

/** What the browser is shown: the player, the image, or why it cannot play. */
function Stage({ detail, onTime, onZoom }: { detail: MediaDetail; onTime: (s: number) => void; onZoom: () => void }) {
  const { t } = useTranslation('data');
  const { item } = detail;
  if (item.media_type === 3)
    return detail.play_url ? (
      <button type="button" className="bwc-data-image" onClick={onZoom} title={t('player.zoomHint')} data-testid="player-image">
        <img src={detail.play_url} alt={item.title} />
      </button>
    ) : (
      <Empty image={<FileImageOutlined />} description={t('player.noImage')} />
    );
  if (item.playable === 'pending')
    return <Alert type="info" showIcon data-testid="player-pending" message={t('player.pending')} description={t('player.pendingHint')} />;
  if (item.playable === 'failed' || !detail.play_url)
    return <Alert type="error" showIcon data-testid="player-failed" message={t('player.failed')} description={t('player.failedHint')} />;
  return <Playback detail={detail} onTime={onTime} />;
}

/**
 * The player (spec part 2 section 2.3): video with rates and native seek over the signed,
 * range-capable address, audio, or the image with its zoom dialog; the GPS track beside a
 * recording with a marker at the playback position; details and revision history.
 */
export function PlayerDialog({
  item,
  onClose,
  tab,
}: {
  item: MediaItem | null;
  onClose: () => void;
  /** the tab shown first (details, revisions, score); details when not given */
  tab?: 'details' | 'revisions' | 'score';
}) {
  const { t } = useTranslation('data');
  const view = useQuery({
    queryKey: playerKeys.view(item?.id ?? 0),
    queryFn: ({ signal }) => call('mediaView', { id: item!.id }, { signal }),
    enabled: item !== null,
    // the signed address is short-lived: never reuse an old one
    gcTime: 0,
    staleTime: 0,
  });
  const [position, setPosition] = useState(0);
  const [zoom, setZoom] = useState(false);
  const detail = view.data;
  const recording = detail && detail.item.media_type !== 3;

  return (
    <Modal
      open={item !== null}
      title={item?.title}
      footer={null}
      onCancel={onClose}
      width={recording ? 1180 : 900}
      destroyOnHidden
      className="bwc-data-player-modal"
    >
      <div data-testid="player-dialog">
        {view.isPending ? (
          <Spin />
        ) : view.isError || !detail ? (
          <Result status="warning" title={t('player.loadFailed')} />
        ) : (
          <>
            <div className={recording ? 'bwc-data-player bwc-data-player-split' : 'bwc-data-player'}>
              <div className="bwc-data-stage">
                <Stage detail={detail} onTime={setPosition} onZoom={() => setZoom(true)} />
              </div>
              {recording && <GpsPanel item={detail.item} position={position} />}
            </div>
            <Tabs
              size="small"
              defaultActiveKey={tab}
              items={[
                { key: 'details', label: t('player.details'), children: <Details item={detail.item} /> },
                {
                  key: 'revisions',
                  label: t('player.revisions', { count: detail.revisions.length }),
                  children: <Revisions revisions={detail.revisions} />,
                },
                {
                  key: 'score',
                  label: <ScoreTabLabel />,
                  children: <ScorePanel mediaId={detail.item.id} deleted={detail.item.deleted_at !== null} />,
                },
              ]}
            />
            {detail.item.media_type === 3 && (
              <ImageZoom open={zoom} src={detail.play_url} alt={detail.item.title} title={detail.item.title} onClose={() => setZoom(false)} />
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
