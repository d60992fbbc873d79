import { Api, MenuId, type GbRecording, type GbTreeNode, type UserContext } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionKeys } from '../../../app/session/queries';
import { renderWidget } from '../../../components/test-utils';
import { notify } from '../../../api/notify';
import { fakeServer } from '../../data/fakeServer';
import type { MpegtsModule } from '../../video/player/LivePlayer';
import { PlaybackPage } from '../PlaybackPage';
import { GbPlaybackPage } from './GbPlaybackPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const DEVICE = '34020000001320000001';
const CAMERA = '34020000001310000001';

const channel = (lineon: 0 | 1): GbTreeNode => ({
  devgbid: CAMERA,
  itemtype: '5',
  name: 'Gate camera',
  device: DEVICE,
  lineon,
  unit_id: 1,
  ptztype: 1,
  lng: null,
  lat: null,
  hasChildren: false,
});

const tree = (lineon: 0 | 1): GbTreeNode[] => [
  {
    ...channel(lineon),
    devgbid: DEVICE,
    itemtype: '1',
    name: 'Gate NVR',
    hasChildren: true,
    children: [channel(lineon)],
  },
];

const rec = (start: string, end: string, type: string): GbRecording => ({
  channel: CAMERA,
  name: 'Gate NVR',
  start,
  end,
  type,
  file_path: '',
  file_size: null,
  recorder_id: '',
});

/** A day (GB time, +08:00) and two recordings in it: 06:00-12:00 (scheduled) and 18:00-18:00:30 (alarm). */
const DAY = dayjs('2026-11-20T00:00:00+08:00');
const DAY_END = DAY.add(1, 'day').subtract(1, 'second');
/** a GB time as the page shows it: the browser's local time */
const shown = (gb: string) => dayjs(`${gb.replace(' ', 'T')}+08:00`).format('YYYY-MM-DD HH:mm:ss');
/** gbplay's answer for a playback under `key` (the controls use its key) */
const playAnswer = (key: string) => ({
  channel_id: CAMERA,
  key,
  transport: 'udp',
  ssrc: '1',
  flv: '/x.flv',
  ws: '/x.flv',
  expires: 9,
  has_audio: 0,
});

const RECORDINGS = [
  rec('2026-11-20 06:00:00', '2026-11-20 12:00:00', 'time'),
  rec('2026-11-20 18:00:00', '2026-11-20 18:00:30', 'alarm'),
];

/** mpegts.js of a browser without MSE: the player asks gbplay, then stops there. */
const noMse = {
  loadMpegts: () => Promise.resolve({ getFeatureList: () => ({ mseLivePlayback: false }) } as unknown as MpegtsModule),
  pauseWhenHidden: false,
};

async function renderPage(handle: (path: string, body: Record<string, unknown>) => unknown) {
  const server = fakeServer(handle);
  await renderWidget(
    <App>
      <GbPlaybackPage playerOptions={noMse} initialRange={[DAY, DAY_END]} />
    </App>,
    { language: 'en-US', permissions: { [MenuId.PLAYBACK]: { view: 1 } } },
  );
  return server;
}

async function pickChannel() {
  fireEvent.click(await screen.findByText('Gate camera'));
  await waitFor(() => expect(screen.getByTestId('gb-replay-channel').textContent).toContain('Gate camera'));
}

