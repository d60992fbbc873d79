import { MenuId, SETTINGS_DEFAULTS, type Settings } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../../api/http';
import { renderWidget } from '../../../components/test-utils';
import { DigitailMapPage } from './DigitailMapPage';

vi.mock('../../../api/http', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  call: vi.fn(),
}));

const stored: Settings<'digitailmap'> = {
  ...SETTINGS_DEFAULTS.digitailmap,
  getvideo_switch: 1,
  getvideo_time: 90,
  getvideo_num: 3,
  getvideo_path: 'sos/video',
  getpic_path: 'sos/picture',
};

const callMock = vi.mocked(call);

beforeEach(() => {
  callMock.mockReset().mockImplementation(async (endpoint: unknown) => {
    if (endpoint === 'settingsGet') return stored;
    if (endpoint === 'playGet') return { video_live_num: 9 };
    return null;
  });
});

/** antd validates asynchronously; the machine running CI may be slow */
const WAIT = { timeout: 15_000 };
const find = (text: string) => screen.findByText(text, undefined, WAIT);
const SAVE = /^保\s?存$/;

async function renderPage(language: 'zh-CN' | 'en-US' = 'zh-CN') {
  await renderWidget(<DigitailMapPage />, {
    permissions: { [MenuId.DISPATCH_CONFIG]: { view: 1, edit: 1 } },
    language,
  });
  await find(language === 'zh-CN' ? '报警视频' : 'Alarm video');
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
/** the map card's button (the play config card below has its own) */
const saveMap = () => fireEvent.click(screen.getAllByRole('button', { name: SAVE })[0]!);
const updates = () => callMock.mock.calls.filter(([endpoint]) => endpoint === 'settingsUpdate');

describe('electronic map settings: alarm video', { timeout: 60_000 }, () => {
  it('loads the stored alarm video settings', async () => {
    await renderPage();
    await waitFor(() => expect(input('录像时长').value).toBe('90'), WAIT);
    expect(input('最多同时打开').value).toBe('3');
    expect(input('录像目录').value).toBe('sos/video');
    expect(input('首帧图片目录').value).toBe('sos/picture');
    expect(screen.getByRole('switch', { name: 'SOS 自动打开视频' }).getAttribute('aria-checked')).toBe('true');
    // the help texts take their bounds from the protocol schema
    expect(screen.getByText('每次 SOS 实时视频的录像时长，10 到 3600 秒')).toBeTruthy();
    expect(screen.getByText('一个调度台同时自动打开的 SOS 实时视频最多几路，1 到 9')).toBeTruthy();
  });

  it('refuses 10 live views at once with the bounds and saves nothing', async () => {
    await renderPage();
    await waitFor(() => expect(input('最多同时打开').value).toBe('3'), WAIT);
    fireEvent.change(input('最多同时打开'), { target: { value: '10' } });
    saveMap();
    expect(await find('取值范围为 1 到 9')).toBeTruthy();
    expect(updates()).toHaveLength(0);
  });

  it('refuses a recording length under 10 seconds', async () => {
    await renderPage('en-US');
    await waitFor(() => expect(input('Recording length').value).toBe('90'), WAIT);
    fireEvent.change(input('Recording length'), { target: { value: '5' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Save' })[0]!);
    expect(await find('This field must be from 10 to 3600.')).toBeTruthy();
    expect(updates()).toHaveLength(0);
  });

  it('refuses a folder leaving the data directory', async () => {
    await renderPage();
    await waitFor(() => expect(input('首帧图片目录').value).toBe('sos/picture'), WAIT);
    fireEvent.change(input('首帧图片目录'), { target: { value: '../etc' } });
    saveMap();
    expect(await find('路径不能包含 ..')).toBeTruthy();
    expect(updates()).toHaveLength(0);
  });

  it('saves the alarm video settings with the map settings', async () => {
    await renderPage();
    await waitFor(() => expect(input('录像时长').value).toBe('90'), WAIT);
    fireEvent.click(screen.getByRole('switch', { name: 'SOS 自动打开视频' }));
    fireEvent.change(input('录像时长'), { target: { value: '120' } });
    fireEvent.change(input('最多同时打开'), { target: { value: '6' } });
    fireEvent.change(input('录像目录'), { target: { value: ' alarm/video ' } });
    saveMap();
    await waitFor(() => expect(updates()).toHaveLength(1), WAIT);
    expect(updates()[0]![1]).toEqual({
      type: 'digitailmap',
      ...stored,
      getvideo_switch: 0,
      getvideo_time: 120,
      getvideo_num: 6,
      getvideo_path: 'alarm/video',
    });
  });
});
