import { CallStatus, type CallNotice, type DevicePoint } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { HostList } from '../dispatch/HostList';
import { MicError, TalkEngine, type TalkAudio } from '../talk/audio/TalkEngine';
import type { LivePlayer } from '../video/player/LivePlayer';
import { CallPanel, type CallPanelSdk } from './CallPanel';
import { incoming, placing, type CallView } from './callState';
import { onOpenCall, type OpenCallRequest } from './openCall';

vi.mock('../video/LiveView', () => ({
  LiveView: ({ device }: { device: { id: number; name: string } }) => (
    <div data-testid="live-view" data-device={device.id}>
      {device.name}
    </div>
  ),
}));

const ME = 100;
const TERMINAL = 7;

function notice(extra: Partial<CallNotice>): CallNotice {
  return {
    callid: 42,
    demander: ME,
    extdemander: '9100',
    demander_name: 'Dispatcher',
    target: TERMINAL,
    exttarget: '97',
    target_name: 'Officer 7',
    call_type: 0,
    priority: 0,
    start: 1_000,
    answered: null,
    status: CallStatus.RINGING,
    ...extra,
  };
}

/** A console-service connection logged on as uid 100 that records what the panel asks. */
function fakeSdk(options: { online?: boolean } = {}) {
  const listeners = new Map<string, Set<(message: unknown) => void>>();
  const requests: [string, Record<string, unknown>][] = [];
  const request = vi.fn(async (code: string, payload: Record<string, unknown>) => {
    requests.push([code, payload]);
    return true;
  });
  const statusListeners = new Set<() => void>();
  const lostListeners = new Set<() => void>();
  const sdk = {
    login: options.online === false ? null : { login_uid: ME },
    onConnectionLost: (listener: () => void) => {
      lostListeners.add(listener);
      return () => lostListeners.delete(listener);
    },
    onStatus: (listener: () => void) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    on: (code: string, listener: (message: unknown) => void) => {
      if (!listeners.has(code)) listeners.set(code, new Set());
      listeners.get(code)!.add(listener);
      return () => listeners.get(code)!.delete(listener);
    },
    request,
    sendBinary: vi.fn(() => true),
    onBinary: () => () => undefined,
  };
  const emit = (payload: Partial<CallNotice>) =>
    act(() =>
      listeners
        .get('notice_call_status')
        ?.forEach((listener) => listener({ msg_code: 'notice_call_status', cmd_type: 2, ...notice(payload) })),
    );
  const restart = () => act(() => statusListeners.forEach((listener) => listener()));
  const lose = () => act(() => lostListeners.forEach((listener) => listener()));
  return { sdk: sdk as unknown as CallPanelSdk, requests, emit, restart, lose };
}

function fakeAudio(overrides: Partial<TalkAudio> = {}) {
  return {
    support: { canTalk: true, canHear: true, lacks: [] },
    listen: vi.fn(),
    startCapture: vi.fn(async () => undefined),
    stopCapture: vi.fn(),
    send: vi.fn(),
    level: vi.fn(() => 0.5),
    tone: vi.fn(),
    resume: vi.fn(),
    close: vi.fn(),
    ...overrides,
  } satisfies TalkAudio;
}

async function open(
  options: {
    initial?: CallView;
    online?: boolean;
    audio?: TalkAudio;
    video?: boolean;
    language?: 'en-US' | 'zh-CN';
  } = {},
) {
  const fake = fakeSdk({ online: options.online });
  const audio = options.audio ?? fakeAudio();
  const onClose = vi.fn();
  // the host's handler answers what it assigned: the panel must not take that for an effect's cleanup
  const onLiveChange = vi.fn((live: boolean) => live);
  const player = { destroy: vi.fn(), play: null } as unknown as LivePlayer;
  const view = await renderWidget(
    <App>
      <CallPanel
        initial={options.initial ?? placing({ uid: TERMINAL, name: 'Officer 7' })}
        video={options.video ? { id: TERMINAL, name: 'Officer 7', imei: '8600' } : undefined}
        sdk={fake.sdk}
        createAudio={() => audio}
        createPlayer={() => player}
        onLiveChange={onLiveChange}
        onClose={onClose}
      />
    </App>,
    { language: options.language ?? 'en-US' },
  );
  await screen.findByTestId('call-panel');
  return { ...fake, audio, onClose, onLiveChange, player, view };
}

const phase = () => screen.getByTestId('call-state').dataset.phase;

