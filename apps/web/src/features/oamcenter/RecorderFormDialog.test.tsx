import { MenuId, type Account, type Device, type Page } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../api/http';
import { renderWidget } from '../../components/test-utils';
import { RecorderFormDialog } from './RecorderFormDialog';

vi.mock('../../api/http', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  call: vi.fn(),
}));

/** antd renders asynchronously; the machine running CI may be slow */
const WAIT = { timeout: 15_000 };

const DEVICE: Device = {
  id: 7,
  did: 'BWC0007',
  hostid: 7,
  hostbody: 'BWC0007',
  imei: '490154203237518',
  hostcode: '100007',
  hostname: '赵六',
  lineon: 1,
  remote_kill: 0,
  typecate: [1, 1, 1, 1],
  lat: null,
  lng: null,
  jq_hostcode: '',
  unit_id: 6,
  unitname: '东门派出所',
  dwbh: '440303010000',
  model_id: null,
  model_name: '',
  owner_id: 41,
  owner_name: '赵六',
  remark: '',
  speed: null,
  course: null,
  battery: null,
  gps_time: null,
  last_seen: null,
  created: '2026-11-01T00:00:00.000Z',
  updated: '2026-11-01T00:00:00.000Z',
};

const account = (id: number, hostname: string, username: string) =>
  ({ id, hostname, username, unit_id: 6, dname: '东门派出所' }) as Account;

const callMock = vi.mocked(call);

beforeEach(() => {
  callMock.mockReset().mockImplementation(async (endpoint: unknown, payload: unknown) => {
    if (endpoint === 'accountList') {
      const keyword = (payload as { keyword?: string }).keyword ?? '';
      const all = [account(41, '赵六', '100007'), account(42, '钱七', '100008')];
      const list = all.filter((a) => a.hostname.includes(keyword) || a.username.includes(keyword));
      return { total: list.length, page: 1, limit: 50, list } satisfies Page<Account>;
    }
    if (endpoint === 'deviceUpdate') return DEVICE;
    if (endpoint === 'deviceAdd') return { device: DEVICE, secret: 'secret-shown-once' };
    return null;
  });
});

function renderDialog(
  permissions: Record<number, Record<string, 1>>,
  language: 'zh-CN' | 'en-US' = 'zh-CN',
  target: Device | 'new' = DEVICE,
) {
  return renderWidget(
    <App>
      <RecorderFormDialog models={[]} target={target} onClose={() => undefined} onSaved={() => undefined} />
    </App>,
    { permissions, language },
  );
}

const ownerSelect = () => screen.getByTestId('device-owner');
const updates = () => callMock.mock.calls.filter(([endpoint]) => endpoint === 'deviceUpdate').map(([, body]) => body);

async function save(dialog: HTMLElement, label: RegExp) {
  await act(async () => {
    fireEvent.click(within(dialog).getByRole('button', { name: label }));
  });
  await waitFor(() => expect(updates()).toHaveLength(1), WAIT);
}

describe('device form: the officer a camera belongs to', { timeout: 60_000 }, () => {
  it('shows the owner, finds another by name and sends his account', async () => {
    await renderDialog({ [MenuId.RECORDERS]: { view: 1, edit: 1 }, [MenuId.ACCOUNTS]: { view: 1 } });
    const dialog = await screen.findByRole('dialog', undefined, WAIT);
    await waitFor(() => expect(ownerSelect().textContent).toContain('赵六'), WAIT);
    expect(within(dialog).getByText('该设备上传的录像归入此警员名下；可按姓名或警号查找账号')).toBeTruthy();
    const input = within(ownerSelect()).getByRole('combobox');
    await act(async () => {
      fireEvent.mouseDown(input);
      fireEvent.change(input, { target: { value: '钱' } });
    });
    await waitFor(
      () =>
        expect(callMock).toHaveBeenCalledWith('accountList', { page: 1, limit: 50, keyword: '钱' }, expect.anything()),
      WAIT,
    );
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find(
        (el) => el.textContent === '钱七 (100008)',
      );
      if (!found) throw new Error('no option 钱七');
      return found;
    }, WAIT);
    await act(async () => {
      fireEvent.click(option);
    });
    await save(dialog, /保\s?存/);
    expect(updates()[0]).toMatchObject({ id: 7, owner_id: 42 });
  });

  it('cleared, the camera has no owner: null is sent', async () => {
    await renderDialog({ [MenuId.RECORDERS]: { view: 1, edit: 1 }, [MenuId.ACCOUNTS]: { view: 1 } }, 'en-US');
    const dialog = await screen.findByRole('dialog', undefined, WAIT);
    await waitFor(() => expect(ownerSelect().textContent).toContain('赵六'), WAIT);
    const clear = ownerSelect().querySelector('.ant-select-clear')!;
    await act(async () => {
      fireEvent.mouseDown(clear);
    });
    await waitFor(() => expect(ownerSelect().textContent).toContain('None'), WAIT);
    await save(dialog, /Save/);
    expect(updates()[0]).toMatchObject({ id: 7, owner_id: null });
  });

  it('without view on accounts the owner is shown and kept, not searched', async () => {
    await renderDialog({ [MenuId.RECORDERS]: { view: 1, edit: 1 } });
    const dialog = await screen.findByRole('dialog', undefined, WAIT);
    await waitFor(() => expect(ownerSelect().textContent).toContain('赵六'), WAIT);
    expect(ownerSelect().className).toContain('ant-select-disabled');
    expect(within(dialog).getByText('需要账号管理的查看权限才能更改绑定警员')).toBeTruthy();
    await save(dialog, /保\s?存/);
    expect(updates()[0]).toMatchObject({ id: 7, owner_id: 41 });
    expect(callMock.mock.calls.some(([endpoint]) => endpoint === 'accountList')).toBe(false);
  });

  it('a remark-only edit is sent with the owner and the flags it had (the form once never sent a save)', async () => {
    await renderDialog({ [MenuId.RECORDERS]: { view: 1, edit: 1 }, [MenuId.ACCOUNTS]: { view: 1 } });
    const dialog = await screen.findByRole('dialog', undefined, WAIT);
    await waitFor(() => expect(ownerSelect().textContent).toContain('赵六'), WAIT);
    await act(async () => {
      fireEvent.change(within(dialog).getByLabelText('备注'), { target: { value: '换电池' } });
    });
    await save(dialog, /保\s?存/);
    expect(updates()[0]).toMatchObject({ id: 7, remark: '换电池', owner_id: 41, unit_id: 6, typecate: [1, 1, 1, 1] });
  });
});
