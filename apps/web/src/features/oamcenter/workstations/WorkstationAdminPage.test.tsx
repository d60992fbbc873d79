import { MenuId, type Page, type Workstation } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../../api/http';
import { renderWidget } from '../../../components/test-utils';
import { formatDiskFree, WorkstationAdminPage } from './WorkstationAdminPage';

vi.mock('../../../api/http', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  call: vi.fn(),
}));

/** antd renders asynchronously; the machine running CI may be slow */
const WAIT = { timeout: 15_000 };

const STATION: Workstation = {
  id: 3,
  name: '华富采集站',
  code: 'WS-HF-01',
  unit_id: 6,
  unitname: '福田分局',
  ip: '10.1.2.3',
  last_ip: '10.1.2.9',
  remark: '',
  lineon: 1,
  last_seen: '2026-11-27T01:00:00.000Z',
  disk_free: 5 * 1024 ** 3,
  docked: [
    { hostbody: 'BWC0007', device_id: 7, hostname: '张三' },
    { hostbody: 'XX99', device_id: null, hostname: '' },
  ],
  created: '2026-11-01T00:00:00.000Z',
  updated: '2026-11-01T00:00:00.000Z',
};
const IDLE: Workstation = {
  ...STATION,
  id: 4,
  name: '莲花采集站',
  code: 'WS-LH-01',
  lineon: 0,
  last_ip: '',
  disk_free: null,
  last_seen: null,
  docked: [],
};

const callMock = vi.mocked(call);

beforeEach(() => {
  callMock.mockReset().mockImplementation(async (endpoint: unknown) => {
    if (endpoint === 'workstationList')
      return { total: 2, page: 1, limit: 20, list: [STATION, IDLE] } satisfies Page<Workstation>;
    if (endpoint === 'workstationResetSecret') return { workstation: STATION, secret: 'new-secret-shown-once' };
    return null;
  });
});

function renderPage(permission: { view: 1; edit?: 1; add?: 1 }, language: 'zh-CN' | 'en-US' = 'zh-CN') {
  // the console shell provides antd's App (modal.info)
  return renderWidget(
    <App>
      <WorkstationAdminPage />
    </App>,
    { permissions: { [MenuId.WORKSTATIONS]: permission }, language },
  );
}

describe('docking workstation list', { timeout: 60_000 }, () => {
  it('shows the online state, the docked cameras and the free space', async () => {
    await renderPage({ view: 1, edit: 1, add: 1 });
    const row = (await screen.findByText('华富采集站', undefined, WAIT)).closest('tr')!;
    expect(within(row).getByText('在线')).toBeTruthy();
    expect(within(row).getByText('张三 (BWC0007)')).toBeTruthy();
    expect(within(row).getByText('XX99')).toBeTruthy();
    expect(within(row).getByText('5.0 GB')).toBeTruthy();
    expect(within(row).getByText('10.1.2.9')).toBeTruthy();
    const idle = screen.getByText('莲花采集站').closest('tr')!;
    expect(within(idle).getByText('离线')).toBeTruthy();
    expect(screen.getByRole('button', { name: /添加工作站/ })).toBeTruthy();
    expect(callMock.mock.calls.find(([endpoint]) => endpoint === 'workstationList')?.[1]).toMatchObject({ page: 1 });
  });

  it('resets a secret after confirmation and shows it once', async () => {
    await renderPage({ view: 1, edit: 1 });
    const row = (await screen.findByText('华富采集站', undefined, WAIT)).closest('tr')!;
    fireEvent.click(within(row).getByText('重置密钥'));
    fireEvent.click(await screen.findByRole('button', { name: /^确\s?定$/ }, WAIT));
    await waitFor(
      () => expect(callMock).toHaveBeenCalledWith('workstationResetSecret', { id: 3 }, { success: true }),
      WAIT,
    );
    expect((await screen.findByTestId('workstation-secret', undefined, WAIT)).textContent).toContain(
      'new-secret-shown-once',
    );
  });

  it('hides add, edit, reset and delete without the permissions, in English too', async () => {
    await renderPage({ view: 1 }, 'en-US');
    const row = (await screen.findByText('华富采集站', undefined, WAIT)).closest('tr')!;
    expect(within(row).getByText('Online')).toBeTruthy();
    expect(screen.getAllByText('Docked cameras').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /Add workstation/ })).toBeNull();
    expect(within(row).queryByText('Reset secret')).toBeNull();
    expect(within(row).queryByText('Delete')).toBeNull();
  });

  it('formats free space', () => {
    expect(formatDiskFree(null)).toBe('—');
    expect(formatDiskFree(1.25 * 1024 ** 3)).toBe('1.3 GB');
  });
});
