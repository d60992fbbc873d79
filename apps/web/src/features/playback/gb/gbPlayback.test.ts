import { Api, type GbRecording } from '@bwc/protocol';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../data/fakeServer';
import type { MpegtsModule, MpegtsPlayer } from '../../video/player/LivePlayer';
import {
  clockAt,
  clockPosition,
  createGbPlaybackPlayer,
  GB_CLOCK_START,
  formatDuration,
  gbDuration,
  gbRangeAllowed,
  playbackFrom,
  requestGbPlayback,
  seekOffsetIn,
  spanSeconds,
  timelineRecordings,
} from './gbPlayback';

afterEach(() => vi.unstubAllGlobals());

const CHANNEL = { devgbid: '34020000001310000001', device: '34020000001320000001', name: 'Gate' };

const rec = (start: string, end: string, type = 'time'): GbRecording => ({
  channel: CHANNEL.devgbid,
  name: 'NVR',
  start,
  end,
  type,
  file_path: '',
  file_size: null,
  recorder_id: '',
});

describe('GB playback helpers', () => {
  it('takes ranges the server takes: end after start, at most 7 days', () => {
    // counted in milliseconds: a week across a daylight-saving change is still 7 x 24 h
    const start = dayjs('2026-11-01T00:00:00Z');
    expect(gbRangeAllowed([start, start.add(7 * 86_400_000, 'ms')])).toBe(true);
    expect(gbRangeAllowed([start, start.add(7 * 86_400_000 + 1000, 'ms')])).toBe(false);
    expect(gbRangeAllowed([start, start])).toBe(false);
    expect(gbRangeAllowed([start, start.subtract(1, 'hour')])).toBe(false);
  });

  it('gives durations and drops recordings whose times do not read as bars', () => {
    expect(gbDuration(rec('2026-11-27 10:00:00', '2026-11-27 10:10:00'))).toBe(600);
    expect(gbDuration(rec('2026-11-27 10:10:00', '2026-11-27 10:00:00'))).toBeNull();
    expect(formatDuration(3725)).toBe('1:02:05');
    const bars = timelineRecordings([
      rec('2026-11-27 10:00:00', '2026-11-27 10:10:00'),
      rec('garbage', '2026-11-27 10:10:00'),
      rec('2026-11-27 11:00:00', '2026-11-27 11:00:30', 'alarm'),
    ]);
    // ids are positions in the answer, so a picked bar finds its recording
    expect(bars.map((b) => [b.id, b.duration, b.recorded_at])).toEqual([
      [1, 600, '2026-11-27T02:00:00.000Z'],
      [3, 30, '2026-11-27T03:00:00.000Z'],
    ]);
  });

  it('plays from a point of a recording to its end, inside the recording', () => {
    const r = rec('2026-11-27 10:00:00', '2026-11-27 10:10:00');
    expect(playbackFrom(r, 0)).toEqual({ start: '2026-11-27 10:00:00', end: '2026-11-27 10:10:00' });
    expect(playbackFrom(r, 125.9)).toEqual({ start: '2026-11-27 10:02:05', end: '2026-11-27 10:10:00' });
    expect(playbackFrom(r, 10_000)).toEqual({ start: '2026-11-27 10:09:59', end: '2026-11-27 10:10:00' });
    expect(playbackFrom(r, -5).start).toBe('2026-11-27 10:00:00');
  });

  it('asks gbplay for the span and hands the player its paths; a refusal carries the server message', async () => {
    const server = fakeServer((path) =>
      path === Api.gbPlay.path
        ? {
            channel_id: CHANNEL.devgbid,
            key: `gbpb:${CHANNEL.devgbid}_x`,
            transport: 'udp',
            ssrc: '1100000001',
            flv: '/gb/pb.flv?token=a',
            ws: '/gb/pb.flv?token=a',
            expires: 99,
          }
        : null,
    );
    const target = { channel: CHANNEL, start: '2026-11-27 10:00:00', end: '2026-11-27 10:10:00' };
    const play = await requestGbPlayback(target, new AbortController().signal);
    expect(server.calls(Api.gbPlay.path)).toEqual([
      { channel: CHANNEL.devgbid, device: CHANNEL.device, start: '2026-11-27 10:00:00', end: '2026-11-27 10:10:00' },
    ]);
    expect(play).toMatchObject({ ws: '/gb/pb.flv?token=a', hostbody: CHANNEL.devgbid, hostname: 'Gate' });

    fakeServer(() => ({ code: 504, msg: 'The GB device did not answer in time.', data: null }));
    await expect(requestGbPlayback(target, new AbortController().signal)).rejects.toThrow(
      'The GB device did not answer in time.',
    );
  });

  it.each([
    [0, false],
    [1, true],
  ])('makes a player with sound as the answer says: has_audio %i -> mpegts hasAudio %s', async (hasAudio, sound) => {
    fakeServer(() => ({
      channel_id: '',
      key: '',
      transport: 'udp',
      ssrc: '',
      flv: '/f',
      ws: '/f',
      expires: 1,
      has_audio: hasAudio,
    }));
    const sources: { hasAudio?: boolean; url?: string }[] = [];
    const player = {
      mediaInfo: {},
      statisticsInfo: {},
      attachMediaElement: () => undefined,
      detachMediaElement: () => undefined,
      load: () => undefined,
      unload: () => undefined,
      play: () => Promise.resolve(),
      destroy: () => undefined,
      on: () => undefined,
    } as unknown as MpegtsPlayer;
    const mpegts = {
      getFeatureList: () => ({ mseLivePlayback: true }),
      BaseLoader: class {},
      LoaderStatus: { kConnecting: 1, kBuffering: 2, kComplete: 4 },
      Events: { ERROR: 'error' },
      ErrorTypes: { NETWORK_ERROR: 'NetworkError', MEDIA_ERROR: 'MediaError' },
      createPlayer: (source: { hasAudio?: boolean; url?: string }) => {
        sources.push(source);
        return player;
      },
    } as unknown as MpegtsModule;
    const live = createGbPlaybackPlayer(
      { channel: CHANNEL, start: '2026-11-27 10:00:00', end: '2026-11-27 10:10:00' },
      { loadMpegts: () => Promise.resolve(mpegts), pauseWhenHidden: false },
    );
    // no sound control before the answer
    expect(live.hasAudio).toBe(false);
    live.attach(document.createElement('video'));
    await vi.waitFor(() => expect(sources).toHaveLength(1));
    expect(sources[0]).toMatchObject({ hasAudio: sound });
    expect(live.hasAudio).toBe(sound);
    expect(sources[0]!.url).toContain('/f');
    live.destroy();
  });

  it('places a click in the playing span as a seek offset (its last second at most), null outside', () => {
    const target = { start: '2026-11-27 10:00:00', end: '2026-11-27 10:10:00' };
    const at = (gb: string) => dayjs(`${gb.replace(' ', 'T')}+08:00`).valueOf();
    expect(spanSeconds(target)).toBe(600);
    expect(seekOffsetIn(target, at('2026-11-27 10:00:00'))).toBe(0);
    expect(seekOffsetIn(target, at('2026-11-27 10:05:00') + 999)).toBe(300);
    expect(seekOffsetIn(target, at('2026-11-27 10:09:59'))).toBe(599);
    expect(seekOffsetIn(target, at('2026-11-27 10:10:00'))).toBeNull();
    expect(seekOffsetIn(target, at('2026-11-27 09:59:59'))).toBeNull();
    expect(seekOffsetIn(target, NaN)).toBeNull();
    expect(seekOffsetIn({ start: 'x', end: '2026-11-27 10:10:00' }, at('2026-11-27 10:05:00'))).toBeNull();
  });

  it('runs the recording time at the speed in force from the last change, stopped while paused, never past the end', () => {
    const SPAN = 600;
    // not started: the span's start
    expect(clockPosition(GB_CLOCK_START, SPAN, 5_000)).toBe(0);
    const running = clockAt(GB_CLOCK_START, SPAN, 1_000, { running: true });
    expect(clockPosition(running, SPAN, 11_000)).toBe(10);
    // 4x from 10 s in: 40 s of recording in the next 10 s
    const fast = clockAt(running, SPAN, 11_000, { running: true, scale: 4 });
    expect(clockPosition(fast, SPAN, 21_000)).toBe(50);
    // a seek keeps the speed and counts from the new point
    const seeked = clockAt(fast, SPAN, 21_000, { running: true, at: 300 });
    expect(seeked.scale).toBe(4);
    expect(clockPosition(seeked, SPAN, 22_000)).toBe(304);
    // paused: it stands; 0.25x after the resume
    const paused = clockAt(seeked, SPAN, 22_000, { running: false });
    expect(clockPosition(paused, SPAN, 99_000)).toBe(304);
    const slow = clockAt(paused, SPAN, 99_000, { running: true, scale: 0.25 });
    expect(clockPosition(slow, SPAN, 103_000)).toBe(305);
    expect(clockPosition(slow, SPAN, 10_000_000)).toBe(SPAN);
  });
});
