import type { GbPlaybackScale, GbRecording, GbTreeNode, PlaybackDevice, PlaybackRecording } from '@bwc/protocol';
import dayjs, { type Dayjs } from 'dayjs';
import { currentLanguage } from '../../../i18n';
import { requestGbStream } from '../../video/gb/gbLive';
import { gbMs, gbTime } from '../../video/gb/gbTime';
import { LivePlayer, type LivePlayAnswer, type LivePlayerOptions } from '../../video/player/LivePlayer';

/** The longest span a RecordInfo search may cover (the server refuses longer ones). */
export const GB_SEARCH_MAX_MS = 7 * 86_400_000;

/** Today, from midnight to the end of the day (the page's first range). */
export const todayRange = (): [Dayjs, Dayjs] => [dayjs().startOf('day'), dayjs().endOf('day')];

/** Whether the server would take [start, end] for a search: end after start, at most 7 days. */
export function gbRangeAllowed([start, end]: [Dayjs, Dayjs]): boolean {
  const ms = end.valueOf() - start.valueOf();
  return ms > 0 && ms <= GB_SEARCH_MAX_MS;
}

/** Seconds a recording lasts; null when its times do not say. */
export function gbDuration(r: Pick<GbRecording, 'start' | 'end'>): number | null {
  const ms = gbMs(r.end) - gbMs(r.start);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 1000) : null;
}

/** 'H:mm:ss' of a number of seconds. */
export function formatDuration(seconds: number): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${p(Math.floor((seconds % 3600) / 60))}:${p(seconds % 60)}`;
}

/** The recording types RecordInfo names (GB/T 28181-2016 A.2.4.9) and their labels in the `playback` catalogue. */
export const GB_RECORD_TYPE_KEYS: Readonly<Record<string, string>> = {
  time: 'gb.types.time',
  alarm: 'gb.types.alarm',
  manual: 'gb.types.manual',
  all: 'gb.types.all',
};

/** The channel as the replay timeline's one row. */
export function timelineDevice(channel: GbTreeNode): PlaybackDevice {
  return {
    id: 1,
    hostname: channel.name,
    hostbody: channel.devgbid,
    hostcode: '',
    unit_id: channel.unit_id,
    unit_name: '',
    lineon: channel.lineon,
  };
}

/** The device's recordings as timeline bars: ids are positions in the answer (index + 1). */
export function timelineRecordings(recordings: readonly GbRecording[]): PlaybackRecording[] {
  return recordings.flatMap((r, i) => {
    const start = gbMs(r.start);
    const end = gbMs(r.end);
    if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return [];
    return [
      {
        id: i + 1,
        device_id: 1,
        media_type: 1,
        title: r.name || r.type,
        recorded_at: new Date(start).toISOString(),
        duration: (end - start) / 1000,
        end: new Date(end).toISOString(),
        flg: 0,
        playable: 'ready',
        thumb_url: '',
      },
    ];
  });
}

/** What a playback plays: the channel, and the span of the device's recording (GB times). */
export interface GbPlaybackTarget {
  channel: Pick<GbTreeNode, 'devgbid' | 'device' | 'name'>;
  start: string;
  end: string;
}

/** The span from `offset` seconds into a recording to its end. */
export function playbackFrom(r: Pick<GbRecording, 'start' | 'end'>, offset: number): { start: string; end: string } {
  const start = gbMs(r.start);
  const end = gbMs(r.end);
  const at = Math.min(start + Math.max(0, Math.floor(offset)) * 1000, end - 1000);
  return { start: gbTime(Math.max(at, start)), end: r.end };
}

/** Seconds a playback's span lasts (0 when its times do not say). */
export function spanSeconds(target: Pick<GbPlaybackTarget, 'start' | 'end'>): number {
  const s = (gbMs(target.end) - gbMs(target.start)) / 1000;
  return Number.isFinite(s) && s > 0 ? Math.floor(s) : 0;
}

/**
 * Where a click at `ms` (epoch) falls in a running playback: seconds past its start, to seek to
 * (its last second at most, as the server takes it); null outside its span (a new playback then).
 */
export function seekOffsetIn(target: Pick<GbPlaybackTarget, 'start' | 'end'>, ms: number): number | null {
  const start = gbMs(target.start);
  const span = spanSeconds(target);
  if (!Number.isFinite(ms) || span === 0 || ms < start || ms >= start + span * 1000) return null;
  return Math.min(span - 1, Math.floor((ms - start) / 1000));
}

/**
 * The recording time a playback shows: `at` seconds past its start when it last changed, running
 * on from `since` (ms) at `scale` times real time; `since` null while it does not run (before the
 * first picture, paused, ended). The device sends the recording at that pace, so this follows it.
 */
export interface GbPlaybackClock {
  at: number;
  since: number | null;
  scale: GbPlaybackScale;
}

export const GB_CLOCK_START: GbPlaybackClock = { at: 0, since: null, scale: 1 };

/** Seconds past the start at `now`, never past the span's end. */
export function clockPosition(clock: GbPlaybackClock, spanS: number, now: number): number {
  const run = clock.since === null ? 0 : ((now - clock.since) / 1000) * clock.scale;
  return Math.min(spanS, clock.at + Math.max(0, run));
}

/** The clock from `now` on: running or not, from `at` (default where it is), at `scale` (default its own). */
export function clockAt(
  clock: GbPlaybackClock,
  spanS: number,
  now: number,
  change: { running: boolean; at?: number; scale?: GbPlaybackScale },
): GbPlaybackClock {
  return {
    at: change.at ?? clockPosition(clock, spanS, now),
    since: change.running ? now : null,
    scale: change.scale ?? clock.scale,
  };
}

/** A playback of the span (gbplay with start and end: the device is INVITEd with s=Playback). */
export function requestGbPlayback(
  target: GbPlaybackTarget,
  signal: AbortSignal,
): Promise<LivePlayAnswer & { key: string }> {
  return requestGbStream(target.channel, 0, signal, { start: target.start, end: target.end });
}

/**
 * The FLV player of a playback: with sound when the answer says the recording has some; `onKey`
 * hears the stream key of each answer (pause and resume name it).
 */
export function createGbPlaybackPlayer(
  target: GbPlaybackTarget,
  options: Partial<Omit<LivePlayerOptions, 'request'>> = {},
  onKey?: (key: string) => void,
): LivePlayer {
  return new LivePlayer({
    lang: currentLanguage,
    ...options,
    request: async (signal) => {
      const answer = await requestGbPlayback(target, signal);
      onKey?.(answer.key);
      return answer;
    },
    // until the answer says (has_audio)
    hasAudio: false,
  });
}
