import { MenuId, type ConfTile, type ConferenceAnswer } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { ConferencePanel, type ConferenceAudioLike } from './ConferencePanel';

// the tiles' live pictures are the video feature's (tested there): here a stand-in naming the device
vi.mock('../video/LiveView', () => ({
  LiveView: ({ device }: { device: { id: number; name: string } }) => (
    <div data-testid="live-view" data-device={device.id}>
      {device.name}
    </div>
  ),
}));

const ME = 100_000_001;
const OTHER = 100_000_002;
const TGID = 8;

const play = (id: number) => ({
  device_id: id,
  imei: `imei${id}`,
  hostbody: `hb${id}`,
  hostname: `Cam ${id}`,
  state: 'live' as const,
  flv: `/live/${id}.flv?token=t`,
  ws: `/live/${id}.flv?token=t`,
  expires: Date.now() + 60_000,
});
const tile = (uid: number, extra: Partial<ConfTile> = {}): ConfTile => ({
  uid,
  ext_id: `58000${uid}`,
  name: `Cam ${uid}`,
  shared: 0,
  play: play(uid),
  ...extra,
});
const participant = (uid: number, terminal: 0 | 1) => ({ uid, ext_id: `e${uid}`, name: `P${uid}`, terminal });
const conference = (demander = ME): ConferenceAnswer => ({
  tgid: TGID,
  tg_name: 'Patrol A',
  demander,
  extdemander: 'itrunk_desk',
  participants: [participant(ME, 0), participant(1, 1), participant(2, 1), participant(3, 1)],
  vsid: null,
  started: 1_000,
  tiles: [tile(1), tile(2), tile(3, { play: undefined, error: 'offline' })],
});
const share = (vsid: string) => ({ tgid: TGID, demander: ME, extdemander: 'x', vsid, by: ME });

function fakeSdk(answers: Partial<Record<string, (payload: Record<string, unknown>) => unknown>> = {}) {
  const listeners = new Map<string, Set<(message: unknown) => void>>();
  const requests: [string, Record<string, unknown>][] = [];
  const request = vi.fn(async (code: string, payload: Record<string, unknown>) => {
    requests.push([code, payload]);
    const answer = answers[code];
    if (answer) return answer(payload);
    if (code === 'req_start_video_conf') return conference();
    if (code === 'req_share_video_in_video_conf') return share(String(payload.vsid));
    if (code === 'req_stop_share_video_in_video_conf') return share(String(payload.vsid));
    if (code === 'req_stop_video_conf')
      return { tgid: TGID, demander: ME, extdemander: 'x', reason: 'stopped', by: ME };
    throw new Error(`unexpected ${code}`);
  });
  const sdk = {
    login: { login_uid: ME },
    on: (code: string, listener: (message: unknown) => void) => {
      if (!listeners.has(code)) listeners.set(code, new Set());
      listeners.get(code)!.add(listener);
      return () => listeners.get(code)!.delete(listener);
    },
    request,
    sendBinary: vi.fn(() => true),
    onBinary: () => () => undefined,
  };
  const emit = (code: string, payload: object) =>
    act(() => listeners.get(code)?.forEach((listener) => listener({ msg_code: code, cmd_type: 2, ...payload })));
  return { sdk: sdk as unknown as Parameters<typeof ConferencePanel>[0]['sdk'], requests, emit };
}

function fakeAudio(): ConferenceAudioLike & { startMic: ReturnType<typeof vi.fn>; close: ReturnType<typeof vi.fn> } {
  const audio = {
    micOn: false,
    startMic: vi.fn(async () => {
      audio.micOn = true;
    }),
    stopMic: vi.fn(() => {
      audio.micOn = false;
    }),
    resume: vi.fn(),
    close: vi.fn(),
  };
  return audio;
}

async function open(options: { fake?: ReturnType<typeof fakeSdk>; join?: boolean; edit?: boolean } = {}) {
  const fake = options.fake ?? fakeSdk();
  const audio = fakeAudio();
  const onClose = vi.fn();
  const view = await renderWidget(
    <App>
      <ConferencePanel
        tgid={TGID}
        join={options.join ? { ...conference(OTHER), event: 'started' } : undefined}
        sdk={fake.sdk}
        createAudio={() => audio}
        onClose={onClose}
      />
    </App>,
    {
      language: 'en-US',
      permissions: { [MenuId.EMERGENCY]: options.edit ? { view: 1, edit: 1 } : { view: 1 } },
    },
  );
  await screen.findByTestId('conference-panel');
  return { ...fake, audio, onClose, view };
}

