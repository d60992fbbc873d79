import { LIVE_PLAYERS_MAX, MenuId } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import type { LiveDevice } from './liveSource';
import { StateOverlay } from './LiveView';
import { LivePlayer, type LivePlayerState } from './player/LivePlayer';
import { openPlayerCount } from './playerSlots';
import { DEVICE_DRAG_TYPE, useVideoWall, VideoWall, type VideoWallHandle } from './VideoWall';

// players that ask and never hear back: the tiles stay in 'requesting' and nothing goes to a network
const created: LiveDevice[] = [];
const released: number[] = [];
const deps = {
  createPlayer: (device: LiveDevice) => {
    created.push(device);
    return new LivePlayer({
      request: () => new Promise(() => undefined),
      lang: () => 'en-US',
      loadMpegts: () => new Promise(() => undefined),
    });
  },
  releaseLive: (_player: LivePlayer, device: LiveDevice) => void released.push(device.id),
  releaseAll: () => void released.push(-1),
};

let handle: VideoWallHandle;
function Harness() {
  handle = useVideoWall(deps);
  return <VideoWall wall={handle} />;
}

const device = (id: number): LiveDevice => ({ id, name: `Officer ${id}`, hostbody: `B${id}` });

function stubPlayConfig(videoLiveNum: number) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 200, msg: '', data: { video_live_num: videoLiveNum } }), {
          headers: { 'content-type': 'application/json' },
        }),
    ),
  );
}

async function renderWall(videoLiveNum: number) {
  stubPlayConfig(videoLiveNum);
  const view = await renderWidget(
    <App>
      <Harness />
    </App>,
    { language: 'en-US', permissions: { [MenuId.DISPATCH_VIDEO]: { view: 1, edit: 1 } } },
  );
  return view;
}

const tiles = () => screen.getAllByTestId('wall-tile');

