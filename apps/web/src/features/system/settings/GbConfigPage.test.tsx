import { GB_SETTINGS_DEFAULTS, MenuId, type GbPlatformStatus, type Settings } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../../api/http';
import { sessionKeys } from '../../../app/session/queries';
import { renderWidget } from '../../../components/test-utils';
import { GbConfigPage } from './GbConfigPage';

vi.mock('../../../api/http', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  call: vi.fn(),
}));

const stored: Settings<'gbconfig'> = {
  ...GB_SETTINGS_DEFAULTS,
  SipDomain: '4403050001',
  SipId: '44030500012000000001',
};

const callMock = vi.mocked(call);

const OFF: GbPlatformStatus = { gb_mode: 0, running: 0, host: '', port: 0, error: '' };
let status: GbPlatformStatus = OFF;

beforeEach(() => {
  status = OFF;
  callMock.mockReset().mockImplementation(async (endpoint: unknown) => {
    if (endpoint === 'settingsGet') return stored;
    if (endpoint === 'gbStatus') return status;
    return null;
  });
});

/** antd validates asynchronously; the machine running CI may be slow */
const WAIT = { timeout: 15_000 };
const updates = () => callMock.mock.calls.filter(([endpoint]) => endpoint === 'settingsUpdate');
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

async function renderPage(language: 'zh-CN' | 'en-US' = 'zh-CN', edit = true) {
  const view = await renderWidget(<GbConfigPage />, {
    permissions: { [MenuId.DISPATCH_CONFIG]: edit ? { view: 1, edit: 1 } : { view: 1 } },
    language,
  });
  await waitFor(() => expect(input(language === 'zh-CN' ? 'SIP 域' : 'SIP domain').value).toBe('4403050001'), WAIT);
  return view;
}

async function saveWith(label: string, value: string) {
  fireEvent.change(input(label), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: /^保\s?存$/ }));
}

describe('GB28181 settings page', { timeout: 60_000 }, () => {
  it('loads the stored settings and says plainly that GB access is not running while GB mode is off', async () => {
    await renderPage();
    expect(
      await screen.findByText('国标模式未开启：国标 GB28181 接入未运行，设备无法注册。', undefined, WAIT),
    ).toBeTruthy();
    expect(input('平台国标编码').value).toBe('44030500012000000001');
    expect(input('信令端口').value).toBe('5060');
    expect(screen.getByRole('switch', { name: '国标模式' }).getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText('UDP 与 TCP 共用此端口，默认 5060（取值范围 1024 到 65535）')).toBeTruthy();
  });

  it('shows every label in English', async () => {
    await renderPage('en-US');
    expect(
      await screen.findByText(
        'GB mode is off: GB28181 access is not running and devices cannot register.',
        undefined,
        WAIT,
      ),
    ).toBeTruthy();
    for (const label of [
      'Platform GB id',
      'Signalling IP',
      'Signalling port',
      'Device password',
      'Registration validity',
      'Keepalive period',
      'Missed keepalives',
      'First video receive port',
      'First audio send port',
      'Ports per range',
    ])
      expect(input(label)).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'GB mode' })).toBeTruthy();
  });

  it('says where GB access runs, or why it could not start, as the server reports it', async () => {
    status = { gb_mode: 1, running: 1, host: '10.0.0.5', port: 5060, error: '' };
    await renderPage();
    expect(
      await screen.findByText('国标 GB28181 接入运行中：设备向 10.0.0.5:5060 注册。', undefined, WAIT),
    ).toBeTruthy();
    status = { gb_mode: 1, running: 1, host: '', port: 5062, error: '' };
    await renderPage('en-US');
    expect(
      await screen.findByText(
        'GB28181 access is running: devices register on port 5062 of every interface.',
        undefined,
        WAIT,
      ),
    ).toBeTruthy();
    status = {
      gb_mode: 1,
      running: 0,
      host: '',
      port: 0,
      error: 'listen EADDRINUSE: address already in use 0.0.0.0:5060',
    };
    await renderPage();
    expect(
      await screen.findByText(
        '国标 GB28181 接入未能启动：listen EADDRINUSE: address already in use 0.0.0.0:5060',
        undefined,
        WAIT,
      ),
    ).toBeTruthy();
  });

  it('refuses a 9-digit SIP domain with its message and saves nothing', async () => {
    await renderPage();
    await saveWith('SIP 域', '440305000');
    expect(await screen.findByText('SIP 域须为 10 位数字', undefined, WAIT)).toBeTruthy();
    expect(updates()).toHaveLength(0);
  });

  it('refuses a 19-digit platform id, a bad IP and a port under 1024', async () => {
    await renderPage();
    fireEvent.change(input('平台国标编码'), { target: { value: '4403050001200000001' } });
    fireEvent.change(input('信令 IP'), { target: { value: '10.0.0.256' } });
    await saveWith('信令端口', '80');
    expect(await screen.findByText('平台国标编码须为 20 位数字', undefined, WAIT)).toBeTruthy();
    expect(await screen.findByText('请输入正确的 IP 地址', undefined, WAIT)).toBeTruthy();
    expect(await screen.findByText(/1024.*65535/, { selector: '.ant-form-item-explain-error' }, WAIT)).toBeTruthy();
    expect(updates()).toHaveLength(0);
  });

  it('checks the port ranges across fields as the server does, at the field they name', async () => {
    await renderPage();
    await saveWith('音频发送起始端口', '30100');
    expect(await screen.findByText('视频与音频端口段重叠', undefined, WAIT)).toBeTruthy();
    fireEvent.change(input('音频发送起始端口'), { target: { value: '31000' } });
    await waitFor(() => expect(screen.queryByText('视频与音频端口段重叠')).toBeNull(), WAIT);
    await saveWith('信令端口', '30010');
    expect(await screen.findByText('信令端口不能落在媒体端口段内', undefined, WAIT)).toBeTruthy();
    fireEvent.change(input('信令端口'), { target: { value: '5060' } });
    await saveWith('视频接收起始端口', '65400');
    expect(await screen.findByText('端口段 65400 至 65899 超出了 65535', undefined, WAIT)).toBeTruthy();
    expect(updates()).toHaveLength(0);
  });

  it('saves GB mode on with the other fields, and the console re-reads its context', async () => {
    const view = await renderPage();
    fireEvent.click(screen.getByRole('switch', { name: '国标模式' }));
    await saveWith('信令 IP', '192.168.1.10');
    await waitFor(() => expect(updates()).toHaveLength(1), WAIT);
    expect(updates()[0]![1]).toEqual({ type: 'gbconfig', ...stored, gb_mode: 1, LocalIp: '192.168.1.10' });
    await waitFor(
      () => expect(view.queryClient.getQueryState(sessionKeys.userContext)?.isInvalidated).toBe(true),
      WAIT,
    );
    // GB access is asked again (the server restarted it from the saved settings)
    await waitFor(() => expect(callMock.mock.calls.filter(([e]) => e === 'gbStatus').length).toBeGreaterThan(1), WAIT);
  });

  it('is read-only without the edit action', async () => {
    await renderPage('zh-CN', false);
    expect(screen.getByText('您的角色没有此设置的修改权限，只能查看。')).toBeTruthy();
    expect(input('SIP 域').disabled).toBe(true);
  });
});
