import { CaretRightOutlined, PauseOutlined } from '@ant-design/icons';
import { MenuId, TRACK_GAP_MIN_S, type DeviceTrack, type TrackAnswer } from '@bwc/protocol';
import { App, Button, DatePicker, Empty, List, Select, Slider, Space, Switch, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../api/http';
import { lazyPage } from '../../app/routing/lazyPage';
import { usePermission } from '../../app/session/Permission';
import { UnitTree, isTerminal, loadDeviceLevel } from '../../components/unit-tree';
import { toDisplay } from '../../map/coords';
import { MapScreen, type MapHandle } from '../../map/MapScreen';
import { TRACK_COLORS, TrackLayer, type TrackCursor } from '../../map/TrackLayer';
import { REPLAY_SPEEDS, advance, positionAt, timed } from './replay';
import './track.css';

/** a device's recordings of the track's range (features/playback; the dispatch calls: 10101 or 10103) */
const DeviceReplayDialog = lazyPage(() => import('../playback/DeviceReplayDialog'), 'DeviceReplayDialog');

const FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** room around the tracks when they are fitted into view (the replay bar covers the bottom) */
const FIT_PADDING = { top: 60, right: 60, bottom: 140, left: 60 };
const FIT_MAX_ZOOM = 17;

function label(track: DeviceTrack): string {
  return track.hostcode ? `${track.hostname}(${track.hostcode})` : track.hostname;
}

/** History track (/monitor/track): devices and a time range, tracks with stops and gaps, replay, export. */
export function TrackPage() {
  const { t } = useTranslation('monitor');
  const { message } = App.useApp();

  const [ids, setIds] = useState<number[]>([]);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(1, 'hour'), dayjs()]);
  const [answer, setAnswer] = useState<TrackAnswer | null>(null);
  const [loading, setLoading] = useState(false);
  const [time, setTime] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);
  const [follow, setFollow] = useState(true);
  const mapRef = useRef<MapHandle | null>(null);
  const { t: tp } = useTranslation('playback');
  const replayEmergency = usePermission(MenuId.EMERGENCY, 'view');
  const replayHistory = usePermission(MenuId.HISTORY, 'view');
  const [replay, setReplay] = useState<{ id: number; name: string; range: [Dayjs, Dayjs] } | null>(null);

  const tracks = useMemo(() => answer?.tracks ?? [], [answer]);
  const series = useMemo(() => tracks.map((track) => timed(track.points)), [tracks]);
  const bounds = useMemo(() => {
    const times = series.flatMap((s) => (s.length ? [s[0]!.t, s[s.length - 1]!.t] : []));
    return times.length ? { start: Math.min(...times), end: Math.max(...times) } : null;
  }, [series]);

  const query = async () => {
    if (ids.length === 0) return void message.info(t('track.pickDevices'));
    setLoading(true);
    setPlaying(false);
    try {
      const result = await call('trackHistory', {
        ids,
        start: range[0].toISOString(),
        end: range[1].toISOString(),
      });
      setAnswer(result);
      const points = result.tracks.flatMap((track) => track.points);
      if (points.length === 0) message.info(t('track.empty'));
      // every track in view
      const current = mapRef.current;
      if (current && points.length) {
        // a loop, not Math.min(...points): tracks hold up to 20,000 points per device
        let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
        for (const p of points) {
          w = Math.min(w, p.lng);
          e = Math.max(e, p.lng);
          s = Math.min(s, p.lat);
          n = Math.max(n, p.lat);
        }
        const sw = toDisplay(w, s, current.crs);
        const ne = toDisplay(e, n, current.crs);
        current.map.fitBounds([sw, ne], { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM, duration: 0 });
      }
    } finally {
      setLoading(false);
    }
  };

  // stops and gaps marked on the timeline, in the colour of their track
  const marks = useMemo(() => {
    const out: Record<number, { label: ReactNode }> = {};
    tracks.forEach((track, i) => {
      const color = TRACK_COLORS[i % TRACK_COLORS.length];
      for (const stop of track.stops)
        out[Date.parse(stop.start)] = {
          label: (
            <span
              className="bwc-track-mark bwc-track-mark-stop"
              style={{ borderColor: color }}
              title={t('track.markStop', { name: label(track), minutes: Math.round(stop.duration_s / 60) })}
              data-testid="track-mark-stop"
            />
          ),
        };
      for (const gap of track.gaps)
        out[Date.parse(gap.start)] = {
          label: (
            <span
              className="bwc-track-mark bwc-track-mark-gap"
              style={{ background: color }}
              title={t('track.markGap', { name: label(track), minutes: Math.round(gap.duration_s / 60) })}
              data-testid="track-mark-gap"
            />
          ),
        };
    });
    return out;
  }, [tracks, t]);

  useEffect(() => {
    if (bounds) setTime(bounds.start);
  }, [bounds]);

  // the replay clock
  useEffect(() => {
    if (!playing || !bounds) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const elapsed = now - last;
      last = now;
      setTime((current) => {
        const next = advance(current, elapsed, speed, bounds.end);
        if (next.ended) setPlaying(false);
        return next.time;
      });
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, bounds]);

  const cursors = useMemo<TrackCursor[]>(
    () =>
      tracks.flatMap((track, i) => {
        const at = positionAt(series[i] ?? [], time, TRACK_GAP_MIN_S * 1000);
        return at ? [{ deviceId: track.device_id, lng: at.lng, lat: at.lat, label: label(track) }] : [];
      }),
    [tracks, series, time],
  );

  useEffect(() => {
    const current = mapRef.current;
    if (!follow || !playing || !current || !cursors[0]) return;
    current.map.setCenter(toDisplay(cursors[0].lng, cursors[0].lat, current.crs));
  }, [follow, playing, cursors]);

  const exportAs = (format: 'gpx' | 'kml') =>
    void download('trackExport', {
      ids: ids.join(','),
      start: range[0].toISOString(),
      end: range[1].toISOString(),
      format,
    }).catch(() => undefined);

  return (
    <MapScreen
      testId="track-page"
      mapTestId="track-map"
      layout="area"
      loginOnError
      failedTitle={t('track.mapFailed')}
      mapRef={mapRef}
      panel={
        <>
          <div className="bwc-track-tree">
            <UnitTree
              loader={loadDeviceLevel}
              checkable
              checkableNode={isTerminal}
              height={280}
              onCheck={(nodes) => setIds(nodes.filter(isTerminal).map((n) => Number(n.id)))}
            />
          </div>
          <DatePicker.RangePicker
            showTime
            format={FORMAT}
            value={range}
            allowClear={false}
            onChange={(value) => value?.[0] && value[1] && setRange([value[0], value[1]])}
            style={{ width: '100%' }}
          />
          <Space wrap>
            <Button
              type="primary"
              loading={loading}
              onClick={() => void query().catch(() => undefined)}
              data-testid="track-query"
            >
              {t('track.query', { count: ids.length })}
            </Button>
            <Button disabled={ids.length === 0} onClick={() => exportAs('gpx')}>
              {t('track.exportGpx')}
            </Button>
            <Button disabled={ids.length === 0} onClick={() => exportAs('kml')}>
              {t('track.exportKml')}
            </Button>
          </Space>
          {tracks.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('track.none')} />
          ) : (
            <List
              size="small"
              bordered
              dataSource={tracks}
              renderItem={(track, i) => (
                <List.Item
                  actions={
                    replayEmergency || replayHistory
                      ? [
                          <Button
                            key="replay"
                            size="small"
                            type="link"
                            onClick={() =>
                              setReplay({
                                id: track.device_id,
                                name: label(track),
                                range: [dayjs(answer!.start), dayjs(answer!.end)],
                              })
                            }
                            data-testid="track-replay-recordings"
                          >
                            {tp('open')}
                          </Button>,
                        ]
                      : undefined
                  }
                >
                  <Space direction="vertical" size={0}>
                    <span>
                      <Tag color={TRACK_COLORS[i % TRACK_COLORS.length]}>{track.hostbody}</Tag>
                      {label(track)}
                    </span>
                    <span className="bwc-track-stats">
                      {t('track.stats', {
                        points: track.points.length,
                        km: (track.distance_m / 1000).toFixed(2),
                        stops: track.stops.length,
                        gaps: track.gaps.length,
                      })}
                      {track.truncated && ` ${t('track.truncated')}`}
                    </span>
                  </Space>
                </List.Item>
              )}
            />
          )}
          {replay && (
            <Suspense fallback={null}>
              <DeviceReplayDialog
                device={{ id: replay.id, name: replay.name }}
                initialRange={replay.range}
                onClose={() => setReplay(null)}
              />
            </Suspense>
          )}
        </>
      }
      layers={<TrackLayer tracks={tracks} cursors={cursors} />}
      overlay={
        bounds && (
          <div className="bwc-track-replay" data-testid="track-replay">
            <Button
              shape="circle"
              type="primary"
              aria-label={playing ? t('track.pause') : t('track.play')}
              icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
              onClick={() => {
                if (!playing && time >= bounds.end) setTime(bounds.start);
                setPlaying((on) => !on);
              }}
            />
            <Select
              size="small"
              value={speed}
              onChange={setSpeed}
              options={REPLAY_SPEEDS.map((s) => ({ value: s, label: `${s}x` }))}
              aria-label={t('track.speed')}
              data-testid="track-speed"
              style={{ width: 72 }}
            />
            <Slider
              className="bwc-track-slider"
              min={bounds.start}
              max={bounds.end}
              value={time}
              marks={marks}
              onChange={(value) => setTime(value)}
              tooltip={{ formatter: (value) => (value === undefined ? '' : dayjs(value).format(FORMAT)) }}
            />
            <span className="bwc-track-time" data-testid="track-time">
              {dayjs(time).format(FORMAT)}
            </span>
            <label className="bwc-track-follow">
              <Switch size="small" checked={follow} onChange={setFollow} data-testid="track-follow" />{' '}
              {t('track.follow')}
            </label>
          </div>
        )
      }
    />
  );
}