beforeEach(() => {
  created.length = 0;
  released.length = 0;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('VideoWall', () => {
  it('starts at the configured split (6: one big tile and five) and switches to 1, 4, 9, 16', async () => {
    await renderWall(5);
    await waitFor(() => expect(screen.getByTestId('video-wall').dataset.split).toBe('6'));
    expect(tiles()).toHaveLength(6);
    expect(tiles()[0]!.className).toContain('bwc-wall-tile-big');
    expect(tiles()[1]!.className).not.toContain('bwc-wall-tile-big');
    for (const [label, count] of [
      ['1 tile', 1],
      ['4 tiles', 4],
      ['9 tiles', 9],
      ['16 tiles', 16],
    ] as const) {
      fireEvent.click(screen.getByText(label));
      expect(tiles()).toHaveLength(count);
      expect(tiles().some((tile) => tile.className.includes('bwc-wall-tile-big'))).toBe(false);
    }
  });

  it(`plays at most ${LIVE_PLAYERS_MAX} at once: the next one in a 16-split is refused with a message`, async () => {
    await renderWall(16);
    await waitFor(() => expect(tiles()).toHaveLength(16));
    act(() => {
      for (let id = 1; id <= LIVE_PLAYERS_MAX; id++) handle.open(device(id));
    });
    expect(screen.getAllByTestId('live-view')).toHaveLength(LIVE_PLAYERS_MAX);
    expect(screen.getAllByText('Requesting the live video of Officer 1...')).toHaveLength(1);
    act(() => void handle.open(device(10)));
    expect(
      await screen.findByText(`At most ${LIVE_PLAYERS_MAX} live videos can play at once: close a tile first`),
    ).toBeTruthy();
    expect(screen.getAllByTestId('live-view')).toHaveLength(LIVE_PLAYERS_MAX);
    expect(created.map((d) => d.id)).not.toContain(10);
    expect(screen.getByTestId('wall-count').textContent).toBe(`Playing 9 / ${LIVE_PLAYERS_MAX}`);

    // closing one frees its slot (and tells the server)
    fireEvent.click(within(tiles()[0]!).getByTestId('live-close'));
    expect(released).toEqual([1]);
    act(() => void handle.open(device(10)));
    expect(tiles()[0]!.dataset.device).toBe('10');
  });

  it('opens into the selected tile, else the first free one; a drop opens on its tile', async () => {
    const view = await renderWall(9);
    await waitFor(() => expect(tiles()).toHaveLength(9));
    fireEvent.click(tiles()[4]!);
    expect(tiles()[4]!.getAttribute('aria-pressed')).toBe('true');
    act(() => void handle.open(device(1)));
    expect(tiles()[4]!.dataset.device).toBe('1');
    act(() => void handle.open(device(2)));
    expect(tiles()[0]!.dataset.device).toBe('2');

    const data = new Map([[DEVICE_DRAG_TYPE, JSON.stringify(device(3))]]);
    const dataTransfer = {
      types: [...data.keys()],
      getData: (type: string) => data.get(type) ?? '',
      dropEffect: 'none',
    };
    fireEvent.dragOver(tiles()[7]!, { dataTransfer });
    fireEvent.drop(tiles()[7]!, { dataTransfer });
    expect(tiles()[7]!.dataset.device).toBe('3');

    // the same device again: it is not opened twice
    act(() => void handle.open(device(3)));
    expect(created.map((d) => d.id)).toEqual([1, 2, 3]);

    // leaving the page closes the wall's players and tells the server once
    view.unmount();
    expect(released).toEqual([-1]);
    expect(openPlayerCount()).toBe(0);
  });
});

describe('sound', () => {
  it('offers mute only for streams with sound (a GB channel without audio has none)', async () => {
    const silent = new Set<number>([2]);
    const usual = deps.createPlayer;
    onTestFinished(() => {
      deps.createPlayer = usual;
    });
    deps.createPlayer = (d: LiveDevice) => {
      created.push(d);
      return new LivePlayer({
        request: () => new Promise(() => undefined),
        lang: () => 'en-US',
        loadMpegts: () => new Promise(() => undefined),
        ...(silent.has(d.id) ? { hasAudio: false } : {}),
      });
    };
    await renderWall(4);
    await waitFor(() => expect(tiles()).toHaveLength(4));
    act(() => {
      handle.open(device(1));
      handle.open(device(2));
    });
    const views = screen.getAllByTestId('live-view');
    expect(views).toHaveLength(2);
    expect(within(views[0]!).queryByTestId('live-mute')).not.toBeNull();
    expect(within(views[1]!).queryByTestId('live-mute')).toBeNull();
    expect(within(views[1]!).queryByTestId('live-snapshot')).not.toBeNull();
  });
});

describe('tile states', () => {
  const cases: [LivePlayerState, string][] = [
    [{ kind: 'idle' }, 'Requesting the live video of Officer 7...'],
    [{ kind: 'requesting' }, 'Requesting the live video of Officer 7...'],
    [{ kind: 'connecting', starting: true }, 'Waiting for the device to start...'],
    [{ kind: 'connecting', starting: false }, 'Connecting to the stream...'],
    [{ kind: 'stalled' }, 'The picture stalled, buffering...'],
    [{ kind: 'reconnecting', attempt: 2, delayMs: 2_000 }, 'Connection lost, reconnecting in 2 s (attempt 2)...'],
    [{ kind: 'paused' }, 'Not visible: download paused'],
    [{ kind: 'ended' }, 'The device stopped streaming'],
    [{ kind: 'failed', reason: 'offline' }, 'The device is offline or not streaming'],
    [{ kind: 'failed', reason: 'refused', detail: 'outside your units' }, "You may not view this device's live video"],
    [{ kind: 'failed', reason: 'token' }, 'The play permit expired, please retry'],
    [{ kind: 'failed', reason: 'timeout' }, 'The device did not start streaming in time'],
    [{ kind: 'failed', reason: 'network' }, 'The connection failed'],
    [{ kind: 'failed', reason: 'media' }, 'The video could not be decoded'],
    [
      { kind: 'failed', reason: 'unsupported' },
      'This browser cannot play live video (it needs Media Source Extensions): use a recent Chrome, Edge or Firefox',
    ],
    [{ kind: 'failed', reason: 'request', detail: 'device offline' }, 'Could not open the live video'],
  ];
  for (const [state, text] of cases) {
    it(`${state.kind}${state.kind === 'failed' ? ` ${state.reason}` : ''}`, async () => {
      const onRetry = vi.fn();
      await renderWidget(<StateOverlay state={state} name="Officer 7" onRetry={onRetry} />, { language: 'en-US' });
      expect(screen.getByText(text)).toBeTruthy();
      const retry = screen.queryByTestId('live-retry');
      expect(retry !== null).toBe(state.kind === 'failed' || state.kind === 'ended');
      if (state.kind === 'failed' && state.detail) expect(screen.getByText(state.detail)).toBeTruthy();
      if (retry) {
        fireEvent.click(retry);
        expect(onRetry).toHaveBeenCalledOnce();
      }
    });
  }

  it('a passing failure counts down to its own retry, and the button still retries at once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const onRetry = vi.fn();
    await renderWidget(
      <StateOverlay
        state={{ kind: 'failed', reason: 'timeout', retryInMs: 10_000 }}
        name="Officer 7"
        onRetry={onRetry}
      />,
      { language: 'en-US' },
    );
    expect(screen.getByText('The device did not start streaming in time')).toBeTruthy();
    expect(screen.getByTestId('live-auto-retry').textContent).toBe('Retrying by itself in 10 s');
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(screen.getByTestId('live-auto-retry').textContent).toBe('Retrying by itself in 7 s');
    fireEvent.click(screen.getByTestId('live-retry'));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('playing shows no overlay', async () => {
    await renderWidget(<StateOverlay state={{ kind: 'playing' }} name="Officer 7" onRetry={() => undefined} />);
    expect(screen.queryByTestId('live-overlay')).toBeNull();
  });
});