const tiles = () => screen.queryAllByTestId('conf-tile');
const sharedUids = () =>
  tiles()
    .filter((t) => t.dataset.shared === '1')
    .map((t) => Number(t.dataset.uid));

describe('conference panel', () => {
  it('starts the conference and shows a tile per member terminal, with the reason when one has no picture', async () => {
    const { requests } = await open();
    expect(requests[0]).toEqual(['req_start_video_conf', { tgid: TGID }]);
    await waitFor(() => expect(tiles()).toHaveLength(3));
    expect(screen.getAllByTestId('live-view').map((v) => Number(v.dataset.device))).toEqual([1, 2]);
    expect(screen.getByText('Cam 3 is offline: no video')).toBeTruthy();
    expect(screen.getByTestId('conf-participants').textContent).toBe('4 participants');
    expect(screen.getByText('Video conference: Patrol A')).toBeTruthy();
  });

  it('shares a terminal: its tile first and marked; a shared device outside the group comes and goes with the notices', async () => {
    const { requests, emit } = await open();
    await waitFor(() => expect(tiles()).toHaveLength(3));
    fireEvent.mouseDown(screen.getByRole('combobox'));
    const option = await waitFor(() => {
      const found = document.querySelector('.ant-select-item-option[title="Cam 2"]');
      expect(found).toBeTruthy();
      return found!;
    });
    fireEvent.click(option);
    fireEvent.click(screen.getByTestId('conf-share'));
    await waitFor(() => expect(sharedUids()).toEqual([2]));
    expect(requests).toContainEqual(['req_share_video_in_video_conf', { tgid: TGID, vsid: '2' }]);
    expect(Number(tiles()[0]!.dataset.uid)).toBe(2);
    expect(screen.getByTestId('conf-shared').textContent).toBe('Shared');

    // another participant shares a device that is not in the group: everyone sees its tile
    emit('notice_share_video_in_video_conf', { ...share('9'), by: 1, tile: tile(9, { shared: 1 }) });
    expect(sharedUids()).toEqual([9]);
    expect(tiles()).toHaveLength(4);
    emit('notice_stop_share_video_in_video_conf', { ...share('9'), by: 1 });
    expect(sharedUids()).toEqual([]);
    expect(tiles()).toHaveLength(3);
    expect(screen.queryByTestId('conf-stop-share')).toBeNull();
  });

  it('the demander ends it after a confirmation: the request goes out and the panel closes', async () => {
    const { requests, onClose } = await open();
    await waitFor(() => expect(tiles()).toHaveLength(3));
    fireEvent.click(screen.getByTestId('conf-stop'));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.map(([code]) => code)).toContain('req_stop_video_conf');
  });

  it('joined from a notice: no start request, leave only without edit, closes with the reason when it ends', async () => {
    const { requests, emit, onClose } = await open({ join: true });
    await waitFor(() => expect(tiles()).toHaveLength(3));
    expect(requests).toEqual([]);
    expect(screen.queryByTestId('conf-stop')).toBeNull();
    expect(screen.getByTestId('conf-leave')).toBeTruthy();
    emit('notice_stop_video_conf', {
      tgid: TGID,
      demander: OTHER,
      extdemander: 'x',
      reason: 'demander_left',
      by: OTHER,
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await screen.findByText('The one who started it left: the video conference has ended')).toBeTruthy();
  });

  it('a console with edit may end a conference it did not start', async () => {
    await open({ join: true, edit: true });
    expect(await screen.findByTestId('conf-stop')).toBeTruthy();
  });

  it('turns the microphone on and off', async () => {
    const { audio } = await open();
    await waitFor(() => expect(tiles()).toHaveLength(3));
    fireEvent.click(screen.getByTestId('conf-mic'));
    await waitFor(() => expect(screen.getByTestId('conf-mic').textContent).toBe('Turn microphone off'));
    expect(audio.startMic).toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('conf-mic'));
    await waitFor(() => expect(screen.getByTestId('conf-mic').textContent).toBe('Turn microphone on'));
  });

  it("a refused start says the server's reason and closes", async () => {
    const fake = fakeSdk({
      req_start_video_conf: () => {
        throw new Error('Group Patrol A already has a video conference');
      },
    });
    const { onClose } = await open({ fake });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(
      await screen.findByText('The video conference action failed: Group Patrol A already has a video conference'),
    ).toBeTruthy();
  });
});
