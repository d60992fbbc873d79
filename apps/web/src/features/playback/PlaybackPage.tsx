import { MenuId, PLAYBACK_DEVICES_MAX, type PlaybackDevice, type PlaybackSearchAnswer } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, DatePicker, Select, Space, Spin, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { usePermission } from '../../app/session/Permission';
import { useGbMode } from '../../app/session/useGbMode';
import { GbPlaybackPage } from './gb/GbPlaybackPage';
import { ReplayPlayer, monitorCalls, type Picked } from './ReplayPlayer';
import { Timeline } from './Timeline';
import './playback.css';

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Today, from midnight to the end of the day. */
export const today = (): [Dayjs, Dayjs] => [dayjs().startOf('day'), dayjs().endOf('day')];

/** History replay (/monitor/playback, menu 10152): in GB mode the GB devices' own recordings. */
export function PlaybackPage() {
  const { gb } = useGbMode();
  return gb ? <GbPlaybackPage /> : <DevicePlaybackPage />;
}

/**
 * History replay of the body cameras: devices of the caller's units and a time range; each
 * device's recordings as bars on a timeline with its alarms; a click plays from there.
 */
function DevicePlaybackPage() {
  const { t } = useTranslation('playback');
  const { message } = App.useApp();
  const canEdit = usePermission(MenuId.PLAYBACK, 'edit');
  const calls = useMemo(() => monitorCalls(canEdit), [canEdit]);
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<PlaybackDevice[]>([]);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(today);
  const [answer, setAnswer] = useState<PlaybackSearchAnswer | null>(null);
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<Picked | null>(null);

  const devices = useQuery({
    queryKey: ['videoreplay', 'devices', keyword],
    queryFn: ({ signal }) => call('replayDevices', { keyword, limit: 50 }, { signal }),
    staleTime: 30_000,
  });
  const options = useMemo(() => {
    const byId = new Map<number, PlaybackDevice>();
    for (const d of [...selected, ...(devices.data ?? [])]) byId.set(d.id, d);
    return [...byId.values()].map((d) => ({
      value: d.id,
      label: d.hostcode ? `${d.hostname}(${d.hostcode})` : d.hostname || d.hostbody,
      device: d,
    }));
  }, [devices.data, selected]);

  const search = async () => {
    if (selected.length === 0) return void message.info(t('pickDevices'));
    setLoading(true);
    try {
      const result = await call('replaySearch', {
        ids: selected.map((d) => d.id),
        start: range[0].toISOString(),
        end: range[1].toISOString(),
      });
      setAnswer(result);
      if (result.recordings.length === 0) message.info(t('empty'));
    } catch {
      /* the call showed the server's message */
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="bwc-replay-page" data-testid="playback-page">
      <Card size="small" className="bwc-replay-panel" title={t('title')}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('devices', { max: PLAYBACK_DEVICES_MAX })}</Typography.Text>
          <Select
            mode="multiple"
            showSearch
            allowClear
            filterOption={false}
            onSearch={setKeyword}
            notFoundContent={devices.isFetching ? <Spin size="small" /> : undefined}
            placeholder={t('searchDevices')}
            value={selected.map((d) => d.id)}
            options={options}
            maxCount={PLAYBACK_DEVICES_MAX}
            onChange={(ids: number[]) =>
              setSelected(ids.flatMap((id) => options.filter((o) => o.value === id).map((o) => o.device)))
            }
            style={{ width: '100%' }}
            data-testid="playback-devices"
          />
          <DatePicker.RangePicker
            showTime
            format={FORMAT}
            value={range}
            allowClear={false}
            onChange={(value) => value?.[0] && value[1] && setRange([value[0], value[1]])}
            style={{ width: '100%' }}
            data-testid="playback-range"
          />
          <Button type="primary" block loading={loading} onClick={() => void search()} data-testid="playback-search">
            {t('search')}
          </Button>
          {answer && (
            <Typography.Text type="secondary" data-testid="playback-count">
              {t('found', { count: answer.recordings.length })}
            </Typography.Text>
          )}
          {answer?.truncated && <Alert type="warning" showIcon message={t('truncated')} />}
        </Space>
      </Card>
      <Card size="small" className="bwc-replay-main">
        <Timeline
          from={answer?.start ?? range[0].toISOString()}
          to={answer?.end ?? range[1].toISOString()}
          devices={answer?.devices ?? []}
          recordings={answer?.recordings ?? []}
          alarms={answer?.alarms ?? []}
          onPick={(r, offset) => setPicked({ id: r.id, offset })}
        />
        <div className="bwc-replay-legend">
          <span className="bwc-replay-bar bwc-replay-bar-1" /> {t('legendVideo')}
          <span className="bwc-replay-bar bwc-replay-bar-2" /> {t('legendAudio')}
          <span className="bwc-replay-bar bwc-replay-bar-marked" /> {t('legendMarked')}
          <span className="bwc-replay-alarm" /> {t('alarm')}
        </div>
      </Card>
      <ReplayPlayer
        // a new pick starts afresh (mark and revision state are the picked item's)
        key={picked ? `${picked.id}:${picked.offset}` : 'none'}
        picked={picked}
        calls={calls}
        onClose={() => setPicked(null)}
        onChanged={() => void search()}
      />
    </div>
  );
}
