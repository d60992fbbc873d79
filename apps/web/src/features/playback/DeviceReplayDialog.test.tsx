import { Api, MenuId, type PlaybackDevice } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from '../data/fakeServer';
import { testMedia } from '../data/test-media';
import { DeviceReplayDialog } from './DeviceReplayDialog';

afterEach(() => vi.unstubAllGlobals());

const camera: PlaybackDevice = {
  id: 9,
  hostname: 'Officer Wang',
  hostbody: 'T000000009',
  hostcode: '',
  unit_id: 1,
  unit_name: 'Futian',
  lineon: 1,
};

describe('dispatch device replay', () => {
  it("finds today's recordings of the device through gis/mediafile and plays one through gis/playback", async () => {
    const server = fakeServer((path, body) => {
      if (path === Api.mediafileSearch.path)
        return {
          start: body.start,
          end: body.end,
          devices: [camera],
          recordings: [
            {
              id: 31,
              device_id: camera.id,
              media_type: 1,
              title: 'clip',
              recorded_at: body.start,
              duration: 60,
              end: new Date(Date.parse(String(body.start)) + 60_000).toISOString(),
              flg: 0,
              playable: 'ready',
              thumb_url: '',
            },
          ],
          alarms: [],
          truncated: false,
        };
      if (path === Api.playbackInfo.path)
        return {
          item: testMedia(31),
          play_url: '/media/evidence/play/31?token=t',
          play_mime: 'video/mp4',
          expires: Date.now() + 60_000,
        };
      if (path === Api.playbackFlag.path) return testMedia(31, { flg: 1 });
      return null;
    });
    await renderWidget(
      <App>
        <DeviceReplayDialog device={{ id: camera.id, name: 'Officer Wang' }} onClose={() => undefined} />
      </App>,
      { language: 'en-US', permissions: { [MenuId.EMERGENCY]: { view: 1, edit: 1 } } },
    );
    await waitFor(() => expect(server.calls(Api.mediafileSearch.path)).toHaveLength(1));
    const sent = server.calls(Api.mediafileSearch.path)[0]!;
    expect(sent.ids).toEqual([camera.id]);
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    expect(sent.start).toBe(midnight.toISOString());

    const bar = await screen.findByTestId('replay-bar');
    expect(bar.style.left).toBe('0%');
    fireEvent.click(bar);
    expect(((await screen.findByTestId('replay-video')) as HTMLVideoElement).getAttribute('src')).toBe(
      '/media/evidence/play/31?token=t',
    );
    expect(server.calls(Api.playbackInfo.path)).toEqual([{ id: 31 }]);
    // the dispatch door has no revision, only the mark
    expect(screen.queryByTestId('replay-edit')).toBeNull();
    fireEvent.click(screen.getByTestId('replay-mark'));
    await waitFor(() => expect(server.calls(Api.playbackFlag.path)).toEqual([{ id: 31, flg: 1 }]));
  });

  it("searches the range it is given (a track's range on the history page)", async () => {
    const server = fakeServer((path, body) =>
      path === Api.mediafileSearch.path
        ? { start: body.start, end: body.end, devices: [camera], recordings: [], alarms: [], truncated: false }
        : null,
    );
    const start = '2026-03-10T08:00:00.000Z';
    const end = '2026-03-10T09:30:00.000Z';
    await renderWidget(
      <App>
        <DeviceReplayDialog
          device={{ id: camera.id, name: 'Officer Wang' }}
          initialRange={[dayjs(start), dayjs(end)]}
          onClose={() => undefined}
        />
      </App>,
      { language: 'en-US', permissions: { [MenuId.HISTORY]: { view: 1 } } },
    );
    await waitFor(() => expect(server.calls(Api.mediafileSearch.path)).toEqual([{ ids: [camera.id], start, end }]));
    expect(await screen.findByText('No recordings')).toBeTruthy();
  });
});
