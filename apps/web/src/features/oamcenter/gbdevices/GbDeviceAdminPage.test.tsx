import { MenuId, ResultCode, type GbDevice, type GbDeviceDetail, type GbPlayerConfig, type Page } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call } from '../../../api/http';
import { renderWidget } from '../../../components/test-utils';
import { formatDeviceInfo, formatPosition } from './format';
import { GB_SETTINGS_PATH, GbDeviceAdminPage } from './GbDeviceAdminPage';
import { listQuery } from './gbDevices.api';

vi.mock('../../../api/http', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  call: vi.fn(),
}));

/** antd renders asynchronously; the machine running CI may be slow */
const WAIT = { timeout: 15_000 };

const NVR: GbDevice = {
  id: 5,
  devgbid: '34020000001320000903',
  name: '南门NVR',
  manufacturer: 'BWC-SIM',
  model: 'SIM-IPC',
  firmware: '1.0',
  transport: 'tcp',
  address: '10.8.0.7:5071',
  lineon: 1,
  registered_at: '2026-11-27 09:00:01',
  keepalive_at: '2026-11-27 09:10:31',
  channel_count: 2,
  unit_id: 6,
  unit_name: '福田分局',
  lng: 114.05,
  lat: 22.54,
  position_time: '2026-11-27 09:10:00',
};
const SILENT: GbDevice = {
  ...NVR,
  id: 6,
  devgbid: '34020000001320000904',
  name: '34020000001320000904',
  manufacturer: '',
  model: '',
  firmware: '',
  transport: 'udp',
  lineon: 0,
  keepalive_at: '',
  channel_count: 0,
  lng: null,
  lat: null,
  position_time: '',
};
const DETAIL: GbDeviceDetail = {
  ...NVR,
  channels: [
    {
      devgbid: '34020000001310000904',
      device: NVR.devgbid,
      name: '南门CH1',
      parent: NVR.devgbid,
      status: 1,
      ptztype: 1,
      manufacturer: 'BWC-SIM',
      model: 'SIM-CH',
      lng: null,
      lat: null,
    },
    {
      devgbid: '34020000001310000905',
      device: NVR.devgbid,
      name: '南门CH2',
      parent: '',
      status: 0,
      ptztype: 3,
      manufacturer: '',
      model: '',
      lng: 114.1,
      lat: 22.6,
    },
  ],
};
const CONFIG: GbPlayerConfig = {
  status: 1,
  running: 1,
  ocx_config: {
    userid: 1,
    username: 'admin',
    ocxID: '34020000002000000002',
    SipDomain: '3402000000',
    ocxSip: '34020000002000000001',
    ocxIp: '192.168.1.20',
    ocxPort: 5060,
    RegExpires: 3600,
    AliveInterval: 60,
    AliveTimeoutCnt: 3,
    VideoPort: 30000,
    AudioPort: 31000,
    PortCount: 200,
  },
  video_live_num: 4,
};

const callMock = vi.mocked(call);
let devices: GbDevice[];
let config: GbPlayerConfig | Error;
let updateAnswer: (body: Record<string, unknown>) => Promise<unknown>;
let refreshAnswer: (body: Record<string, unknown>) => Promise<unknown>;
/** 2026-11-27 09:10:00 at +08:00 (NVR's position_time) in the local time of the test run */
const NVR_POSITION_LOCAL = dayjs(Date.UTC(2026, 10, 27, 1, 10, 0)).format('YYYY-MM-DD HH:mm:ss');

beforeEach(() => {
  devices = [NVR, SILENT];
  config = CONFIG;
  updateAnswer = async () => NVR;
  refreshAnswer = async () => ({ ...NVR, channel_count: 3 });
  callMock.mockReset().mockImplementation(async (endpoint: unknown, body: unknown) => {
    if (endpoint === 'gbDeviceList')
      return { total: devices.length, page: 1, limit: 20, list: devices } satisfies Page<GbDevice>;
    if (endpoint === 'gbConfig') {
      if (config instanceof Error) throw config;
      return config;
    }
    if (endpoint === 'gbDeviceDetail') return DETAIL;
    if (endpoint === 'gbDeviceUpdate') return updateAnswer(body as Record<string, unknown>);
    if (endpoint === 'gbDeviceRefresh') return refreshAnswer(body as Record<string, unknown>);
    return null;
  });
});

function renderPage(permission: { view: 1; edit?: 1 }, language: 'zh-CN' | 'en-US' = 'zh-CN') {
  return renderWidget(
    <App>
      <GbDeviceAdminPage />
    </App>,
    { permissions: { [MenuId.GB_DEVICES]: permission }, language },
  );
}

