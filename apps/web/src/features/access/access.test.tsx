import { Api, MenuId, type AccessRequest, type ShareLink, type ShareOpenAnswer } from '@bwc/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { createMemoryRouter, Route, RouterProvider, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../app/routing/routes';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from '../data/fakeServer';
import { LawMediaPage } from '../data/LibraryPage';
import { testMedia } from '../data/test-media';
import { parseIds } from './AccessDialogs';
import { AccessPage } from './AccessPage';
import { ShareDialog } from './ShareDialog';
import { SharePage } from './SharePage';

afterEach(() => vi.unstubAllGlobals());

const LINK: ShareLink = {
  id: 5,
  recipient: 'Zhang',
  note: '',
  media_ids: [11, 12],
  has_password: 1,
  created_by_name: 'Wang',
  unit_name: 'Luohu',
  created_at: '2026-11-27T00:00:00.000Z',
  expires_at: '2026-12-04T00:00:00.000Z',
  revoked_at: null,
  state: 'active',
  visits: 0,
  last_visit_at: null,
};

const ALL = { view: 1, edit: 1, add: 1 } as const;

function request(id: number, extra: Partial<AccessRequest> = {}): AccessRequest {
  return {
    id,
    requester_id: 3,
    requester_name: 'Li',
    from_unit_id: 2,
    from_unit_name: 'Futian',
    to_unit_id: 4,
    to_unit_name: 'Luohu',
    media_ids: [11, 12],
    device_id: null,
    device_name: '',
    start: null,
    end: null,
    reason: 'case 12',
    requested_until: '2026-12-01T00:00:00.000Z',
    state: 'pending',
    created_at: '2026-11-27T00:00:00.000Z',
    decided_by_name: '',
    decided_at: null,
    note: '',
    expires_at: null,
    active: 0,
    item_count: 0,
    ...extra,
  };
}

const opened = (status: ShareOpenAnswer['status']): ShareOpenAnswer => ({
  status,
  recipient: status === 'ok' ? 'Prosecutor Zhang' : '',
  unit_name: status === 'ok' ? 'Luohu' : '',
  expires_at: status === 'ok' ? '2026-12-01T00:00:00.000Z' : '',
  urls_expire: status === 'ok' ? Date.parse('2026-11-27T01:00:00.000Z') : 0,
  items:
    status === 'ok'
      ? [
          {
            id: 11,
            media_type: 1,
            title: 'patrol',
            file_name: 'a.mp4',
            size: 2048,
            sha256: 'b'.repeat(64),
            duration: 3,
            recorded_at: '2026-11-26T08:00:00.000Z',
            play_url: '/media/share/play/11?token=1.2.x',
            play_mime: 'video/mp4',
            download_url: '/media/share/download/11?token=1.2.y',
            thumb_url: '',
          },
        ]
      : [],
});

describe('share page (public)', () => {
  it('asks for the password, says when it is wrong, then shows the items with play and download', async () => {
    const server = fakeServer((path, body) => {
      if (path !== Api.shareOpen.path) return null;
      if (!body.password) return opened('password');
      return opened(body.password === 'right' ? 'ok' : 'wrongPassword');
    });
    await renderWidget(
      <Routes>
        <Route path="/share/:token" element={<SharePage />} />
      </Routes>,
      { url: '/share/tok123', language: 'en-US' },
    );
    const input = await screen.findByTestId('share-page-password');
    expect(server.calls(Api.shareOpen.path)[0]).toEqual({ token: 'tok123', password: '' });
    fireEvent.change(input, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByTestId('share-page-open'));
    expect((await screen.findByTestId('share-wrong')).textContent).toContain('Wrong password');
    fireEvent.change(screen.getByTestId('share-page-password'), { target: { value: 'right' } });
    fireEvent.click(screen.getByTestId('share-page-open'));
    const item = await screen.findByTestId('shared-11');
    expect(item.querySelector('video')?.getAttribute('src')).toBe('/media/share/play/11?token=1.2.x');
    expect(screen.getByTestId('shared-download-11').getAttribute('href')).toBe('/media/share/download/11?token=1.2.y');
    expect(screen.getByTestId('share-page').textContent).toContain('Prosecutor Zhang');
  });

  it('says clearly when the link is revoked or expired', async () => {
    fakeServer(() => opened('revoked'));
    await renderWidget(
      <Routes>
        <Route path="/share/:token" element={<SharePage />} />
      </Routes>,
      { url: '/share/old' },
    );
    expect((await screen.findByTestId('share-gone')).textContent).toContain('分享链接已被撤销');
  });
});

