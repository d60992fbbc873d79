import { MenuId, type PttStatusNotice, type Talker, type TalkRecord } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { i18next } from '../../i18n';
import { MicError, TalkEngine, type TalkAudio, type TalkSdk } from './audio/TalkEngine';
import { TalkPanel, type TalkPanelSdk } from './TalkPanel';
import { openTalk } from './openTalk';

const ME = 100;
const TGID = 5;

function talker(uid: number, name: string, extra: Partial<Talker> = {}): Talker {
  return {
    uid,
    ext_id: `9${uid}`,
    name,
    priority: 2,
    emergency: 0,
    since: 1_000,
    until: 61_000,
    refid: `r${uid}`,
    ...extra,
  };
}

function record(refid: string, name: string): TalkRecord {
  const start = Date.UTC(2026, 0, 2, 3, 4, 5);
  return {
    refid,
    tgid: TGID,
    tg_name: 'Patrol A',
    uid: 7,
    ext_id: '97',
    name,
    emergency: 0,
    start,
    stop: start + 4_200,
    frames: 210,
    bytes: 12_000,
  };
}

/** A console-service connection logged on as uid 100, answering what the panel asks. */
function fakeSdk(options: { online?: boolean; records?: TalkRecord[] } = {}) {
  const listeners = new Map<string, Set<(message: unknown) => void>>();
  const requests: [string, Record<string, unknown>][] = [];
  const request = vi.fn(async (code: string, payload: Record<string, unknown>) => {
    requests.push([code, payload]);
    if (code === 'req_grp_profile') return { groups: [{ tgid: TGID, tg_name: 'Patrol A' }] };
    if (code === 'req_ptt_records') return { total: options.records?.length ?? 0, records: options.records ?? [] };
    if (code === 'req_ptt_release') return { tgid: TGID, released: 1 };
    return true;
  });
  const sdk = {
    login: options.online === false ? null : { login_uid: ME },
    url: 'ws://svc:9080/ws/console?lang=en-US',
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
  const floor = (notice: Partial<PttStatusNotice>) =>
    emit('notice_ptt_status', {
      tgid: TGID,
      state: notice.talker ? 1 : 0,
      talker: null,
      previous: null,
      queue: [],
      ...notice,
    });
  const codes = () => requests.map(([code]) => code);
  return { sdk: sdk as unknown as TalkPanelSdk, request, requests, codes, emit, floor };
}

function fakeAudio(overrides: Partial<TalkAudio> = {}) {
  return {
    support: { canTalk: true, canHear: true, lacks: [] },
    listen: vi.fn(),
    startCapture: vi.fn(async () => undefined),
    stopCapture: vi.fn(),
    send: vi.fn(),
    level: vi.fn(() => 0),
    tone: vi.fn(),
    resume: vi.fn(),
    close: vi.fn(),
    ...overrides,
  } satisfies TalkAudio;
}

const edit = { [MenuId.EMERGENCY]: { view: 1 as const, edit: 1 as const } };
const viewOnly = { [MenuId.EMERGENCY]: { view: 1 as const } };

async function open(
  options: {
    sdk?: ReturnType<typeof fakeSdk>;
    audio?: TalkAudio;
    createAudio?: (sdk: TalkSdk) => TalkAudio;
    permissions?: Record<number, { view?: 1; edit?: 1 }>;
    start?: boolean;
  } = {},
) {
  const fake = options.sdk ?? fakeSdk();
  const audio = options.audio ?? fakeAudio();
  const onTalkChange = vi.fn();
  const onClose = vi.fn();
  const view = await renderWidget(
    <App>
      <TalkPanel
        tgid={TGID}
        start={options.start}
        sdk={fake.sdk}
        createAudio={options.createAudio ?? (() => audio)}
        onTalkChange={onTalkChange}
        onClose={onClose}
      />
    </App>,
    { language: 'en-US', permissions: options.permissions ?? edit },
  );
  await screen.findByTestId('talk-panel');
  return { ...fake, audio, onTalkChange, onClose, view };
}

const state = () => screen.getByTestId('talk-state');
const button = () => screen.getByTestId('talk-button');

describe('talk panel', () => {
  it('enters the group on open, shows its name, nobody talking and the history; leaves on close', async () => {
    const { codes, requests, onClose, view } = await open({ sdk: fakeSdk({ records: [record('b1', 'Officer 7')] }) });
    expect(requests).toContainEqual(['req_enter_group', { tgid: TGID, mute: 0 }]);
    await waitFor(() => expect(screen.getByTestId('talk-title').textContent).toBe('Group talk · Patrol A'));
    expect(state().dataset.state).toBe('idle');
    expect(state().textContent).toBe('Idle');
    expect(screen.getByTestId('talk-talker').textContent).toBe('Nobody is talking');
    expect(button().textContent).toBe('Start talk');
    expect(screen.queryByTestId('talk-unsupported')).toBeNull();
    const rows = await screen.findAllByTestId('talk-record');
    expect(rows.map((r) => r.dataset.refid)).toEqual(['b1']);
    expect(rows[0]!.textContent).toContain('Officer 7');
    expect(rows[0]!.textContent).toContain('4 s');
    fireEvent.click(screen.getByTestId('talk-close'));
    expect(onClose).toHaveBeenCalled();
    view.unmount();
    expect(codes().at(-1)).toBe('req_leave_group');
  });

  it('asks for the floor while the button is held, talks when granted, gives it back on release', async () => {
    const { requests, floor, audio, onTalkChange } = await open();
    fireEvent.pointerDown(button(), { button: 0, pointerId: 1 });
    await waitFor(() => expect(requests).toContainEqual(['req_ptt_on', { tgid: TGID, emergency: 0 }]));
    expect(state().dataset.state).toBe('requesting');
    expect(button().textContent).toBe('Close talk');
    expect(audio.startCapture).toHaveBeenCalled();
    expect(onTalkChange).toHaveBeenLastCalledWith(true);
    // the grant is a floor notice naming this console
    floor({ talker: talker(ME, 'Dispatcher') });
    expect(state().dataset.state).toBe('granted');
    expect(state().textContent).toContain('You are talking');
    expect(screen.getByTestId('talk-countdown').textContent).toBe('60 s left');
    expect(screen.getByTestId('talk-talker').textContent).toBe('Dispatcher');
    expect(audio.send).toHaveBeenCalledWith({ tgid: TGID, emergency: false });
    expect(audio.tone).toHaveBeenCalledWith('grant');
    fireEvent.pointerUp(button(), { button: 0, pointerId: 1 });
    expect(requests.at(-1)).toEqual(['req_ptt_off', { tgid: TGID }]);
    expect(state().dataset.state).toBe('idle');
    expect(button().textContent).toBe('Start talk');
    expect(audio.send).toHaveBeenLastCalledWith(null);
    expect(audio.stopCapture).toHaveBeenCalled();
    expect(onTalkChange).toHaveBeenLastCalledWith(false);
  });

  it('talks with the Space key and as an emergency talk', async () => {
    const { requests, floor, audio } = await open();
    fireEvent.click(screen.getByTestId('talk-emergency'));
    fireEvent.keyDown(button(), { key: ' ', code: 'Space' });
    await waitFor(() => expect(requests).toContainEqual(['req_ptt_on', { tgid: TGID, emergency: 1 }]));
    floor({ talker: talker(ME, 'Dispatcher', { emergency: 1, priority: 3 }) });
    expect(audio.send).toHaveBeenCalledWith({ tgid: TGID, emergency: true });
    fireEvent.keyUp(button(), { key: ' ', code: 'Space' });
    expect(requests.at(-1)).toEqual(['req_ptt_off', { tgid: TGID }]);
  });

  it('listens only on request (entering with mute 1, no talking), and refuses it while talking', async () => {
    const { requests, floor } = await open();
    // while talking: refused with a warning, nothing sent
    fireEvent.pointerDown(button(), { button: 0, pointerId: 1 });
    await waitFor(() => expect(requests).toContainEqual(['req_ptt_on', { tgid: TGID, emergency: 0 }]));
    floor({ talker: talker(ME, 'Dispatcher') });
    const sent = requests.length;
    fireEvent.click(screen.getByTestId('talk-listen-only'));
    await screen.findByText('You are talking: end your talk before switching to listen only');
    expect(requests.length).toBe(sent);
    expect(screen.getByTestId('talk-listen-only').getAttribute('aria-checked')).toBe('false');
    fireEvent.pointerUp(button(), { button: 0, pointerId: 1 });
    // not talking: the group is entered again to hear only, and the talk button is off
    fireEvent.click(screen.getByTestId('talk-listen-only'));
    await waitFor(() => expect(requests.at(-1)).toEqual(['req_enter_group', { tgid: TGID, mute: 1 }]));
    expect(button()).toHaveProperty('disabled', true);
    // and back to speaking
    fireEvent.click(screen.getByTestId('talk-listen-only'));
    await waitFor(() => expect(requests.at(-1)).toEqual(['req_enter_group', { tgid: TGID, mute: 0 }]));
    expect(button()).toHaveProperty('disabled', false);
  });

  it('shows the queue place, then a refusal with its reason and the busy tone', async () => {
    const { floor, audio } = await open();
    fireEvent.pointerDown(button(), { button: 0, pointerId: 1 });
    await waitFor(() => expect(state().dataset.state).toBe('requesting'));
    floor({ talker: talker(7, 'Officer 7'), queue: [8, ME], result: 'queued' });
    expect(state().dataset.state).toBe('queued');
    expect(state().textContent).toBe('Waiting for the floor: number 2 in the queue');
    // the one ahead gave up: this console moves up
    floor({ talker: talker(7, 'Officer 7'), queue: [ME] });
    expect(state().textContent).toBe('Waiting for the floor: number 1 in the queue');
    floor({ talker: talker(7, 'Officer 7'), queue: [], result: 'denied', reason: 'busy' });
    expect(state().dataset.state).toBe('denied');
    expect(state().textContent).toBe('The floor was refused: someone is talking and the queue is full');
    expect(audio.tone).toHaveBeenCalledWith('busy');
    expect(audio.stopCapture).toHaveBeenCalled();
  });

  it('says who else talks, and why its own turn was taken back', async () => {
    const { floor, requests } = await open();
    floor({ talker: talker(7, 'Officer 7') });
    expect(state().dataset.state).toBe('busy');
    expect(state().textContent).toBe('Officer 7 is talking');
    expect(screen.getByTestId('talk-talker').textContent).toBe('Officer 7');
    expect(screen.getByTestId('talk-talker').dataset.uid).toBe('7');
    floor({ talker: null, previous: talker(7, 'Officer 7'), reason: 'released' });
    expect(state().dataset.state).toBe('idle');
    // this console talks; a dispatcher takes the floor back
    fireEvent.pointerDown(button(), { button: 0, pointerId: 1 });
    await waitFor(() => expect(requests.map(([c]) => c)).toContain('req_ptt_on'));
    floor({ talker: talker(ME, 'Dispatcher') });
    floor({ talker: null, previous: talker(ME, 'Dispatcher'), reason: 'forced' });
    expect(state().dataset.state).toBe('idle');
    expect(screen.getByTestId('talk-lost').textContent).toBe('Your turn ended: a dispatcher released the floor');
    // letting go now sends nothing more: the floor is gone already
    const sent = requests.length;
    fireEvent.pointerUp(button(), { button: 0, pointerId: 1 });
    expect(requests.length).toBe(sent);
  });

  it('offers force release only with edit on a talk screen, and only while someone talks', async () => {
    const first = await open();
    expect(screen.queryByTestId('talk-force-release')).toBeNull();
    first.floor({ talker: talker(7, 'Officer 7') });
    fireEvent.click(screen.getByTestId('talk-force-release'));
    await waitFor(() => expect(first.requests).toContainEqual(['req_ptt_release', { tgid: TGID }]));
    await screen.findByText('The floor was released');
    first.view.unmount();

    const second = await open({ permissions: viewOnly });
    second.floor({ talker: talker(7, 'Officer 7') });
    expect(screen.getByTestId('talk-state').dataset.state).toBe('busy');
    expect(screen.queryByTestId('talk-force-release')).toBeNull();
  });

  it('explains a browser without WebCodecs or without a secure address, and does not offer talk', async () => {
    const scope = {
      isSecureContext: true,
      navigator: { mediaDevices: { getUserMedia: vi.fn() } },
      performance,
    } as unknown as typeof globalThis;
    await open({ createAudio: (sdk) => new TalkEngine(sdk, scope) });
    const lacks = screen.getAllByTestId('talk-unsupported');
    expect(lacks.map((l) => l.dataset.lack)).toEqual(['noEncoder', 'noDecoder']);
    expect(lacks[0]!.textContent).toContain('This browser has no WebCodecs audio encoder, so it cannot talk');
    expect((button() as HTMLButtonElement).disabled).toBe(true);
  });

  it('tells a console on plain HTTP to open the HTTPS address', async () => {
    const scope = {
      isSecureContext: false,
      navigator: {},
      AudioEncoder: class {},
      AudioDecoder: class {
        state = 'unconfigured';
        configure() {}
        close() {}
      },
      AudioContext: class {
        state = 'running';
        close = async () => undefined;
      },
      performance,
    } as unknown as typeof globalThis;
    await open({ createAudio: (sdk) => new TalkEngine(sdk, scope) });
    const lack = screen.getByTestId('talk-unsupported');
    expect(lack.dataset.lack).toBe('insecure');
    expect(lack.textContent).toContain("open the console's HTTPS address");
    expect((button() as HTMLButtonElement).disabled).toBe(true);
  });

  it('says why the microphone failed and gives the floor back', async () => {
    const audio = fakeAudio({
      startCapture: vi.fn(async () => {
        throw new MicError('mic.denied');
      }),
    });
    const { requests } = await open({ audio });
    fireEvent.pointerDown(button(), { button: 0, pointerId: 1 });
    expect((await screen.findByTestId('talk-error')).textContent).toContain('The microphone was refused');
    expect(requests.at(-1)).toEqual(['req_ptt_off', { tgid: TGID }]);
    expect(state().dataset.state).toBe('idle');
  });

  it('stays in the group when the language changes, and says what went wrong in the new language', async () => {
    const { codes } = await open({
      audio: fakeAudio({
        startCapture: vi.fn(async () => {
          throw new MicError('mic.missing');
        }),
      }),
    });
    fireEvent.pointerDown(button(), { button: 0, pointerId: 1 });
    expect((await screen.findByTestId('talk-error')).textContent).toContain('No microphone was found');
    const before = codes().length;
    await act(() => i18next.changeLanguage('zh-CN'));
    expect(screen.getByTestId('talk-error').textContent).toContain('未找到可用的麦克风');
    // neither left nor entered again (the cleanup of entering would leave the group)
    expect(codes().slice(before)).toEqual([]);
    await act(() => i18next.changeLanguage('en-US'));
  });

  it('warns that talking needs the talk service when the console is not logged onto it', async () => {
    await open({ sdk: fakeSdk({ online: false }) });
    expect(screen.getByTestId('talk-offline').textContent).toBe(
      'Not connected to the group talk service: talking is not possible',
    );
    expect((button() as HTMLButtonElement).disabled).toBe(true);
  });

  it('holds the floor until pressed again when opened to talk at once', async () => {
    const { requests, floor } = await open({ start: true });
    await waitFor(() => expect(requests.map(([c]) => c)).toContain('req_ptt_on'));
    floor({ talker: talker(ME, 'Dispatcher') });
    // no hand on the button: letting go of nothing changes nothing
    fireEvent.pointerUp(button(), { button: 0, pointerId: 1 });
    expect(state().dataset.state).toBe('granted');
    fireEvent.pointerDown(button(), { button: 0, pointerId: 1 });
    expect(requests.at(-1)).toEqual(['req_ptt_off', { tgid: TGID }]);
    expect(state().dataset.state).toBe('idle');
  });

  it('warns when another group is asked for while talking', async () => {
    const { floor } = await open();
    fireEvent.pointerDown(button(), { button: 0, pointerId: 1 });
    floor({ talker: talker(ME, 'Dispatcher') });
    act(() => openTalk({ tgid: TGID + 1 }));
    await screen.findByText('Already in PTT, exit PTT first');
  });

  it('animates the level icon while audio flows', async () => {
    let level = 0;
    await open({ audio: fakeAudio({ level: () => level }) });
    const icon = screen.getByTestId('talk-level');
    expect(icon.dataset.frame).toBe('0');
    level = 0.6;
    await waitFor(() => expect(Number(icon.dataset.frame)).toBeGreaterThan(1), { timeout: 3_000 });
    level = 0;
    await waitFor(() => expect(icon.dataset.frame).toBe('0'), { timeout: 3_000 });
  });

  it('moves the title only when it is wider than its place', async () => {
    await open();
    const title = screen.getByTestId('talk-title');
    const box = title.parentElement!;
    Object.defineProperty(box, 'clientWidth', { configurable: true, value: 200 });
    Object.defineProperty(title, 'scrollWidth', { configurable: true, value: 150 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(title.style.transform).toBe('');
    Object.defineProperty(title, 'scrollWidth', { configurable: true, value: 400 });
    await waitFor(() => expect(title.style.transform).toMatch(/^translateX\(-\d+px\)$/));
  });

  it('replays a recorded burst from its signed address on the talk service', async () => {
    const { requests, emit } = await open({ sdk: fakeSdk({ records: [record('b1', 'Officer 7')] }) });
    fireEvent.click(await screen.findByTestId('talk-replay'));
    expect(requests.at(-1)).toEqual(['req_ptt_replay', { tgid: TGID, refid: 'b1' }]);
    emit('notice_ptt_replay', {
      record: record('b1', 'Officer 7'),
      url: '/talk/records/b1.ogg?token=1.2.x',
      expires: 0,
    });
    const player = await screen.findByTestId('talk-replay-audio');
    expect(player.getAttribute('src')).toBe('http://svc:9080/talk/records/b1.ogg?token=1.2.x');
  });
});
