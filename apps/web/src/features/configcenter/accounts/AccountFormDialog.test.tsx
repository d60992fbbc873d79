import { Api, ResultCode } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import type { UnitRow } from '../units/unitTree';
import { AccountFormDialog } from './AccountFormDialog';

const UNIT = {
  id: 3,
  pid: 0,
  bh: '440300000000',
  name: 'Futian',
  sort: 0,
  created: '2026-11-01T00:00:00Z',
  children: 0,
  users: 0,
  devices: 0,
  depth: 0,
} as unknown as UnitRow;

let fetchMock: ReturnType<typeof vi.fn>;
const path = (url: unknown) => String(url).split('?')[0];
const envelope = (code: number, msg: string, data: unknown = null, status = 200) =>
  new Response(JSON.stringify({ code, msg, data }), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const p = path(url);
    if (p === Api.roleOptions.path) return envelope(200, '', [{ id: 5, name: 'Dispatcher' }]);
    if (p === Api.accountAdd.path) {
      const { username } = JSON.parse(String(init?.body)) as { username: string };
      // what apps/server answers (users.service addAccount, errors.user.taken), as it does for en-US
      return envelope(ResultCode.CONFLICT, `The username ${username} already exists`, null, 409);
    }
    return envelope(200, '', null);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

async function type(label: string, value: string) {
  await act(async () => {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  });
}
/** Opens the select of a form item and picks the option with this text. */
async function pick(label: string, option: string) {
  const input = screen.getByLabelText(label);
  await act(async () => {
    fireEvent.mouseDown(input);
  });
  const choice = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option, .ant-select-tree-title')].find(
      (el) => el.textContent === option,
    );
    if (!found) throw new Error(`no option ${option}`);
    return found;
  });
  await act(async () => {
    fireEvent.click(choice);
  });
}

describe('account dialog', () => {
  it('shows the server refusing a username in use under the username field', async () => {
    const onSaved = vi.fn();
    await renderWidget(
      <AccountFormDialog target="new" onClose={() => undefined} onSaved={onSaved} units={[UNIT]} unitsListed isAdmin />,
      { language: 'en-US' },
    );
    const dialog = await screen.findByRole('dialog');
    await type('Username', 'dispatcher');
    await type('Password', 'Secret#2026x');
    await type('Confirm password', 'Secret#2026x');
    await type('Name', 'Li Si');
    await pick('Unit', 'Futian (440300000000)');
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => path(url) === Api.roleOptions.path)).toBe(true));
    await pick('Role', 'Dispatcher');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /Save/ }));
    });
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => path(url) === Api.accountAdd.path)).toBe(true));
    const item = screen.getByLabelText('Username').closest('.ant-form-item')!;
    await waitFor(() =>
      expect(item.querySelector('.ant-form-item-explain')?.textContent).toBe('The username dispatcher already exists'),
    );
    expect(onSaved).not.toHaveBeenCalled();
    // the form's top shows no second copy of it
    expect(within(dialog).queryByRole('alert', { name: /already exists/ })).toBeNull();
  });
});
