import { ImTargetType, ImType, type ImMessage } from '@bwc/protocol';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { ImStore, type ImSdk } from '../../realtime/im/ImStore';
import { TEST_ME, testMessage } from '../../realtime/im/test-messages';
import { ImPanel } from './ImPanel';
import { VOICE_NOTE_MIN_MS } from './useVoiceRecorder';

// the CI box is a loaded 2-core machine: wait for states longer than the default second
configure({ asyncUtilTimeout: 10_000 });

const ME = TEST_ME;
let seq = 0;
function im(over: Partial<ImMessage>): ImMessage {
  seq += 1;
  return testMessage(seq, over);
}

/** The SDK faked at its boundary: notice listeners and requests by msg_code. */
function fakeSdk(history: ImMessage[]) {
  const listeners = new Map<string, (n: unknown) => void>();
  const requests: { code: string; body: Record<string, unknown> }[] = [];
  const sdk = {
    login: { login_uid: ME, token: 'tk', upload_url_gfile: 'http://svc:9080/gfile/upload?token=tk&uid=100' },
    on: (code: string, listener: (n: unknown) => void) => {
      listeners.set(code, listener);
      return () => listeners.delete(code);
    },
    request: vi.fn(async (code: string, body: Record<string, unknown>) => {
      requests.push({ code, body });
      if (code === 'req_im_list') {
        const start = Number(body.start);
        const newestFirst = [...history].reverse();
        return { total: history.length, start, count: 0, im: newestFirst.slice(start, start + Number(body.count)) };
      }
      if (code === 'req_send_file_done') return { fid: body.fid };
      if (code === 'req_send_im' && body.fid) {
        const sent = im({
          from: ME,
          target: Number(body.target),
          im_type: Number(body.im_type) as ImType,
          fid: String(body.fid),
          filename: 'scene.png',
          ourl: '/gfile/file/x',
          surl: '/gfile/file/x',
          content: '',
        });
        history.push(sent);
        return { im: sent };
      }
      if (code === 'req_send_im') {
        if (body.content === 'fail') throw new Error('the service is away');
        const sent = im({
          from: ME,
          from_name: 'Dispatcher',
          target: Number(body.target),
          content: String(body.content),
        });
        history.push(sent);
        return { im: sent };
      }
      throw new Error(`unexpected ${code}`);
    }),
  };
  const notice = (m: ImMessage) => act(() => listeners.get('notice_im')?.({ im: m }));
  return { sdk: sdk as unknown as ImSdk, requests, notice };
}

/** The panel in an antd App, its store's conversation with officer 7 opened. */
async function openPanel(store: ImStore, language: 'zh-CN' | 'en-US') {
  await renderWidget(
    <App>
      <ImPanel store={store} me={ME} />
    </App>,
    { language },
  );
  await act(() => store.open(7, ImTargetType.USER, 'Officer 7'));
}

beforeEach(() => {
  seq = 0;
});
afterEach(() => vi.unstubAllGlobals());

