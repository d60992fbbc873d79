import { GB_PLAYBACK_SCALES, type GbPlaybackScale, type GbRecording, type GbTreeNode } from '@bwc/protocol';
import { CaretRightOutlined, PauseOutlined } from '@ant-design/icons';
import { Alert, Button, Card, DatePicker, Empty, Select, Slider, Space, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { GbTree } from '../../video/gb/GbTree';
import { gbLocalTime, gbMs, gbTime, GB_TIME_FORMAT } from '../../video/gb/gbTime';
import { LiveView } from '../../video/LiveView';
import type { LiveDevice } from '../../video/liveSource';
import type { LivePlayer, LivePlayerOptions } from '../../video/player/LivePlayer';
import { claimPlayerSlot } from '../../video/playerSlots';
import { Timeline } from '../Timeline';
import {
  clockAt,
  clockPosition,
  createGbPlaybackPlayer,
  formatDuration,
  GB_CLOCK_START,
  gbDuration,
  gbRangeAllowed,
  GB_RECORD_TYPE_KEYS,
  playbackFrom,
  seekOffsetIn,
  spanSeconds,
  todayRange,
  timelineDevice,
  timelineRecordings,
  type GbPlaybackClock,
  type GbPlaybackTarget,
} from './gbPlayback';
import '../../video/gb/gb.css';
import '../../video/video.css';
import '../playback.css';
import './gbPlayback.css';

interface Props {
  /** options of the players this page makes (tests pass a fake mpegts) */
  playerOptions?: Partial<Omit<LivePlayerOptions, 'request'>>;
  /** the range shown first (default today) */
  initialRange?: [Dayjs, Dayjs];
}

/** How often the shown recording time is read again. */
const CLOCK_TICK_MS = 250;

/** The answer of one search: the channel and range it was for, its recordings or the server's refusal. */
interface Searched {
  channel: GbTreeNode;
  range: [Dayjs, Dayjs];
  recordings: GbRecording[];
  error: string | null;
}

/** What the page may ask of the playback open below the timeline. */
export interface GbPlaybackControls {
  /** seek to `offset` seconds past its start; false when it cannot (no answer yet) */
  seek(offset: number): boolean;
}

/**
 * The playback open below the timeline, with its player slot and its controls: pause / resume,
 * speed (MANSRTSP Scale) and seek (MANSRTSP Range) through videoreplay/gbcontrol, and the
 * recording time being shown with a progress bar over the span (a click or drag on it seeks).
 */
function GbPlaybackView({
  target,
  playerOptions,
  onClose,
  ref,
}: {
  target: GbPlaybackTarget;
  playerOptions: Props['playerOptions'];
  onClose: () => void;
  ref: Ref<GbPlaybackControls>;
}) {
  const { t } = useTranslation('playback');
  const [live, setLive] = useState<LivePlayer | 'limit' | null>(null);
  /** the stream key of the playing answer (null until the server answered) */
  const [key, setKey] = useState<string | null>(null);
  const [paused, setPaused] = useState(false);
  const [busy, setBusy] = useState(false);
  const [clock, setClock] = useState<GbPlaybackClock>(GB_CLOCK_START);
  /** the progress bar's value while it is dragged */
  const [dragging, setDragging] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const span = spanSeconds(target);
  /** the pause as the player's state changes see it */
  const pausedRef = useRef(paused);
  useEffect(() => {
    pausedRef.current = paused;
  }, [paused]);
  useEffect(() => {
    const release = claimPlayerSlot();
    if (!release) return setLive('limit');
    const player = createGbPlaybackPlayer(target, playerOptions, setKey);
    setLive(player);
    return () => {
      // the server stops a GB stream nobody watches: nothing to release
      player.destroy();
      release();
    };
  }, [target, playerOptions]);
  // the recording time runs from the first picture; it stops when the playback ends or fails
  useEffect(() => {
    if (!live || live === 'limit') return;
    const follow = () => {
      const kind = live.state.kind;
      setClock((c) => {
        const at = Date.now();
        if (kind === 'playing' && c.since === null && !pausedRef.current)
          return clockAt(c, span, at, { running: true });
        if ((kind === 'ended' || kind === 'failed') && c.since !== null)
          return clockAt(c, span, at, { running: false });
        return c;
      });
    };
    follow();
    return live.subscribe(follow);
  }, [live, span]);
  useEffect(() => {
    if (clock.since === null) return;
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, [clock.since]);
  const player = live && live !== 'limit' ? live : null;
  /** whether the player shows pictures now (the clock runs only then) */
  const showing = () => player?.state.kind === 'playing' || player?.state.kind === 'stalled';

  /** one control through the server (MANSRTSP to the device); a refusal shows the server's message and changes nothing */
  const control = async (
    body:
      | { action: 'pause' }
      | { action: 'resume' }
      | { action: 'seek'; offset: number }
      | { action: 'speed'; scale: GbPlaybackScale },
  ): Promise<void> => {
    if (!key) return;
    setBusy(true);
    try {
      await call('gbPlaybackControl', { key, ...body });
      const pausing = body.action === 'pause';
      // the device sends nothing while paused: not a stall for the player
      player?.hold(pausing);
      setPaused(pausing);
      // a seek or a speed is a PLAY: it ends a pause too
      setClock((c) =>
        clockAt(c, span, Date.now(), {
          running: !pausing && showing(),
          ...(body.action === 'seek' ? { at: body.offset } : {}),
          ...(body.action === 'speed' ? { scale: body.scale } : {}),
        }),
      );
    } catch {
      // the request helper showed the server's message
    } finally {
      setBusy(false);
    }
  };
  useImperativeHandle(ref, () => ({
    seek(offset) {
      const kind = player?.state.kind;
      if (!key || kind === 'ended' || kind === 'failed') return false;
      void control({ action: 'seek', offset });
      return true;
    },
  }));
  const device: LiveDevice = useMemo(
    () => ({ id: 0, name: target.channel.name, hostbody: target.channel.devgbid }),
    [target],
  );
  if (live === null) return null;
  const position = Math.floor(clockPosition(clock, span, now));
  const recordingTime = (seconds: number) => dayjs(gbMs(target.start) + seconds * 1000).format(GB_TIME_FORMAT);
  return (
    <Card
      size="small"
      className="bwc-gb-replay-player"
      title={t('gb.playing', {
        name: target.channel.name,
        start: gbLocalTime(target.start),
        end: gbLocalTime(target.end),
      })}
      data-testid="gb-replay-player"
      extra={
        live !== 'limit' && (
          <Space size="small">
            {paused && <Tag data-testid="gb-replay-paused">{t('gb.paused')}</Tag>}
            <Select<GbPlaybackScale>
              size="small"
              value={clock.scale}
              disabled={!key || busy}
              onChange={(scale) => void control({ action: 'speed', scale })}
              options={GB_PLAYBACK_SCALES.map((scale) => ({ value: scale, label: t('gb.scale', { scale }) }))}
              aria-label={t('gb.speed')}
              title={t('gb.speed')}
              popupMatchSelectWidth={false}
              data-testid="gb-replay-speed"
            />
            <Button
              size="small"
              icon={paused ? <CaretRightOutlined /> : <PauseOutlined />}
              disabled={!key}
              loading={busy}
              onClick={() => void control({ action: paused ? 'resume' : 'pause' })}
              data-testid="gb-replay-pause"
              data-paused={paused ? 'true' : 'false'}
            >
              {paused ? t('gb.resume') : t('gb.pause')}
            </Button>
          </Space>
        )
      }
    >
      {live === 'limit' ? (
        <Alert type="warning" showIcon message={t('gb.limit')} />
      ) : (
        <>
          <div className="bwc-gb-replay-screen">
            <LiveView device={device} player={live} onClose={onClose} />
          </div>
          <div className="bwc-gb-replay-progress">
            <Typography.Text data-testid="gb-replay-time" data-position={position}>
              {t('gb.position', { time: recordingTime(dragging ?? position) })}
            </Typography.Text>
            <Slider
              min={0}
              max={Math.max(0, span - 1)}
              value={dragging ?? Math.min(position, Math.max(0, span - 1))}
              disabled={!key || busy || span === 0}
              tooltip={{ formatter: (v) => (v === undefined ? null : recordingTime(v)) }}
              onChange={setDragging}
              onChangeComplete={(offset) => {
                setDragging(null);
                void control({ action: 'seek', offset });
              }}
              // the handle is the element with role slider: the label goes there (an aria-label or a
              // data-testid on the Slider itself reaches no element)
              ariaLabelForHandle={t('gb.seek')}
            />
          </div>
        </>
      )}
    </Card>
  );
}

/**
 * History replay in GB mode (/monitor/playback, menu 10152; issue 16 section 1): a channel of the
 * GB tree and a time range (at most 7 days), the device's own recordings (videoreplay/gbsearch,
 * RecordInfo) on the timeline and in a list; a bar or a row plays through videopatrols/gbplay with
 * start and end (the device's Playback) in the live FLV player.
 */
export function GbPlaybackPage({ playerOptions, initialRange }: Props) {
  const { t } = useTranslation('playback');
  const [channel, setChannel] = useState<GbTreeNode | null>(null);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(initialRange ?? todayRange);
  const [searched, setSearched] = useState<Searched | null>(null);
  const [loading, setLoading] = useState(false);
  const [playing, setPlaying] = useState<GbPlaybackTarget | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const controls = useRef<GbPlaybackControls>(null);

  const search = async () => {
    if (!channel) return setNotice(t('gb.pickChannel'));
    if (!gbRangeAllowed(range)) return setNotice(t('validation:gb.timeRange'));
    setNotice(null);
    setLoading(true);
    const asked: Omit<Searched, 'recordings' | 'error'> = { channel, range };
    try {
      const recordings = await call(
        'gbRecordSearch',
        { device: channel.device, channel: channel.devgbid, start: gbTime(range[0]), end: gbTime(range[1]) },
        { silent: true },
      );
      setSearched({ ...asked, recordings, error: null });
    } catch (err) {
      setSearched({ ...asked, recordings: [], error: err instanceof Error ? err.message : String(err) });
    } finally {
      setLoading(false);
    }
  };

  const play = (r: GbRecording, offset = 0) => {
    if (!searched) return;
    setPlaying({ channel: searched.channel, ...playbackFrom(r, offset) });
  };

  const bars = useMemo(() => timelineRecordings(searched?.recordings ?? []), [searched]);
  const typeLabel = (type: string) => {
    const key = GB_RECORD_TYPE_KEYS[type];
    return key ? t(key) : type || t('gb.types.none');
  };

  return (
    <div className="bwc-replay-page" data-testid="playback-page" data-mode="gb">
      <Card size="small" className="bwc-replay-panel" title={t('title')}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <GbTree
            onChannel={(node) => {
              setChannel(node);
              setNotice(null);
            }}
          />
          <div data-testid="gb-replay-channel">
            <Typography.Text type="secondary">{t('gb.channel')}</Typography.Text>{' '}
            {channel ? (
              <>
                <Typography.Text strong>{channel.name}</Typography.Text>{' '}
                {channel.lineon !== 1 && <Tag color="default">{t('gb.offline')}</Tag>}
              </>
            ) : (
              <Typography.Text type="secondary">{t('gb.none')}</Typography.Text>
            )}
          </div>
          <DatePicker.RangePicker
            showTime
            format={GB_TIME_FORMAT}
            value={range}
            allowClear={false}
            onChange={(value) => value?.[0] && value[1] && setRange([value[0], value[1]])}
            style={{ width: '100%' }}
            data-testid="gb-replay-range"
          />
          <Typography.Text type="secondary">{t('gb.rangeHint')}</Typography.Text>
          <Button type="primary" block loading={loading} onClick={() => void search()} data-testid="gb-replay-search">
            {t('gb.search')}
          </Button>
          {notice && <Alert type="warning" showIcon message={notice} data-testid="gb-replay-notice" />}
        </Space>
      </Card>
      <div className="bwc-replay-main bwc-gb-replay-main">
        <Card size="small" title={t('gb.recordings')}>
          {searched === null ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={channel ? t('gb.pressSearch', { name: channel.name }) : t('gb.pickChannel')}
              data-testid="gb-replay-empty"
            />
          ) : searched.error !== null ? (
            <Alert
              type="error"
              showIcon
              message={t('gb.failed', { name: searched.channel.name })}
              description={searched.error}
              data-testid="gb-replay-error"
            />
          ) : (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Typography.Text type="secondary" data-testid="gb-replay-count">
                {searched.recordings.length === 0
                  ? t('gb.empty')
                  : t('gb.found', { count: searched.recordings.length })}
              </Typography.Text>
              <Timeline
                from={searched.range[0].toISOString()}
                to={searched.range[1].toISOString()}
                devices={[timelineDevice(searched.channel)]}
                recordings={bars}
                alarms={[]}
                onPick={(bar, offset) => {
                  const r = searched.recordings[bar.id - 1];
                  if (!r) return;
                  // inside the running playback's span: a seek in it; elsewhere a new playback from there
                  const at = playing ? seekOffsetIn(playing, gbMs(r.start) + offset * 1000) : null;
                  if (at === null || !controls.current?.seek(at)) play(r, offset);
                }}
              />
              {searched.recordings.length > 0 && (
                <Table<GbRecording & { key: number }>
                  size="small"
                  pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
                  dataSource={searched.recordings.map((r, i) => ({ ...r, key: i }))}
                  data-testid="gb-replay-list"
                  columns={[
                    { title: t('gb.start'), dataIndex: 'start', render: (v: string) => gbLocalTime(v) },
                    { title: t('gb.end'), dataIndex: 'end', render: (v: string) => gbLocalTime(v) },
                    {
                      title: t('gb.duration'),
                      key: 'duration',
                      render: (_, r) => {
                        const s = gbDuration(r);
                        return s === null ? '' : formatDuration(s);
                      },
                    },
                    { title: t('gb.type'), dataIndex: 'type', render: (type: string) => typeLabel(type) },
                    {
                      title: t('gb.action'),
                      key: 'play',
                      render: (_, r) => (
                        <Button size="small" type="link" onClick={() => play(r)} data-testid="gb-replay-play">
                          {t('gb.play')}
                        </Button>
                      ),
                    },
                  ]}
                />
              )}
            </Space>
          )}
        </Card>
        {playing && (
          <GbPlaybackView
            key={`${playing.channel.devgbid}_${playing.start}_${playing.end}`}
            ref={controls}
            target={playing}
            playerOptions={playerOptions}
            onClose={() => setPlaying(null)}
          />
        )}
      </div>
    </div>
  );
}
