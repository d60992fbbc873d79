import { Api, MenuId, type PlaybackDevice, type PlaybackRecording } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from '../data/fakeServer';
import { testMedia } from '../data/test-media';
import { PlaybackPage } from './PlaybackPage';

afterEach(() => vi.unstubAllGlobals());

const camera: PlaybackDevice = {
  id: 7,
  hostname: 'Officer Li',
  hostbody: 'T000000007',
  hostcode: 'P007',
  unit_id: 1,
  unit_name: 'Futian',
  lineon: 1,
};

function recording(id: number, recorded_at: string, seconds: number): PlaybackRecording {
  return {
    id,
    device_id: camera.id,
    media_type: 1,
    title: `clip ${id}`,
    recorded_at,
    duration: seconds,
    end: new Date(Date.parse(recorded_at) + seconds * 1000).toISOString(),
    flg: 0,
    playable: 'ready',
    thumb_url: '',
  };
}

describe('history replay page', () => {
  it('searches the picked device over the range and draws its recordings by time', async () => {
    let range = { start: '', end: '' };
    const server = fakeServer((path, body) => {
      if (path === Api.replayDevices.path) return [camera];
      if (path === Api.replaySearch.path) {
        range = { start: String(body.start), end: String(body.end) };
        const at = (fraction: number) =>
          new Date(
            Date.parse(range.start) + fraction * (Date.parse(range.end) - Date.parse(range.start)),
          ).toISOString();
        const span = (Date.parse(range.end) - Date.parse(range.start)) / 1000;
        return {
          start: range.start,
          end: range.end,
          devices: [camera],
          recordings: [recording(11, at(0.25), span * 0.25), recording(12, at(0.75), span * 0.1)],
          alarms: [
            {
              device_id: camera.id,
              type: 'alarm',
              time: at(0.5),
              end: null,
              media_id: null,
              alarm_type: '1',
              label: 'SOS',
            },
          ],
          truncated: false,
        };
      }
      if (path === Api.replaySave.path)
        return testMedia(Number(body.id), { flg: Number(body.flg ?? 0), title: String(body.title ?? 'clip') });
      if (path === Api.replayInfo.path)
        return {
          item: testMedia(Number(body.id), { device_id: camera.id }),
          play_url: `/media/evidence/play/${String(body.id)}?token=t`,
          play_mime: 'video/mp4',
          expires: Date.now() + 60_000,
        };
      return null;
    });
    await renderWidget(
      <App>
        <PlaybackPage />
      </App>,
      {
        language: 'en-US',
        permissions: { [MenuId.PLAYBACK]: { view: 1, edit: 1 } },
      },
    );

    // pick the device from the searchable list
    fireEvent.mouseDown(document.querySelector('[data-testid="playback-devices"] .ant-select-selector')!);
    fireEvent.click(await screen.findByText('Officer Li(P007)'));
    fireEvent.click(screen.getByTestId('playback-search'));

    await waitFor(() => expect(server.calls(Api.replaySearch.path)).toHaveLength(1));
    const sent = server.calls(Api.replaySearch.path)[0]!;
    expect(sent.ids).toEqual([camera.id]);
    // today by default: from midnight to the end of the day, local time
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    expect(sent.start).toBe(midnight.toISOString());
    expect(Date.parse(String(sent.end)) - Date.parse(String(sent.start))).toBe(86_400_000 - 1);

    const bars = await screen.findAllByTestId('replay-bar');
    const pct = (v: string) => Math.round(parseFloat(v) * 1000) / 1000;
    expect(bars.map((b) => [b.dataset.id, pct(b.style.left), pct(b.style.width)])).toEqual([
      ['11', 25, 25],
      ['12', 75, 10],
    ]);
    expect(pct(screen.getByTestId('replay-alarm').style.left)).toBe(50);
    expect(screen.getByTestId('playback-count').textContent).toBe('2 recordings');

    // a click in the middle of a bar plays that recording from its middle
    const bar = bars[1]!;
    bar.getBoundingClientRect = () => ({
      left: 100,
      width: 200,
      top: 0,
      height: 20,
      right: 300,
      bottom: 20,
      x: 100,
      y: 0,
      toJSON: () => ({}),
    });
    fireEvent.click(bar, { clientX: 200 });
    const video = (await screen.findByTestId('replay-video')) as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/media/evidence/play/12?token=t');
    expect(server.calls(Api.replayInfo.path)).toEqual([{ id: 12 }]);
    fireEvent.loadedMetadata(video);
    const seconds = (Date.parse(range.end) - Date.parse(range.start)) / 1000;
    expect(video.currentTime).toBeCloseTo(seconds * 0.1 * 0.5, 3);

    // mark, and revise title with a reason, through saveinfo
    fireEvent.click(screen.getByTestId('replay-mark'));
    await waitFor(() => expect(server.calls(Api.replaySave.path)).toEqual([{ id: 12, flg: 1 }]));
    fireEvent.click(screen.getByTestId('replay-edit'));
    const form = await screen.findByTestId('replay-revise');
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'traffic stop' } });
    fireEvent.change(within(form).getByLabelText('Reason for the change'), { target: { value: 'named' } });
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(server.calls(Api.replaySave.path)).toHaveLength(2));
    expect(server.calls(Api.replaySave.path)[1]).toMatchObject({ id: 12, title: 'traffic stop', reason: 'named' });
  });

  it('asks for devices before searching', async () => {
    const server = fakeServer((path) => (path === Api.replayDevices.path ? [camera] : null));
    await renderWidget(
      <App>
        <PlaybackPage />
      </App>,
      {
        language: 'en-US',
        permissions: { [MenuId.PLAYBACK]: { view: 1 } },
      },
    );
    fireEvent.click(screen.getByTestId('playback-search'));
    expect(await screen.findAllByText('Pick devices first')).not.toHaveLength(0);
    expect(server.calls(Api.replaySearch.path)).toHaveLength(0);
  });
});
