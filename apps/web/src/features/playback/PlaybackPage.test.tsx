import { Api, MenuId, type PlaybackDevice, type PlaybackRecording } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
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
    expect(bars.map((b) => [b.dataset.id, b.style.left, b.style.width])).toEqual([
      ['11', '25%', '25%'],
      ['12', '75%', '10%'],
    ]);
    expect(screen.getByTestId('replay-alarm').style.left).toBe('50%');
    expect(screen.getByTestId('playback-count').textContent).toBe('2 recordings');

    // a click plays that recording
    fireEvent.click(bars[1]!);
    const video = (await screen.findByTestId('replay-video')) as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/media/evidence/play/12?token=t');
    expect(server.calls(Api.replayInfo.path)).toEqual([{ id: 12 }]);
    expect(screen.getByTestId('replay-mark')).toBeTruthy();
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
