import { Api, MenuId } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { DeletedMediaPage } from './DeletedPage';
import { fakeServer } from './fakeServer';
import { testMedia } from './test-media';

afterEach(() => vi.unstubAllGlobals());

const DAY = 86_400_000;
const recent = testMedia(1, {
  deleted_at: new Date(Date.now() - DAY).toISOString(),
  delete_reason: 'duplicate',
  deleted_by_name: 'Wang',
});
const old = testMedia(2, { deleted_at: new Date(Date.now() - 30 * DAY).toISOString(), delete_reason: 'test', deleted_by_name: 'Li' });
const row = (id: number) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);

describe('deleted media', () => {
  it('lists the deleted view with reason, who, and when it becomes purgeable; restores with edit', async () => {
    const server = fakeServer((path) => {
      if (path === Api.mediaList.path) return { total: 2, page: 1, limit: 20, list: [recent, old] };
      if (path === Api.mediaRevert.path) return { changed: 1, refused: [] };
      return null;
    });
    await renderWidget(<DeletedMediaPage />, {
      url: '/data/edit/deleted',
      permissions: { [MenuId.DELETED_MEDIA]: { view: 1, edit: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(row(2)).not.toBeNull());
    expect(server.calls(Api.mediaList.path)[0]).toMatchObject({ view: 'deleted' });
    expect(row(1)!.textContent).toContain('duplicate');
    expect(row(1)!.textContent).toContain('Wang');
    expect(within(row(1)!).getByTestId('purgeable-at')).toBeTruthy();
    expect(within(row(2)!).getByTestId('purgeable-now')).toBeTruthy();
    // edit without add: restore, no permanent delete
    expect(within(row(1)!).queryByText('Delete permanently')).toBeNull();
    expect(screen.queryByTestId('deleted-bulk-purge')).toBeNull();
    await act(async () => {
      fireEvent.click(within(row(1)!).getByText('Restore'));
    });
    await waitFor(() => expect(server.calls(Api.mediaRevert.path)).toEqual([{ ids: [1] }]));
  });

  it("permanent delete needs add and shows the server's refusal inside the window", async () => {
    const server = fakeServer((path) => {
      if (path === Api.mediaList.path) return { total: 1, page: 1, limit: 20, list: [recent] };
      if (path === Api.mediaHardDelete.path) return { code: 409, msg: 'Still inside the 7-day recovery window', data: null };
      return null;
    });
    await renderWidget(<DeletedMediaPage />, {
      url: '/data/edit/deleted',
      permissions: { [MenuId.DELETED_MEDIA]: { view: 1, add: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(row(1)).not.toBeNull());
    expect(within(row(1)!).queryByText('Restore')).toBeNull();
    fireEvent.click(within(row(1)!).getByText('Delete permanently'));
    const ok = await waitFor(() => {
      const button = document.querySelector<HTMLElement>('.ant-modal-confirm .ant-btn-dangerous');
      expect(button).not.toBeNull();
      return button!;
    });
    await act(async () => {
      fireEvent.click(ok);
    });
    await waitFor(() => expect(server.calls(Api.mediaHardDelete.path)).toEqual([{ ids: [1] }]));
    expect((await screen.findByTestId("deleted-refusal")).textContent).toContain("Still inside the 7-day recovery window");
  });
});