describe('GB history replay', () => {
  it('searches the picked channel, shows its recordings on the timeline and in the list, plays one through gbplay', async () => {
    const server = await renderPage((path) => {
      if (path === Api.gbDeviceTree.path) return tree(1);
      if (path === Api.gbRecordSearch.path) return RECORDINGS;
      if (path === Api.gbPlay.path) return { code: 504, msg: 'The GB device did not answer in time.', data: null };
      return null;
    });
    fireEvent.click(screen.getByTestId('gb-replay-search'));
    expect((await screen.findByTestId('gb-replay-notice')).textContent).toBe(
      'Pick a GB channel in the device tree first',
    );
    expect(server.calls(Api.gbRecordSearch.path)).toHaveLength(0);

    expect(screen.getByTestId('gb-replay-empty').textContent).toContain('Pick a GB channel in the device tree first');
    await pickChannel();
    // picked, not searched yet: the empty list says what to do next
    expect(screen.getByTestId('gb-replay-empty').textContent).toContain(
      'Channel Gate camera picked: choose a time range and press “Search device recordings”',
    );
    fireEvent.click(screen.getByTestId('gb-replay-search'));
    await waitFor(() =>
      expect(server.calls(Api.gbRecordSearch.path)).toEqual([
        { device: DEVICE, channel: CAMERA, start: '2026-11-20 00:00:00', end: '2026-11-20 23:59:59' },
      ]),
    );
    expect((await screen.findByTestId('gb-replay-count')).textContent).toContain('2 device recordings');

    // bars placed by time over the day: 06:00 is a quarter in, six hours a quarter wide
    const bars = screen.getAllByTestId('replay-bar');
    const pct = (v: string) => Math.round(parseFloat(v) * 100) / 100;
    expect(bars.map((b) => [pct(b.style.left), pct(b.style.width)])).toEqual([
      [25, 25],
      [75, 0.3],
    ]);
    // the list: start, end, duration, type
    const rows = within(screen.getByTestId('gb-replay-list')).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent))).toEqual([
      [shown('2026-11-20 06:00:00'), shown('2026-11-20 12:00:00'), '6:00:00', 'Scheduled'],
      [shown('2026-11-20 18:00:00'), shown('2026-11-20 18:00:30'), '0:00:30', 'Alarm'],
    ]);

    // a click in the middle of the first bar plays from three hours in to the recording's end
    bars[0]!.getBoundingClientRect = () =>
      ({
        left: 100,
        width: 200,
        top: 0,
        height: 20,
        right: 300,
        bottom: 20,
        x: 100,
        y: 0,
        toJSON: () => ({}),
      }) as DOMRect;
    fireEvent.click(bars[0]!, { clientX: 200 });
    await waitFor(() =>
      expect(server.calls(Api.gbPlay.path)).toEqual([
        { channel: CAMERA, device: DEVICE, start: '2026-11-20 09:00:00', end: '2026-11-20 12:00:00' },
      ]),
    );
    const player = screen.getByTestId('gb-replay-player');
    expect(player.textContent).toContain(
      `Gate camera ${shown('2026-11-20 09:00:00')} - ${shown('2026-11-20 12:00:00')}`,
    );
    // the device did not answer: the player says so with the server's message
    await waitFor(() => expect(within(player).getByTestId('live-view').dataset.state).toBe('failed'));
    expect(player.textContent).toContain('The GB device did not answer in time.');
    // no answer, so no word on sound: no sound control
    expect(within(player).queryByTestId('live-mute')).toBeNull();

    // the list's play plays the whole recording
    fireEvent.click(within(rows[1]!).getByTestId('gb-replay-play'));
    await waitFor(() => expect(server.calls(Api.gbPlay.path)).toHaveLength(2));
    expect(server.calls(Api.gbPlay.path)[1]).toEqual({
      channel: CAMERA,
      device: DEVICE,
      start: '2026-11-20 18:00:00',
      end: '2026-11-20 18:00:30',
    });
    await waitFor(() =>
      expect(screen.getByTestId('gb-replay-player').textContent).toContain(
        `${shown('2026-11-20 18:00:00')} - ${shown('2026-11-20 18:00:30')}`,
      ),
    );
    fireEvent.click(within(screen.getByTestId('gb-replay-player')).getByTestId('live-close'));
    await waitFor(() => expect(screen.queryByTestId('gb-replay-player')).toBeNull());
  });

  it('pauses and resumes the playing recording through gbcontrol with the answer key; a refusal keeps the state', async () => {
    const KEY = `gbpb:${DEVICE}_${CAMERA}_1763632800_1763632830`;
    let control: unknown = null;
    const server = await renderPage((path) => {
      if (path === Api.gbDeviceTree.path) return tree(1);
      if (path === Api.gbRecordSearch.path) return RECORDINGS;
      if (path === Api.gbPlay.path) return playAnswer(KEY);
      if (path === Api.gbPlaybackControl.path) return control;
      return null;
    });
    await pickChannel();
    fireEvent.click(screen.getByTestId('gb-replay-search'));
    const rows = await screen.findAllByTestId('gb-replay-play');
    fireEvent.click(rows[1]!);
    const pause = await screen.findByTestId('gb-replay-pause');
    // enabled once the server answered with the playback's key
    await waitFor(() => expect(pause.hasAttribute('disabled')).toBe(false));
    expect(pause.textContent).toBe('Pause');
    fireEvent.click(pause);
    await waitFor(() => expect(pause.dataset.paused).toBe('true'));
    expect(pause.textContent).toBe('Resume');
    expect(screen.getByTestId('gb-replay-paused').textContent).toBe('Paused on the device');
    expect(server.calls(Api.gbPlaybackControl.path)).toEqual([{ key: KEY, action: 'pause' }]);
    // the device refuses the resume: still paused, the server's message shown
    control = { code: 504, msg: 'The GB device did not answer in time.', data: null };
    const toast = vi.spyOn(notify, 'error');
    await waitFor(() => expect(pause.className).not.toContain('ant-btn-loading'));
    fireEvent.click(pause);
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.stringContaining('The GB device did not answer in time.')),
    );
    expect(pause.dataset.paused).toBe('true');
    control = null;
    await waitFor(() => expect(pause.className).not.toContain('ant-btn-loading'));
    fireEvent.click(pause);
    await waitFor(() => expect(pause.dataset.paused).toBe('false'));
    expect(server.calls(Api.gbPlaybackControl.path)).toEqual([
      { key: KEY, action: 'pause' },
      { key: KEY, action: 'resume' },
      { key: KEY, action: 'resume' },
    ]);
    expect(screen.queryByTestId('gb-replay-paused')).toBeNull();
  });

  it('sets the speed and seeks through gbcontrol (a timeline click inside the playing span); the recording time and the progress bar follow; outside the span a click plays anew', async () => {
    const KEY = `gbpb:${DEVICE}_${CAMERA}_1763589600_1763611200`;
    let control: unknown = null;
    const server = fakeServer((path) => {
      if (path === Api.gbDeviceTree.path) return tree(1);
      if (path === Api.gbRecordSearch.path) return RECORDINGS;
      if (path === Api.gbPlay.path) return playAnswer(KEY);
      if (path === Api.gbPlaybackControl.path) return control;
      return null;
    });
    // an mpegts.js that plays: the page's player reaches 'playing' when the video says so
    const mpegts = {
      getFeatureList: () => ({ mseLivePlayback: true }),
      BaseLoader: class {},
      LoaderStatus: { kConnecting: 1, kBuffering: 2, kComplete: 4 },
      Events: { ERROR: 'error' },
      ErrorTypes: { NETWORK_ERROR: 'NetworkError', MEDIA_ERROR: 'MediaError' },
      createPlayer: () => ({
        mediaInfo: {},
        statisticsInfo: {},
        attachMediaElement: () => undefined,
        detachMediaElement: () => undefined,
        load: () => undefined,
        unload: () => undefined,
        play: () => Promise.resolve(),
        destroy: () => undefined,
        on: () => undefined,
      }),
    } as unknown as MpegtsModule;
    await renderWidget(
      <App>
        <GbPlaybackPage
          playerOptions={{ loadMpegts: () => Promise.resolve(mpegts), pauseWhenHidden: false }}
          initialRange={[DAY, DAY_END]}
        />
      </App>,
      { language: 'en-US', permissions: { [MenuId.PLAYBACK]: { view: 1 } } },
    );
    await pickChannel();
    fireEvent.click(screen.getByTestId('gb-replay-search'));
    const rows = await screen.findAllByTestId('gb-replay-play');
    fireEvent.click(rows[0]!);
    const pause = await screen.findByTestId('gb-replay-pause');
    await waitFor(() => expect(pause.hasAttribute('disabled')).toBe(false));
    const time = screen.getByTestId('gb-replay-time');
    const position = () => Number(time.dataset.position);
    // before the first picture the recording time stands at the span's start
    expect(time.textContent).toBe(`Recording time: ${shown('2026-11-20 06:00:00')}`);
    const player = screen.getByTestId('gb-replay-player');
    await waitFor(() => expect(within(player).getByTestId('live-view').dataset.state).toBe('connecting'));
    const video = player.querySelector('video')!;
    // a picture that moves: jsdom's video time stays at 0, which the player's frozen-picture
    // watchdog takes for a stall 8 s on (reconnect, then failed, and the recording time stops) once a
    // busy machine stretches the test past that
    Object.defineProperty(video, 'currentTime', { configurable: true, get: () => performance.now() / 1000 });
    fireEvent(video, new Event('playing'));
    await waitFor(() => expect(position()).toBeGreaterThanOrEqual(1), { timeout: 20_000 });

    // 4x: asked of the server, then the recording time runs four times as fast: 4 s later it shows
    // 16 s more. Only Date is faked (held, then moved on by hand; the page's ticks and the waits run
    // on real timers), so a busy machine delaying the renders cannot make 4x look slower; at 1x or
    // 2x the time shown would stop short of it for good
    fireEvent.mouseDown(within(player).getByTestId('gb-replay-speed').querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('4×'));
    await waitFor(() =>
      expect(server.calls(Api.gbPlaybackControl.path)).toEqual([{ key: KEY, action: 'speed', scale: 4 }]),
    );
    // the speed shown and the recording time come from the same clock, in force once the answer came
    await waitFor(() => expect(within(player).getByTestId('gb-replay-speed').textContent).toBe('4×'));
    vi.useFakeTimers({ toFake: ['Date'] });
    // read at the freeze or before it (a render behind): never more than the time at the freeze
    const from = position();
    vi.setSystemTime(Date.now() + 4000);
    // a long wait costs nothing when it works, and cannot help a wrong speed: the time is held
    await waitFor(() => expect(position()).toBeGreaterThanOrEqual(from + 16), { timeout: 20_000 });

    // a click in the middle of the first bar is inside the playing span (06:00-12:00): a seek to 09:00
    const bars = screen.getAllByTestId('replay-bar');
    bars[0]!.getBoundingClientRect = () =>
      ({
        left: 100,
        width: 200,
        top: 0,
        height: 20,
        right: 300,
        bottom: 20,
        x: 100,
        y: 0,
        toJSON: () => ({}),
      }) as DOMRect;
    fireEvent.click(bars[0]!, { clientX: 200 });
    await waitFor(() =>
      expect(server.calls(Api.gbPlaybackControl.path)[1]).toEqual({ key: KEY, action: 'seek', offset: 3 * 3600 }),
    );
    await waitFor(() => expect(position()).toBeGreaterThanOrEqual(3 * 3600));
    expect(position()).toBeLessThan(3 * 3600 + 60);
    expect(time.textContent).toContain(`Recording time: ${shown('2026-11-20 09:00:00').slice(0, 15)}`);
    expect(server.calls(Api.gbPlay.path)).toHaveLength(1);
    // the progress bar shows the same point of the span
    expect(
      Number(
        within(player)
          .getByRole('slider', { name: 'Playback position (click or drag to jump)' })
          .getAttribute('aria-valuenow'),
      ),
    ).toBeGreaterThanOrEqual(3 * 3600);

    // a refused speed keeps the one in force, with the server's message
    control = { code: 504, msg: 'The GB device did not answer in time.', data: null };
    const toast = vi.spyOn(notify, 'error');
    fireEvent.mouseDown(within(player).getByTestId('gb-replay-speed').querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('0.5×'));
    await waitFor(() => expect(toast).toHaveBeenCalledWith(expect.stringContaining('did not answer')));
    expect(within(player).getByTestId('gb-replay-speed').textContent).toBe('4×');

    // the second bar (18:00) is outside the playing span: a new playback from there
    fireEvent.click(bars[1]!, { clientX: 0 });
    await waitFor(() => expect(server.calls(Api.gbPlay.path)).toHaveLength(2));
    expect(server.calls(Api.gbPlay.path)[1]).toMatchObject({
      start: '2026-11-20 18:00:00',
      end: '2026-11-20 18:00:30',
    });
    expect(server.calls(Api.gbPlaybackControl.path)).toHaveLength(3);
  });

  it('refuses a range over 7 days with the server message, without asking', async () => {
    const server = fakeServer((path) => (path === Api.gbDeviceTree.path ? tree(1) : []));
    await renderWidget(
      <App>
        <GbPlaybackPage playerOptions={noMse} initialRange={[DAY, DAY.add(7, 'day').add(1, 'minute')]} />
      </App>,
      { language: 'zh-CN', permissions: { [MenuId.PLAYBACK]: { view: 1 } } },
    );
    await pickChannel();
    fireEvent.click(screen.getByTestId('gb-replay-search'));
    expect((await screen.findByTestId('gb-replay-notice')).textContent).toBe(
      '结束时间须晚于开始时间，且相差不超过 7 天',
    );
    expect(server.calls(Api.gbRecordSearch.path)).toHaveLength(0);
  });

  it('says so when the device has no recordings, and shows an offline device and the server refusal plainly', async () => {
    let answer: unknown = [];
    const server = await renderPage((path) => {
      if (path === Api.gbDeviceTree.path) return tree(0);
      if (path === Api.gbRecordSearch.path) return answer;
      return null;
    });
    await pickChannel();
    expect(screen.getByTestId('gb-replay-channel').textContent).toContain('Device offline');
    fireEvent.click(screen.getByTestId('gb-replay-search'));
    expect((await screen.findByTestId('gb-replay-count')).textContent).toBe(
      'The device has no recordings in this range',
    );
    expect(screen.queryAllByTestId('replay-bar')).toHaveLength(0);
    expect(screen.queryByTestId('gb-replay-list')).toBeNull();

    answer = { code: 409, msg: 'The GB device is offline.', data: null };
    // antd's button takes clicks again once its loading state is gone
    await waitFor(() => expect(screen.getByTestId('gb-replay-search').className).not.toContain('ant-btn-loading'));
    fireEvent.click(screen.getByTestId('gb-replay-search'));
    const error = await screen.findByTestId('gb-replay-error');
    expect(error.textContent).toContain('Searching the recordings of Gate camera failed');
    expect(error.textContent).toContain('The GB device is offline.');
    expect(server.calls(Api.gbRecordSearch.path)).toHaveLength(2);
  });

  it('is the history replay page in GB mode', async () => {
    fakeServer((path) => (path === Api.gbDeviceTree.path ? tree(1) : null));
    const view = await renderWidget(
      <App>
        <PlaybackPage />
      </App>,
      { language: 'en-US', permissions: { [MenuId.PLAYBACK]: { view: 1 } } },
    );
    expect(screen.getByTestId('playback-page').dataset.mode).toBeUndefined();
    view.queryClient.setQueryData<UserContext>(sessionKeys.userContext, (old) => old && { ...old, gb: 1 });
    await waitFor(() => expect(screen.getByTestId('playback-page').dataset.mode).toBe('gb'));
    expect(await screen.findByText('Gate camera')).toBeTruthy();
  });
});
