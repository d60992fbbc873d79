import { MenuId, SETTINGS_DEFAULTS, type Settings } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../../api/http';
import { renderWidget } from '../../../components/test-utils';
import { CloudStoragePage } from './CloudStoragePage';

vi.mock('../../../api/http', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  call: vi.fn(),
}));

const stored: Settings<'cloudstorage'> = {
  ...SETTINGS_DEFAULTS.cloudstorage,
  record_path: 'records',
  record_minutes: 60,
};

const callMock = vi.mocked(call);

beforeEach(() => {
  callMock.mockReset().mockImplementation(async (endpoint: unknown) => (endpoint === 'settingsGet' ? stored : null));
});

/** antd validates asynchronously; the machine running CI may be slow */
const WAIT = { timeout: 15_000 };
const updates = () => callMock.mock.calls.filter(([endpoint]) => endpoint === 'settingsUpdate');

async function renderPage(language: 'zh-CN' | 'en-US' = 'zh-CN') {
  await renderWidget(<CloudStoragePage />, {
    permissions: { [MenuId.DISPATCH_CONFIG]: { view: 1, edit: 1 } },
    language,
  });
}

describe('recording storage settings: recording of live streams', { timeout: 60_000 }, () => {
  it('shows the switch off by default with its help', async () => {
    await renderPage();
    const sw = await screen.findByRole('switch', { name: '录制实时视频' }, WAIT);
    await waitFor(() => expect((screen.getByLabelText('录像目录') as HTMLInputElement).value).toBe('records'), WAIT);
    expect(sw.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText(/平台录制每一路正在推送的实时视频/)).toBeTruthy();
  });

  it('shows the English label', async () => {
    await renderPage('en-US');
    expect(await screen.findByRole('switch', { name: 'Record live video' }, WAIT)).toBeTruthy();
    expect(screen.getByText(/records every live stream while it is published/)).toBeTruthy();
  });

  it('saves record_live 1 with the other fields', async () => {
    await renderPage();
    await waitFor(() => expect((screen.getByLabelText('录像目录') as HTMLInputElement).value).toBe('records'), WAIT);
    fireEvent.click(screen.getByRole('switch', { name: '录制实时视频' }));
    fireEvent.click(screen.getByRole('button', { name: /^保\s?存$/ }));
    await waitFor(() => expect(updates()).toHaveLength(1), WAIT);
    expect(updates()[0]![1]).toEqual({ type: 'cloudstorage', ...stored, record_live: 1 });
  });
});