const listCalls = () => callMock.mock.calls.filter(([endpoint]) => endpoint === 'gbDeviceList').map(([, body]) => body);

describe('GB device list', { timeout: 60_000 }, () => {
  it('shows each device with its DeviceInfo, transport, address, state, times, channels, position and unit', async () => {
    await renderPage({ view: 1, edit: 1 });
    const row = (await screen.findByText('南门NVR', undefined, WAIT)).closest('tr')!;
    for (const text of [
      NVR.devgbid,
      'BWC-SIM / SIM-IPC / 1.0',
      'TCP',
      '10.8.0.7:5071',
      '在线',
      '2026-11-27 09:00:01',
      '2026-11-27 09:10:31',
      '114.050000, 22.540000',
      NVR_POSITION_LOCAL,
      '福田分局',
    ])
      expect(within(row).getByText(text)).toBeTruthy();
    expect(within(row).getByTestId('gb-device-channel-count').textContent).toBe('2');
    expect(within(row).getByText('编辑')).toBeTruthy();
    const silent = screen.getAllByText(SILENT.devgbid)[0]!.closest('tr')!;
    expect(within(silent).getByText('离线')).toBeTruthy();
    expect(within(silent).getByText('UDP')).toBeTruthy();
    expect(within(silent).getByText('无')).toBeTruthy();
    expect(within(silent).getByText('从未')).toBeTruthy();
    expect(within(silent).getByText('—')).toBeTruthy();
    // devices registered and GB mode on: no notice
    expect(screen.queryByTestId('gb-devices-empty')).toBeNull();
    expect(screen.queryByTestId('gb-devices-off')).toBeNull();
    expect(listCalls()).toContainEqual({ page: 1, limit: 20 });
  });

  it('opens the channels the device reported', async () => {
    await renderPage({ view: 1 });
    const row = (await screen.findByText('南门NVR', undefined, WAIT)).closest('tr')!;
    fireEvent.click(within(row).getByText('通道'));
    const drawer = await screen.findByTestId('gb-device-channels', undefined, WAIT);
    expect(await within(drawer).findByText('南门CH1', undefined, WAIT)).toBeTruthy();
    expect(callMock).toHaveBeenCalledWith('gbDeviceDetail', { devgbid: NVR.devgbid }, expect.anything());
    const ch1 = within(drawer).getByText('南门CH1').closest('tr')!;
    expect(within(ch1).getByText('球机')).toBeTruthy();
    expect(within(ch1).getByText('在线')).toBeTruthy();
    expect(within(ch1).getByText('BWC-SIM / SIM-CH')).toBeTruthy();
    const ch2 = within(drawer).getByText('南门CH2').closest('tr')!;
    expect(within(ch2).getByText('固定枪机')).toBeTruthy();
    expect(within(ch2).getByText('离线')).toBeTruthy();
    expect(within(ch2).getByText('114.100000, 22.600000')).toBeTruthy();
    expect(within(drawer).getByText(/共 2 个通道/)).toBeTruthy();
  });

  it('renames a device and shows the server refusal under the field', async () => {
    await renderPage({ view: 1, edit: 1 });
    const row = (await screen.findByText('南门NVR', undefined, WAIT)).closest('tr')!;
    updateAnswer = async () => {
      throw new ApiError(ResultCode.INVALID, '字段 name：名称已被占用', 200);
    };
    fireEvent.click(within(row).getByText('编辑'));
    const dialog = await screen.findByRole('dialog', undefined, WAIT);
    expect(within(dialog).getByTestId('gb-device-form-gbid').textContent).toBe(NVR.devgbid);
    const name = within(dialog).getByLabelText('名称') as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('南门NVR'), WAIT);
    fireEvent.change(name, { target: { value: '南门录像机' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s?存/ }));
    expect(await within(dialog).findByText('名称已被占用', undefined, WAIT)).toBeTruthy();
    expect(callMock).toHaveBeenCalledWith(
      'gbDeviceUpdate',
      { id: 5, unit_id: 6, name: '南门录像机' },
      { success: true },
    );

    updateAnswer = async (body) => ({ ...NVR, name: body.name });
    const before = listCalls().length;
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s?存/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
    // saved: the list is read again
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(before), WAIT);
  });

  it('refreshes a device (DeviceInfo and Catalog asked again) and reads the list again; a refusal leaves it as it was', async () => {
    await renderPage({ view: 1, edit: 1 });
    const row = (await screen.findByText('南门NVR', undefined, WAIT)).closest('tr')!;
    const before = listCalls().length;
    fireEvent.click(within(row).getByText('刷新'));
    await waitFor(
      () =>
        expect(callMock).toHaveBeenCalledWith(
          'gbDeviceRefresh',
          { id: 5 },
          { success: '已重新读取“南门NVR”的设备信息和通道目录' },
        ),
      WAIT,
    );
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(before), WAIT);

    // the server says offline (the http layer shows its message): no reload, the button usable again
    refreshAnswer = async () => {
      throw new ApiError(409, '国标设备不在线', 200);
    };
    const silent = screen.getAllByText(SILENT.devgbid)[0]!.closest('tr')!;
    const after = listCalls().length;
    const button = within(silent).getByText('刷新').closest('button')!;
    fireEvent.click(button);
    await waitFor(() => expect(callMock).toHaveBeenCalledWith('gbDeviceRefresh', { id: 6 }, expect.anything()), WAIT);
    await waitFor(() => expect(button.className).not.toContain('ant-btn-loading'), WAIT);
    expect(listCalls().length).toBe(after);
  });

  it('has no edit without the edit right, in English too', async () => {
    await renderPage({ view: 1 }, 'en-US');
    const row = (await screen.findByText('南门NVR', undefined, WAIT)).closest('tr')!;
    expect(within(row).getByText('Online')).toBeTruthy();
    expect(within(row).getByText('Channels')).toBeTruthy();
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(within(row).queryByText('Refresh')).toBeNull();
    expect(screen.getAllByText('Manufacturer / model / firmware').length).toBeGreaterThan(0);
  });
});

