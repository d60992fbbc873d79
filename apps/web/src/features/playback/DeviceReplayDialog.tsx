import { MenuId, type PlaybackSearchAnswer } from '@bwc/protocol';
import { Button, DatePicker, Modal, Space, Spin, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { usePermission } from '../../app/session/Permission';
import { today } from './PlaybackPage';
import { ReplayPlayer, dispatchCalls, type Picked } from './ReplayPlayer';
import { Timeline } from './Timeline';
import './playback.css';

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

/**
 * The dispatch mode's playback of one device (gis/mediafile search, gis/playback info_play and
 * mediaflg_edit): its recordings of a range (today first) on a timeline, played from the click.
 */
export function DeviceReplayDialog({
  device,
  initialRange,
  onClose,
}: {
  device: { id: number; name: string } | null;
  /** the range first searched (default today) */
  initialRange?: [Dayjs, Dayjs];
  onClose: () => void;
}) {
  const { t } = useTranslation('playback');
  const emergencyEdit = usePermission(MenuId.EMERGENCY, 'edit');
  const historyEdit = usePermission(MenuId.HISTORY, 'edit');
  const canEdit = emergencyEdit || historyEdit;
  const calls = useMemo(() => dispatchCalls(canEdit), [canEdit]);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(today);
  const [answer, setAnswer] = useState<PlaybackSearchAnswer | null>(null);
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<Picked | null>(null);
  const deviceId = device?.id;
  const initial = useRef(initialRange);
  initial.current = initialRange;

  const search = useCallback(
    async (from: Dayjs, to: Dayjs) => {
      if (deviceId === undefined) return;
      setLoading(true);
      try {
        setAnswer(await call('mediafileSearch', { ids: [deviceId], start: from.toISOString(), end: to.toISOString() }));
      } catch {
        setAnswer(null);
      } finally {
        setLoading(false);
      }
    },
    [deviceId],
  );

  useEffect(() => {
    if (deviceId === undefined) return;
    const first = initial.current ?? today();
    setRange(first);
    void search(first[0], first[1]);
  }, [deviceId, search]);

  return (
    <Modal
      open={device !== null}
      title={t('deviceTitle', { name: device?.name ?? '' })}
      footer={null}
      onCancel={onClose}
      width={960}
      destroyOnHidden
    >
      <div data-testid="device-replay">
        <Space wrap style={{ marginBottom: 12 }}>
          <DatePicker.RangePicker
            showTime
            format={FORMAT}
            value={range}
            allowClear={false}
            onChange={(value) => value?.[0] && value[1] && setRange([value[0], value[1]])}
          />
          <Button type="primary" loading={loading} onClick={() => void search(range[0], range[1])}>
            {t('search')}
          </Button>
          {answer && (
            <Typography.Text type="secondary">{t('found', { count: answer.recordings.length })}</Typography.Text>
          )}
        </Space>
        {loading && !answer ? (
          <Spin />
        ) : (
          <Timeline
            from={answer?.start ?? range[0].toISOString()}
            to={answer?.end ?? range[1].toISOString()}
            devices={answer?.devices ?? []}
            recordings={answer?.recordings ?? []}
            alarms={answer?.alarms ?? []}
            onPick={(r, offset) => setPicked({ id: r.id, offset })}
          />
        )}
      </div>
      <ReplayPlayer
        // a new pick starts afresh (mark and revision state are the picked item's)
        key={picked ? `${picked.id}:${picked.offset}` : 'none'}
        picked={picked}
        calls={calls}
        onClose={() => setPicked(null)}
        onChanged={() => void search(range[0], range[1])}
      />
    </Modal>
  );
}