describe('call panel', () => {
  it('places the call, rings, and once answered sends and hears the call audio with a timer', async () => {
    const { requests, emit, audio } = await open();
    await waitFor(() => expect(requests).toContainEqual(['req_call', { target: TERMINAL, call_type: 0 }]));
    expect(audio.startCapture).toHaveBeenCalled();
    expect(screen.getByTestId('call-title').textContent).toBe('Voice call · Officer 7');
    expect(screen.getByTestId('call-state').textContent).toContain('Calling');
    emit({});
    expect(phase()).toBe('ringing');
    expect(screen.getByTestId('call-cancel')).toBeTruthy();
    expect(audio.send).not.toHaveBeenCalledWith(expect.objectContaining({ tgid: 42 }));
    emit({ status: CallStatus.ANSWERED, answered: Date.now() });
    expect(phase()).toBe('answered');
    expect(audio.listen).toHaveBeenCalledWith(42);
    expect(audio.send).toHaveBeenLastCalledWith({ tgid: 42, emergency: false });
    expect(screen.getByTestId('call-timer').textContent).toBe('00:00');
    await waitFor(() => expect(screen.getByTestId('call-level').dataset.level).toBe('50'));
  });

  it('mutes and unmutes the microphone, keys DTMF digits and hangs up', async () => {
    const { requests, emit, audio, onLiveChange } = await open();
    emit({ status: CallStatus.ANSWERED, answered: Date.now() });
    fireEvent.click(screen.getByTestId('call-mute'));
    expect(audio.send).toHaveBeenLastCalledWith(null);
    expect(screen.getByTestId('call-mute').dataset.muted).toBe('1');
    fireEvent.click(screen.getByTestId('call-mute'));
    expect(audio.send).toHaveBeenLastCalledWith({ tgid: 42, emergency: false });

    fireEvent.click(screen.getByTestId('call-keypad-toggle'));
    const keypad = screen.getByTestId('call-keypad');
    fireEvent.click(within(keypad).getByText('5'));
    fireEvent.click(within(keypad).getByText('#'));
    expect(requests).toContainEqual(['req_dtmf', { callid: 42, value: '5' }]);
    expect(requests).toContainEqual(['req_dtmf', { callid: 42, value: '#' }]);
    expect(screen.getByTestId('call-digits').textContent).toBe('5#');

    fireEvent.click(screen.getByTestId('call-hangup'));
    expect(requests).toContainEqual(['req_call_status', { callid: 42, status: CallStatus.HANGUP }]);
    emit({ status: CallStatus.HANGUP, reason: 'hangup', by: ME });
    expect(phase()).toBe('ended');
    expect(audio.stopCapture).toHaveBeenCalled();
    expect(onLiveChange).toHaveBeenLastCalledWith(false);
    expect(screen.getByTestId('call-state').textContent).toBe('Call ended');
  });

  it.each([
    [CallStatus.BUSY, 'busy', 'Busy', 'The called user is in another call'],
    [CallStatus.REJECTED, 'declined', 'The call was rejected', 'The call was declined'],
    [CallStatus.TIMEOUT, 'no_answer', 'No answer', 'No answer'],
    [CallStatus.UNREACHABLE, 'offline', 'Unreachable', 'The called user is offline'],
  ] as const)('shows outcome %i with its reason in words', async (status, reason, outcome, words) => {
    const { emit, audio } = await open();
    emit({ callid: status === CallStatus.UNREACHABLE ? 0 : 42, status, reason });
    expect(phase()).toBe('ended');
    expect(screen.getByTestId('call-state').textContent).toBe(outcome);
    expect(screen.getByTestId('call-reason').textContent).toBe(words);
    expect(audio.tone).toHaveBeenCalledWith('busy');
    expect(screen.getByTestId('call-done')).toBeTruthy();
  });

  it('says when the terminal hung up', async () => {
    const { emit } = await open();
    emit({ status: CallStatus.ANSWERED, answered: Date.now() });
    emit({ status: CallStatus.HANGUP, reason: 'hangup', by: TERMINAL });
    expect(screen.getByTestId('call-reason').textContent).toBe('Officer 7 hung up');
  });

  it('ends the call when the connection starts over (the service ended it)', async () => {
    const { emit, restart, audio } = await open();
    emit({ status: CallStatus.ANSWERED, answered: Date.now() });
    restart();
    expect(phase()).toBe('ended');
    expect(screen.getByTestId('call-reason').dataset.reason).toBe('disconnected');
    expect(audio.stopCapture).toHaveBeenCalled();
  });

  it('ends the call when the connection is lost (the SDK reconnects, the service ended the call)', async () => {
    const { emit, lose, audio } = await open();
    emit({ status: CallStatus.ANSWERED, answered: Date.now() });
    lose();
    expect(phase()).toBe('ended');
    expect(screen.getByTestId('call-reason').dataset.reason).toBe('disconnected');
    expect(audio.stopCapture).toHaveBeenCalled();
  });

  it('cancels a ringing call, and hangs up a live call when the panel closes', async () => {
    const { requests, emit, view } = await open();
    emit({});
    fireEvent.click(screen.getByTestId('call-cancel'));
    expect(requests).toContainEqual(['req_call_status', { callid: 42, status: CallStatus.HANGUP }]);
    requests.length = 0;
    view.unmount();
    expect(requests).toContainEqual(['req_call_status', { callid: 42, status: CallStatus.HANGUP }]);
  });

  it('answers or rejects a call that rings for this console', async () => {
    const ringing = notice({ demander: TERMINAL, demander_name: 'Officer 7', target: ME });
    const { requests, audio } = await open({ initial: incoming(ringing) });
    expect(phase()).toBe('incoming');
    expect(requests.map(([code]) => code)).not.toContain('req_call');
    fireEvent.click(screen.getByTestId('call-answer'));
    expect(audio.startCapture).toHaveBeenCalled();
    expect(requests).toContainEqual(['req_call_status', { callid: 42, status: CallStatus.ANSWERED }]);
    fireEvent.click(screen.getByTestId('call-reject'));
    expect(requests).toContainEqual(['req_call_status', { callid: 42, status: CallStatus.REJECTED }]);
  });

  it('shows the terminal live picture in a video call and releases the player on close', async () => {
    const { player, view } = await open({ video: true });
    expect(screen.getByTestId('call-title').textContent).toBe('Video call · Officer 7');
    expect(screen.getByTestId('live-view').dataset.device).toBe(String(TERMINAL));
    view.unmount();
    expect(player.destroy).toHaveBeenCalled();
  });

  it('says why it cannot call: no secure context, no encoder, microphone refused, offline', async () => {
    const audio = fakeAudio({
      support: { canTalk: false, canHear: true, lacks: ['insecure', 'noEncoder'] },
    });
    await open({ audio });
    const lacks = screen.getAllByTestId('call-unsupported').map((a) => a.dataset.lack);
    expect(lacks).toEqual(['insecure', 'noEncoder']);
    expect(screen.getAllByTestId('call-unsupported')[0]!.textContent).toContain('not secure');
    expect(audio.startCapture).not.toHaveBeenCalled();
  });

  it('shows the microphone refusal', async () => {
    await open({ audio: fakeAudio({ startCapture: vi.fn(async () => Promise.reject(new MicError('mic.denied'))) }) });
    await waitFor(() => expect(screen.getByTestId('call-error').textContent).toContain('microphone was refused'));
  });

  it('does not call while the console service is not connected', async () => {
    const { requests } = await open({ online: false });
    expect(screen.getByTestId('call-offline')).toBeTruthy();
    expect(requests).toEqual([]);
  });

  it('speaks Chinese', async () => {
    const { emit } = await open({ language: 'zh-CN' });
    emit({ status: CallStatus.ANSWERED, answered: Date.now() });
    expect(screen.getByTestId('call-state').textContent).toContain('通话中');
    expect(screen.getByTestId('call-hangup').textContent?.replace(/\s/g, '')).toBe('挂断');
  });

  it('uses the talk engine with call frames (the real engine reports a browser without WebCodecs)', () => {
    const engine = new TalkEngine(fakeSdk().sdk, {
      isSecureContext: false,
      navigator: {},
    } as unknown as typeof globalThis);
    expect(engine.support).toEqual({ canTalk: false, canHear: false, lacks: ['insecure', 'noEncoder', 'noDecoder'] });
    engine.close();
  });
});