describe('emergency messages tab', () => {
  it('says how conversations start when there is none', async () => {
    const { sdk } = fakeSdk([]);
    await renderWidget(
      <App>
        <ImPanel store={new ImStore(sdk)} me={ME} />
      </App>,
      { language: 'en-US' },
    );
    expect(screen.getByText(/No conversations yet/)).toBeTruthy();
  });

  it('counts live messages as unread per conversation; opening lists them, marks read and sends text', async () => {
    const history: ImMessage[] = [];
    const { sdk, requests, notice } = fakeSdk(history);
    const store = new ImStore(sdk);
    await renderWidget(
      <App>
        <ImPanel store={store} me={ME} />
      </App>,
      { language: 'en-US' },
    );
    const first = im({ content: 'need backup' });
    history.push(first);
    notice(first);
    const second = im({ content: 'at the gate' });
    history.push(second);
    notice(second);
    notice(
      im({
        from: 8,
        from_name: 'Officer 8',
        target: 55,
        exttarget: 'Patrol A',
        target_type: ImTargetType.GROUP,
        content: 'group hello',
      }),
    );
    // the same message twice (a redelivery) counts once
    notice(second);
    const rows = () => screen.getAllByTestId('im-conversation');
    expect(rows().map((r) => r.dataset.key)).toEqual(['g55', 'u7']);
    expect(store.getSnapshot().unread).toBe(3);
    expect(within(rows()[1]!).getByText('Officer 7')).toBeTruthy();
    expect(within(rows()[1]!).getByText('at the gate')).toBeTruthy();
    expect(within(rows()[1]!).getByTestId('im-unread').dataset.count).toBe('2');
    expect(within(rows()[0]!).getByText('Group Patrol A')).toBeTruthy();

    fireEvent.click(rows()[1]!);
    await waitFor(() => expect(screen.getAllByTestId('im-message')).toHaveLength(2));
    expect(requests.at(-1)).toEqual({ code: 'req_im_list', body: { target: 7, target_type: 0, start: 0, count: 30 } });
    expect(store.getSnapshot().unread).toBe(1);
    expect(screen.getAllByTestId('im-message').map((m) => m.textContent)).toEqual([
      expect.stringContaining('need backup'),
      expect.stringContaining('at the gate'),
    ]);

    // a message arriving in the open conversation is shown, not counted, and read on the service
    notice(im({ content: 'moving north' }));
    await waitFor(() => expect(screen.getAllByTestId('im-message')).toHaveLength(3));
    expect(store.getSnapshot().unread).toBe(1);
    expect(requests.at(-1)).toEqual({ code: 'req_im_list', body: { target: 7, target_type: 0, start: 0, count: 1 } });

    fireEvent.change(screen.getByTestId('im-input'), { target: { value: 'hold position' } });
    fireEvent.keyDown(screen.getByTestId('im-input'), { key: 'Enter' });
    await waitFor(() => expect(screen.getAllByTestId('im-message')).toHaveLength(4));
    const sent = requests.find((r) => r.code === 'req_send_im')!;
    expect(sent.body).toMatchObject({ target: 7, target_type: 0, im_type: ImType.TEXT, content: 'hold position' });
    const mine = screen.getAllByTestId('im-message').at(-1)!;
    expect(mine.dataset.mine).toBe('1');
    expect(mine.textContent).toContain('Me');
    // cleared once the service answered, which may come after the message is shown (a loaded CI
    // machine showed the text still there at the message's first render)
    await waitFor(() => expect((screen.getByTestId('im-input') as HTMLTextAreaElement).value).toBe(''));

    // a failure says why and keeps the text
    fireEvent.change(screen.getByTestId('im-input'), { target: { value: 'fail' } });
    fireEvent.click(screen.getByTestId('im-send'));
    expect(await screen.findByText('The message could not be sent: the service is away')).toBeTruthy();
    expect((screen.getByTestId('im-input') as HTMLTextAreaElement).value).toBe('fail');

    fireEvent.click(screen.getByRole('button', { name: 'Back to conversations' }));
    expect(screen.getAllByTestId('im-conversation')).toHaveLength(2);
  });

  it('pages back through older messages and shows images, voice notes and files of terminals', async () => {
    const history = Array.from({ length: 35 }, () => im({}));
    history.push(
      im({ im_type: ImType.IMAGE, filename: 'scene.jpg', ourl: '/f/scene.jpg', surl: '/f/scene-s.jpg', content: '' }),
      im({ im_type: ImType.VOICE, filename: 'v.amr', ourl: '/f/v.webm', content: '' }),
      im({ im_type: ImType.FILE, filename: 'report.pdf', size: 2048, ourl: '/f/report.pdf', content: '' }),
    );
    const { sdk } = fakeSdk(history);
    const store = new ImStore(sdk);
    await openPanel(store, 'zh-CN');
    expect(screen.getAllByTestId('im-message')).toHaveLength(30);
    expect(screen.getByTestId('im-image').getAttribute('src')).toBe('http://svc:9080/f/scene-s.jpg?token=tk&uid=100');
    expect(screen.getByTestId('im-voice').getAttribute('src')).toBe('http://svc:9080/f/v.webm?token=tk&uid=100');
    const file = screen.getByTestId('im-file');
    expect(file.getAttribute('href')).toBe('http://svc:9080/f/report.pdf?token=tk&uid=100');
    expect(file.textContent).toContain('下载 report.pdf（2.0 KB）');
    fireEvent.click(screen.getByText('加载更早的消息'));
    await waitFor(() => expect(screen.getAllByTestId('im-message')).toHaveLength(38));
    expect(screen.queryByText('加载更早的消息')).toBeNull();
  });

  it('sends an image in chunks with progress, then completes and sends it; refuses unknown types', async () => {
    const { sdk, requests } = fakeSdk([]);
    const store = new ImStore(sdk);
    const chunks: URL[] = [];
    let received = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: URL, init: RequestInit) => {
        chunks.push(new URL(url));
        received += (init.body as Blob).size;
        return new Response(JSON.stringify({ fid: 'x', received, size: 0, cmd_status: 0, error_reason: '' }));
      }),
    );
    await openPanel(store, 'en-US');
    const big = new File([new Uint8Array(1024 * 1024 + 10)], 'scene.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('im-file-input'), { target: { files: [big] } });
    // a megabyte through jsdom's Blob slicing: slow on a loaded machine
    await waitFor(() => expect(screen.getByTestId('im-image')).toBeTruthy(), { timeout: 15_000 });
    expect(chunks.map((u) => [u.pathname, u.searchParams.get('offset'), u.searchParams.get('im_type')])).toEqual([
      ['/gfile/upload', '0', '2'],
      ['/gfile/upload', String(1024 * 1024), '2'],
    ]);
    expect(chunks[0]!.searchParams.get('token')).toBe('tk');
    const fid = chunks[0]!.searchParams.get('fid');
    expect(requests.filter((r) => r.code !== 'req_im_list')).toEqual([
      { code: 'req_send_file_done', body: { fid } },
      { code: 'req_send_im', body: expect.objectContaining({ target: 7, im_type: ImType.IMAGE, fid }) },
    ]);
    // the progress bar goes once the send has settled
    await waitFor(() => expect(screen.queryByTestId('im-upload')).toBeNull());

    fireEvent.change(screen.getByTestId('im-file-input'), { target: { files: [new File(['x'], 'tool.exe')] } });
    expect(await screen.findByText('File type not supported: tool.exe', {}, { timeout: 10_000 })).toBeTruthy();
    expect(chunks).toHaveLength(2);
  });

  it('records a voice note from the microphone and sends it as a voice message; a refused microphone is said', async () => {
    const { sdk, requests } = fakeSdk([]);
    const store = new ImStore(sdk);
    const chunks: URL[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: URL, init: RequestInit) => {
        chunks.push(new URL(url));
        const size = (init.body as Blob).size;
        return new Response(JSON.stringify({ fid: 'x', received: size, size, cmd_status: 0, error_reason: '' }));
      }),
    );
    const track = { stop: vi.fn() };
    let allow = true;
    vi.stubGlobal('navigator', {
      ...navigator,
      mediaDevices: {
        getUserMedia: vi.fn(async () => {
          if (!allow) throw new Error('Permission denied');
          return { getTracks: () => [track] };
        }),
      },
    });
    class FakeRecorder {
      static isTypeSupported = (type: string) => type === 'audio/webm;codecs=opus';
      state: 'inactive' | 'recording' = 'inactive';
      ondataavailable: ((e: { data: Blob }) => void) | null = null;
      onstop: (() => void) | null = null;
      constructor(
        _stream: unknown,
        readonly options?: { mimeType: string },
      ) {}
      get mimeType() {
        return this.options?.mimeType ?? '';
      }
      start() {
        this.state = 'recording';
      }
      stop() {
        this.state = 'inactive';
        this.ondataavailable?.({ data: new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3])]) });
        this.onstop?.();
      }
    }
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    await openPanel(store, 'en-US');
    fireEvent.click(screen.getByTestId('im-record'));
    await waitFor(() => expect(screen.getByTestId('im-recording').textContent).toContain('Recording 0/60 s'));
    // a note shorter than VOICE_NOTE_MIN_MS is not sent
    await new Promise((resolve) => setTimeout(resolve, VOICE_NOTE_MIN_MS + 100));
    fireEvent.click(screen.getByTestId('im-record-send'));
    await waitFor(() => expect(screen.getByTestId('im-voice')).toBeTruthy());
    expect(track.stop).toHaveBeenCalled();
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.searchParams.get('im_type')).toBe(String(ImType.VOICE));
    expect(chunks[0]!.searchParams.get('filename')).toMatch(/^voice-\d{8}T\d{6}\.webm$/);
    expect(requests.filter((r) => r.code === 'req_send_im')).toEqual([
      { code: 'req_send_im', body: expect.objectContaining({ target: 7, im_type: ImType.VOICE }) },
    ]);
    // the progress bar goes once the send has settled
    await waitFor(() => expect(screen.queryByTestId('im-upload')).toBeNull());
    expect(screen.getByTestId('im-input')).toBeTruthy();

    // too short: said, nothing sent
    fireEvent.click(screen.getByTestId('im-record'));
    await waitFor(() => expect(screen.getByTestId('im-record-send').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('im-record-send'));
    expect(await screen.findByText('The recording was too short and was not sent')).toBeTruthy();
    // cancelled: nothing sent
    fireEvent.click(screen.getByTestId('im-record'));
    fireEvent.click(await screen.findByTestId('im-record-cancel'));
    await waitFor(() => expect(screen.getByTestId('im-input')).toBeTruthy());
    // a refused microphone
    allow = false;
    fireEvent.click(screen.getByTestId('im-record'));
    expect(await screen.findByText('The microphone cannot be used: Permission denied')).toBeTruthy();
    expect(chunks).toHaveLength(1);
  });
});
