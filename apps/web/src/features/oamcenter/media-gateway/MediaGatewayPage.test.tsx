import { MenuId, type MediaGatewayInfo } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ApiError } from '../../../api/http';
import { renderWidget } from '../../../components/test-utils';
import { formatUptime, toKbps } from './format';
import { fetchMediaGateway, kickMedia } from './mediaGateway.api';
import { MEDIA_GATEWAY_REFRESH_MS, MediaGatewayPage } from './MediaGatewayPage';

vi.mock('./mediaGateway.api', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  fetchMediaGateway: vi.fn(),
  kickMedia: vi.fn(),
}));

const EDIT = { view: 1, edit: 1 } as const;
const VIEW = { view: 1 } as const;
/** antd renders asynchronously; the machine running CI may be slow */
const WAIT = { timeout: 15_000 };
/** antd puts a space between two CJK characters on bordered buttons only */
const DISCONNECT = /^断\s?开$/;
const OK = /^确\s?定$/;

const GATEWAY: MediaGatewayInfo = {
  rtmp_port: 1935,
  node: 'node-a',
  streams: [
    {
      device_id: 7,
      hostname: '张三',
      hostbody: 'BWC0007',
      unitname: '一大队',
      address: '10.0.0.7:50123',
      since: '2024-05-01T08:00:00.000Z',
      uptime_s: 3723,
      bitrate: 1_536_000,
      bytes_in: 5 * 1024 * 1024,
      viewers: [
        {
          id: 31,
          user_id: 2,
          username: 'dispatcher1',
          address: '10.0.1.2:40000',
          protocol: 'ws',
          since: '2024-05-01T08:01:00.000Z',
          bytes_out: 2048,
        },
        {
          id: 32,
          user_id: 3,
          username: 'dispatcher2',
          address: '10.0.1.3:40001',
          protocol: 'http',
          since: '2024-05-01T08:02:00.000Z',
          bytes_out: 512,
        },
      ],
    },
  ],
};

const fetchMock = vi.mocked(fetchMediaGateway);
const kickMock = vi.mocked(kickMedia);

beforeEach(() => {
  fetchMock.mockReset().mockResolvedValue(GATEWAY);
  kickMock.mockReset().mockResolvedValue(null);
});
afterEach(() => vi.useRealTimers());

function renderPage(permission: typeof EDIT | typeof VIEW = EDIT, language: 'zh-CN' | 'en-US' = 'zh-CN') {
  return renderWidget(<MediaGatewayPage />, { permissions: { [MenuId.MEDIA_GATEWAY]: permission }, language });
}

async function expandFirstStream() {
  fireEvent.click(await screen.findByRole('button', { name: /展开行|expand row/i }, WAIT));
  return screen.findByText('dispatcher1', undefined, WAIT);
}