describe('share route', () => {
  it('is served by the app outside the login (no session, no redirect)', async () => {
    const server = fakeServer((path) => (path === Api.shareOpen.path ? opened('expired') : null));
    sessionStorage.clear();
    const router = createMemoryRouter(appRoutes(), { initialEntries: ['/share/tok9'] });
    render(
      <AntApp>
        <QueryClientProvider client={new QueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>,
    );
    expect((await screen.findByTestId('share-gone')).textContent).toBeTruthy();
    expect(router.state.location.pathname).toBe('/share/tok9');
    expect(server.calls(Api.shareOpen.path)[0]).toEqual({ token: 'tok9', password: '' });
  });
});

describe('share dialog', () => {
  it('sends the items, recipient, days and password, and shows the address once', async () => {
    const server = fakeServer((path) =>
      path === Api.shareAdd.path
        ? {
            link: LINK,
            token: 'abc',
            path: '/share/abc',
          }
        : null,
    );
    await renderWidget(<ShareDialog ids={[11, 12]} onClose={() => undefined} />, { language: 'en-US' });
    fireEvent.change(await screen.findByTestId('share-recipient'), { target: { value: 'Zhang' } });
    fireEvent.change(screen.getByTestId('share-password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByTestId('share-dialog-ok'));
    const address = await screen.findByTestId('share-address');
    expect(address.textContent).toContain(`${window.location.origin}/share/abc`);
    expect(server.calls(Api.shareAdd.path)[0]).toEqual({
      media_ids: [11, 12],
      recipient: 'Zhang',
      days: 7,
      password: 'pw',
      note: '',
    });
  });

  it('refuses an empty recipient before sending', async () => {
    const server = fakeServer(() => null);
    await renderWidget(<ShareDialog ids={[11]} onClose={() => undefined} />);
    fireEvent.click(await screen.findByTestId('share-dialog-ok'));
    await waitFor(() => expect(screen.getByTestId('share-dialog').textContent).toMatch(/不能为空|required/i));
    expect(server.calls(Api.shareAdd.path)).toEqual([]);
  });
});

describe('library share action', () => {
  it('opens the share dialog for the checked rows', async () => {
    const server = fakeServer((path) =>
      path === Api.mediaList.path
        ? { total: 2, capped: 0, page: 1, limit: 20, list: [testMedia(1), testMedia(2)] }
        : path === Api.shareAdd.path
          ? { link: LINK, token: 'abc', path: '/share/abc' }
          : [],
    );
    await renderWidget(<LawMediaPage />, { permissions: { [MenuId.LAW_MEDIA]: ALL }, language: 'en-US' });
    const row = (id: number) =>
      waitFor(() => {
        const found = document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);
        expect(found).not.toBeNull();
        return found!;
      });
    fireEvent.click((await row(2)).querySelector('input[type="checkbox"]')!);
    expect(screen.getByTestId('evidence-access').getAttribute('href')).toBe('/data/access');
    const share = screen.getByTestId('evidence-bulk-share');
    await waitFor(() => expect(share).toHaveProperty('disabled', false));
    fireEvent.click(share);
    fireEvent.change(await screen.findByTestId('share-recipient'), { target: { value: 'Zhang' } });
    fireEvent.click(screen.getByTestId('share-dialog-ok'));
    await waitFor(() => expect(server.calls(Api.shareAdd.path)).toHaveLength(1));
    expect(server.calls(Api.shareAdd.path)[0]).toMatchObject({ media_ids: [2], recipient: 'Zhang', days: 7 });
    expect(await screen.findByTestId('share-address')).toBeTruthy();
  });
});

describe('access page', () => {
  it('lists my requests; an approver approves an incoming one', async () => {
    const server = fakeServer((path) => {
      if (path === Api.accessFromList.path)
        return { total: 1, page: 1, limit: 20, list: [request(1, { state: 'approved', active: 1, item_count: 2 })] };
      if (path === Api.accessToList.path) return { total: 1, page: 1, limit: 20, list: [request(2)] };
      if (path === Api.accessToSave.path) return request(2, { state: 'approved', active: 1 });
      return null;
    });
    await renderWidget(<AccessPage />, {
      permissions: { [MenuId.LAW_MEDIA]: ALL },
      language: 'en-US',
    });
    expect((await screen.findByTestId('access-state-1')).textContent).toBe('Approved');
    fireEvent.click(screen.getByRole('tab', { name: 'Requests to approve' }));
    const row = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('tr[data-row-key="2"]');
      expect(found).not.toBeNull();
      return found!;
    });
    fireEvent.click(within(row).getByText('Approve'));
    fireEvent.change(await screen.findByTestId('access-note'), { target: { value: 'ok for case 12' } });
    fireEvent.click(screen.getByTestId('access-decide-ok'));
    await waitFor(() => expect(server.calls(Api.accessToSave.path)).toHaveLength(1));
    expect(server.calls(Api.accessToSave.path)[0]).toMatchObject({ id: 2, approve: true, note: 'ok for case 12' });
    expect(server.calls(Api.accessToSave.path)[0]!.expires_at).toBe('2026-12-01T00:00:00.000Z');
  });

  it('hides approvals and links from a user with view only', async () => {
    fakeServer((path) => (path === Api.accessFromList.path ? { total: 0, page: 1, limit: 20, list: [] } : null));
    await renderWidget(<AccessPage />, { permissions: { [MenuId.LAW_MEDIA]: { view: 1 } } });
    await screen.findByTestId('access-page');
    expect(screen.queryByRole('tab', { name: '待我审批的申请' })).toBeNull();
    expect(screen.getByRole('tab', { name: '我的调阅申请' })).toBeTruthy();
  });

  it('reads item numbers from the request form', () => {
    expect(parseIds('11, 12，13 14')).toEqual([11, 12, 13, 14]);
    expect(parseIds('')).toEqual([]);
  });
});
