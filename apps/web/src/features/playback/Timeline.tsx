import type { PlaybackDevice, PlaybackMark, PlaybackRecording } from '@bwc/protocol';
import { Empty, Tooltip } from 'antd';
import dayjs from 'dayjs';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { offsetOf, placeMoment, placeSpan, ticksOf } from './timeline';

interface Props {
  from: string;
  to: string;
  devices: PlaybackDevice[];
  recordings: PlaybackRecording[];
  alarms: PlaybackMark[];
  /** a click on a recording's bar: the recording and the seconds into it */
  onPick: (recording: PlaybackRecording, offset: number) => void;
}

const deviceName = (d: PlaybackDevice) => (d.hostcode ? `${d.hostname}(${d.hostcode})` : d.hostname || d.hostbody);

/** One row per device: recordings as bars placed by time, alarms as marks, hour ticks above. */
export function Timeline({ from, to, devices, recordings, alarms, onPick }: Props) {
  const { t } = useTranslation('playback');
  if (devices.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pickDevices')} />;
  const pick = (r: PlaybackRecording) => (e: MouseEvent<HTMLButtonElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const fraction = box.width > 0 ? (e.clientX - box.left) / box.width : 0;
    onPick(r, offsetOf(r, fraction, from, to));
  };
  const sameDay = dayjs(from).isSame(dayjs(to), 'day');
  return (
    <div className="bwc-replay-timeline" data-testid="replay-timeline">
      <div className="bwc-replay-row bwc-replay-axis">
        <div className="bwc-replay-name" />
        <div className="bwc-replay-track">
          {ticksOf(from, to).map((tick) => (
            <span key={tick.time} className="bwc-replay-tick" style={{ left: `${tick.at}%` }}>
              {dayjs(tick.time).format(sameDay ? 'HH:mm' : 'MM-DD HH:mm')}
            </span>
          ))}
        </div>
      </div>
      {devices.map((d) => {
        const own = recordings.filter((r) => r.device_id === d.id);
        return (
          <div key={d.id} className="bwc-replay-row" data-testid={`replay-row-${d.id}`}>
            <div className="bwc-replay-name" title={d.hostbody}>
              {deviceName(d)}
            </div>
            <div className="bwc-replay-track">
              {own.length === 0 && <span className="bwc-replay-none">{t('noRecordings')}</span>}
              {own.map((r) => {
                const span = placeSpan(r.recorded_at, r.end, from, to);
                if (!span) return null;
                return (
                  <Tooltip
                    key={r.id}
                    title={
                      <>
                        {r.thumb_url && <img className="bwc-replay-thumb" src={r.thumb_url} alt="" />}
                        <div>{`${r.title} · ${dayjs(r.recorded_at).format('HH:mm:ss')} - ${dayjs(r.end).format('HH:mm:ss')}`}</div>
                      </>
                    }
                  >
                    <button
                      type="button"
                      className={`bwc-replay-bar bwc-replay-bar-${r.media_type}${r.flg ? ' bwc-replay-bar-marked' : ''}`}
                      style={{ left: `${span.left}%`, width: `${span.width}%` }}
                      onClick={pick(r)}
                      aria-label={r.title}
                      data-testid="replay-bar"
                      data-id={r.id}
                    />
                  </Tooltip>
                );
              })}
              {alarms
                .filter((a) => a.device_id === d.id)
                .map((a, i) => {
                  const at = placeMoment(a.time, from, to);
                  if (at === null) return null;
                  return (
                    <Tooltip key={`${a.time}-${i}`} title={`${dayjs(a.time).format('HH:mm:ss')} ${a.label}`}>
                      <span
                        className="bwc-replay-alarm"
                        style={{ left: `${at}%` }}
                        data-testid="replay-alarm"
                        aria-label={t('alarm')}
                      />
                    </Tooltip>
                  );
                })}
            </div>
          </div>
        );
      })}
    </div>
  );
}
