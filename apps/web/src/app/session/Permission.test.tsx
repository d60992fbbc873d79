import { MODULE_BY_ID, MenuId, type UserAuth, type UserContext } from '@bwc/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { Permission, usePermission } from './Permission';
import { sessionKeys } from './queries';

function withContext(auth: Record<number, UserAuth>, ui: ReactNode) {
  const client = new QueryClient();
  const context: UserContext = {
    modules: Object.entries(auth).map(([id, user_auth]) => {
      const def = MODULE_BY_ID.get(Number(id))!;
      return { id: def.id, bh: def.bh, pid: def.pid, key: def.key, path: def.path, user_auth };
    }),
    all_modules: [],
    set_auth: 1,
    systerm_auth: 1,
    replay_auth: 0,
    gb: 0,
  };
  client.setQueryData(sessionKeys.userContext, context);
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

function CanEdit() {
  return <span>{usePermission(MenuId.ANNOUNCEMENTS, 'edit') ? 'edit yes' : 'edit no'}</span>;
}

describe('permission hook and component', () => {
  it('follow user_auth of the module matched by bh', () => {
    withContext(
      { [MenuId.ANNOUNCEMENTS]: { view: 1, add: 1 } },
      <>
        <CanEdit />
        <Permission menu={MenuId.ANNOUNCEMENTS} action="add">
          <button>add</button>
        </Permission>
        <Permission menu={MenuId.ANNOUNCEMENTS} action="edit">
          <button>delete</button>
        </Permission>
        <Permission menu={MenuId.ANNOUNCEMENTS} action="edit" mode="disable">
          <button>publish</button>
        </Permission>
        <Permission menu={MenuId.DOWNLOADS} action="view">
          <button>downloads</button>
        </Permission>
      </>,
    );
    expect(screen.getByText('edit no')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'add' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'delete' })).toBeNull();
    expect((screen.getByRole('button', { name: 'publish' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'downloads' })).toBeNull();
  });
});