describe('media gateway page', { timeout: 60_000 }, () => {
  it('lists the streams with their figures and the node line', async () => {
    await renderPage();
    expect(await screen.findByText('张三', undefined, WAIT)).toBeTruthy();
    expect(screen.getByText('BWC0007')).toBeTruthy();
    expect(screen.getByText('一大队')).toBeTruthy();
    expect(screen.getByText('10.0.0.7:50123')).toBeTruthy();
    expect(screen.getByText('1:02:03')).toBeTruthy();
    expect(screen.getByText('1536 kbit/s')).toBeTruthy();
    expect(screen.getByText('5.0 MB')).toBeTruthy();
    expect(screen.getByText('本节点 RTMP 接入端口：1935')).toBeTruthy();
    expect(screen.getByText('节点：node-a')).toBeTruthy();
    expect(screen.getByText(/列表只包含本节点的流/)).toBeTruthy();
  });

  it('lists the viewers of an expanded stream', async () => {
    await renderPage();
    await expandFirstStream();
    expect(screen.getByText('dispatcher2')).toBeTruthy();
    expect(screen.getByText('10.0.1.2:40000')).toBeTruthy();
    expect(screen.getByText('ws')).toBeTruthy();
    expect(screen.getByText('http')).toBeTruthy();
    expect(screen.getByText('2.0 KB')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: DISCONNECT })).toHaveLength(2);
  });

  it('shows the empty state in both languages', async () => {
    fetchMock.mockResolvedValue({ ...GATEWAY, streams: [] });
    const view = await renderPage();
    expect(
      await screen.findByText('当前没有设备在推流；可在视频监看或调度地图中打开实时视频', undefined, WAIT),
    ).toBeTruthy();
    view.unmount();
    await renderPage(EDIT, 'en-US');
    expect(
      await screen.findByText(
        'No device is streaming now; open a live view from the video wall or the dispatch map',
        undefined,
        WAIT,
      ),
    ).toBeTruthy();
  });

  it('says so when RTMP ingest is off on the node', async () => {
    fetchMock.mockResolvedValue({ ...GATEWAY, rtmp_port: null, streams: [] });
    await renderPage(EDIT, 'en-US');
    expect(
      await screen.findByText(
        'RTMP ingest is off on this server (RTMP_PORT=0); devices cannot publish to this node',
        undefined,
        WAIT,
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/RTMP ingest port of this node/)).toBeNull();
  });

  it('disconnects one viewer and reads the list again', async () => {
    await renderPage();
    await expandFirstStream();
    const reads = fetchMock.mock.calls.length;
    const row = screen.getByText('dispatcher2').closest('tr')!;
    fireEvent.click(within(row as HTMLElement).getByRole('button', { name: DISCONNECT }));
    await waitFor(() => expect(kickMock).toHaveBeenCalledWith({ device_id: 7, viewer: 32 }), WAIT);
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(reads), WAIT);
  });

  it('stops a stream after the confirmation and reads the list again', async () => {
    await renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '停止推流' }, WAIT));
    expect(await screen.findByText(/确定停止 张三 的推流吗/, undefined, WAIT)).toBeTruthy();
    expect(kickMock).not.toHaveBeenCalled();
    const reads = fetchMock.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: OK }));
    await waitFor(() => expect(kickMock).toHaveBeenCalledWith({ device_id: 7 }), WAIT);
    expect(kickMock.mock.calls[0]![0]).not.toHaveProperty('viewer');
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(reads), WAIT);
  });

  it('reads the list again after a failed kick (the list is out of date)', async () => {
    kickMock.mockRejectedValue(new Error('not publishing'));
    await renderPage();
    await expandFirstStream();
    const reads = fetchMock.mock.calls.length;
    fireEvent.click(screen.getAllByRole('button', { name: DISCONNECT })[0]!);
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(reads), WAIT);
  });

  it('hides the stop and disconnect buttons without the edit action', async () => {
    await renderPage(VIEW);
    await expandFirstStream();
    expect(screen.queryByRole('button', { name: '停止推流' })).toBeNull();
    expect(screen.queryByRole('button', { name: DISCONNECT })).toBeNull();
    expect(screen.queryByText('操作')).toBeNull();
  });

  it('reads again with the refresh button', async () => {
    await renderPage();
    await screen.findByText('张三', undefined, WAIT);
    const reads = fetchMock.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: /刷\s?新/ }));
    await waitFor(() => expect(fetchMock.mock.calls.length).toBe(reads + 1), WAIT);
  });

  it('refreshes every 5 s while the document is visible and pauses while it is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let hidden = false;
    const visibility = vi
      .spyOn(document, 'visibilityState', 'get')
      .mockImplementation(() => (hidden ? 'hidden' : 'visible'));
    onTestFinished(() => visibility.mockRestore());
    await renderPage();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1), WAIT);
    await vi.advanceTimersByTimeAsync(MEDIA_GATEWAY_REFRESH_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);

    hidden = true;
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(3 * MEDIA_GATEWAY_REFRESH_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);

    // back in view: read at once, then every 5 s again
    hidden = false;
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3), WAIT);
    await vi.advanceTimersByTimeAsync(MEDIA_GATEWAY_REFRESH_MS);
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it('stops polling after a failed read (already toasted) until the refresh button is used', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock.mockRejectedValue(new ApiError(500, '媒体网关不可用', 200));
    await renderPage();
    expect(await screen.findByText('媒体网关不可用', undefined, WAIT)).toBeTruthy();
    await vi.advanceTimersByTimeAsync(3 * MEDIA_GATEWAY_REFRESH_MS);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fetchMock.mockResolvedValue(GATEWAY);
    fireEvent.click(screen.getByRole('button', { name: /刷\s?新/ }));
    expect(await screen.findByText('张三', undefined, WAIT)).toBeTruthy();
    await vi.advanceTimersByTimeAsync(MEDIA_GATEWAY_REFRESH_MS);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });
});

describe('media gateway figures', () => {
  it('formats uptime as h:mm:ss, hours uncapped', () => {
    expect(formatUptime(0)).toBe('0:00:00');
    expect(formatUptime(59)).toBe('0:00:59');
    expect(formatUptime(3723)).toBe('1:02:03');
    expect(formatUptime(100 * 3600 + 5)).toBe('100:00:05');
  });

  it('shows bits per second as whole kbit/s', () => {
    expect(toKbps(1_536_000)).toBe(1536);
    expect(toKbps(499)).toBe(0);
    expect(toKbps(2_500)).toBe(3);
  });
});
