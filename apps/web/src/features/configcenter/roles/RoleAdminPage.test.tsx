import { Api, MenuId, type Role } from '@bwc/protocol';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { RoleAdminPage } from './RoleAdminPage';

const role = (id: number, name: string, changeable: 0 | 1): Role => ({
  id,
  name,
  weight: 100 - id,
  remark: '',
  created: '2026-11-01T08:00:00Z',
  users: 1,
  changeable,
});

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const data =
        String(url).split('?')[0] === Api.roleList.path
          ? [role(1, 'Administrator', 0), role(2, 'Station desk', 1)]
          : null;
      return new Response(JSON.stringify({ code: 200, msg: '', data }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('role admin page', () => {
  it('offers permissions, edit and delete only on roles the server lets the caller change', async () => {
    await renderWidget(<RoleAdminPage />, {
      url: '/configcenter/userAdmin/RoleAdmin',
      permissions: { [MenuId.ROLES]: { view: 1, edit: 1, add: 1 } },
      language: 'en-US',
    });
    const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;
    const admin = within(await rowOf('Administrator'));
    const desk = within(await rowOf('Station desk'));
    for (const label of ['Permissions', 'Edit', 'Delete']) {
      expect(desk.getByText(label)).toBeTruthy();
      expect(admin.queryByText(label)).toBeNull();
    }
  });
});