function point(id: number): DevicePoint {
  return {
    id,
    did: `D${id}`,
    hostbody: `D${id}`,
    imei: `86${id}`,
    hostname: `Officer ${id}`,
    hostcode: `${id}`,
    jq_hostcode: '',
    unit_id: 1,
    lineon: 1,
    remote_kill: 0,
    typecate: [],
    lat: null,
    lng: null,
    speed: null,
    course: null,
    battery: null,
    gps_time: null,
    sos: 0,
  };
}

describe('host list call buttons', () => {
  it('opens a voice or a video call of the row; GB hosts have no voice call', async () => {
    const asked: OpenCallRequest[] = [];
    const off = onOpenCall((request) => asked.push(request));
    const view = await renderWidget(
      <App>
        <HostList devices={[point(7)]} gb={false} onLocate={() => undefined} />
      </App>,
      { language: 'en-US' },
    );
    fireEvent.click(await screen.findByTestId('host-voice-call'));
    fireEvent.click(screen.getByTestId('host-video-call'));
    expect(asked[0]).toEqual({ target: 7, name: expect.stringContaining('Officer 7') });
    expect(asked[1]).toMatchObject({ target: 7, video: { id: 7, imei: '867' } });
    view.unmount();
    await renderWidget(
      <App>
        <HostList devices={[point(7)]} gb onLocate={() => undefined} />
      </App>,
      { language: 'en-US' },
    );
    await screen.findByTestId('host-video-call');
    expect(screen.queryByTestId('host-voice-call')).toBeNull();
    off();
  });
});