describe('GB device list notices', { timeout: 60_000 }, () => {
  it('says GB mode is off and links to the GB settings', async () => {
    config = { ...CONFIG, status: 0, running: 0 };
    await renderPage({ view: 1 }, 'en-US');
    const notice = await screen.findByTestId('gb-devices-off', undefined, WAIT);
    expect(notice.textContent).toContain('GB28181 access is off');
    expect(within(notice).getByRole('link', { name: 'Open GB settings' }).getAttribute('href')).toBe(GB_SETTINGS_PATH);
    expect(screen.queryByTestId('gb-devices-empty')).toBeNull();
  });

  it('says where devices register when none has', async () => {
    devices = [];
    await renderPage({ view: 1 });
    const notice = await screen.findByTestId('gb-devices-empty', undefined, WAIT);
    expect(notice.textContent).toContain('暂无国标设备');
    expect(within(notice).getByTestId('gb-devices-sip-address').textContent).toBe('192.168.1.20:5060');
    expect(within(notice).getByText('34020000002000000001')).toBeTruthy();
    expect(within(notice).getByText('3402000000')).toBeTruthy();
  });

  it('falls back to the session GB flag when gbconfig cannot be read', async () => {
    config = new ApiError(ResultCode.FORBIDDEN, '无权限', 403);
    await renderPage({ view: 1 });
    // the test session says gb 0
    expect(await screen.findByTestId('gb-devices-off', undefined, WAIT)).toBeTruthy();
    expect(await screen.findByText('南门NVR', undefined, WAIT)).toBeTruthy();
  });
});

describe('GB device list helpers', () => {
  it('sends only the filters given', () => {
    expect(listQuery(2, 50, {})).toEqual({ page: 2, limit: 50 });
    expect(listQuery(1, 20, { key: '  3402 ', lineon: '0', unit_id: '6' })).toEqual({
      page: 1,
      limit: 20,
      key: '3402',
      lineon: 0,
      unit_id: 6,
    });
    expect(listQuery(1, 20, { key: ' ', lineon: '', unit_id: '' })).toEqual({ page: 1, limit: 20 });
    expect(listQuery(1, 20, { lineon: '1', unit_id: 'x' })).toEqual({ page: 1, limit: 20, lineon: 1 });
  });

  it('formats DeviceInfo and positions', () => {
    expect(formatDeviceInfo(NVR)).toBe('BWC-SIM / SIM-IPC / 1.0');
    expect(formatDeviceInfo({ manufacturer: 'Hik', model: '', firmware: ' ' })).toBe('Hik');
    expect(formatPosition(null, 22.5)).toBeNull();
    expect(formatPosition(114.0000004, -22.5)).toBe('114.000000, -22.500000');
    expect(formatPosition(Number.NaN, 1)).toBeNull();
  });
});
