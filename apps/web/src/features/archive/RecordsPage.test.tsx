import { Api, ArchiveMenu, MenuId, type CaseRecord, type MediaItem } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { testMedia } from '../data/test-media';
import { CasesPage, IncidentsPage } from './RecordsPage';
import { testRecord } from './test-records';

let rows: CaseRecord[];
let linked: MediaItem[];
let fetchMock: ReturnType<typeof vi.fn>;

function answer(data: unknown, msg = '') {
  return new Response(JSON.stringify({ code: 200, msg, data }), { headers: { 'content-type': 'application/json' } });
}
const path = (url: unknown) => String(url).split('?')[0];
const calls = (p: string) => fetchMock.mock.calls.filter(([url]) => path(url) === p);
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body)) as Record<string, unknown>;

beforeEach(() => {
  rows = [testRecord(1, { media_count: 1 }), testRecord(2, { state: 'cancelled', cancel_reason: 'duplicate' })];
  linked = [testMedia(7)];
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const p = path(url);
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (p === Api.incidentList.path || p === Api.caseList.path)
      return answer({ total: rows.length, page: 1, limit: 20, list: rows });
    if (p === Api.incidentCancel.path) {
      rows = rows.map((r) => (r.id === body.id ? { ...r, state: 'cancelled', cancel_reason: String(body.reason) } : r));
      return answer(
        rows.find((r) => r.id === body.id),
        'Cancelled',
      );
    }
    if (p === Api.incidentMedia.path) return answer(linked);
    if (p === Api.incidentMediaWrite.path) {
      const ids = body.media_ids as number[];
      linked =
        body.action === 'unlink'
          ? linked.filter((m) => !ids.includes(m.id))
          : [...linked, ...ids.map((id) => testMedia(id))];
      return answer({ changed: ids.length }, 'Saved');
    }
    return answer(null);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const ALL = { view: 1, edit: 1, add: 1 } as const;
const rowOf = (id: number) =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);
    expect(found).not.toBeNull();
    return found!;
  });

describe('archive records pages', () => {
  it('lists incidents with their state; the filters go to the server; cancelled rows offer no cancel', async () => {
    await renderWidget(<IncidentsPage />, {
      url: '/data/archive/lawDoc?keyword=rob&state=open',
      permissions: { [ArchiveMenu.LAW_DOC]: ALL },
      language: 'en-US',
    });
    const open = await rowOf(1);
    expect(bodyOf(calls(Api.incidentList.path)[0]!)).toEqual({ page: 1, limit: 20, keyword: 'rob', state: 'open' });
    expect(open.textContent).toContain('JQ-1');
    expect(open.textContent).toContain('Open');
    expect(within(open).getByText('Cancel')).toBeTruthy();
    const cancelled = await rowOf(2);
    expect(cancelled.textContent).toContain('Cancelled');
    expect(within(cancelled).queryByText('Cancel')).toBeNull();
    // only an open incident can be sent to terminals
    expect(within(open).getByText('Send')).toBeTruthy();
    expect(within(cancelled).queryByText('Send')).toBeNull();
    expect(screen.getByRole('button', { name: 'Register incident' })).toBeTruthy();
  });

  it('hides register and cancel without the rights', async () => {
    await renderWidget(<CasesPage />, {
      url: '/data/archive/case',
      permissions: { [ArchiveMenu.CASE]: { view: 1 } },
      language: 'zh-CN',
    });
    const row = await rowOf(1);
    expect(calls(Api.caseList.path).length).toBeGreaterThan(0);
    expect(within(row).queryByText('撤销')).toBeNull();
    expect(screen.queryByRole('button', { name: '登记案件' })).toBeNull();
  });

  it('cancels with a reason: the form asks for one, then sends it', async () => {
    await renderWidget(<IncidentsPage />, {
      url: '/data/archive/lawDoc',
      permissions: { [ArchiveMenu.LAW_DOC]: ALL },
      language: 'en-US',
    });
    fireEvent.click(within(await rowOf(1)).getByText('Cancel'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Cancel JQ-1');
    const ok = () => dialog.querySelector<HTMLElement>('.ant-modal-footer .ant-btn-primary')!;
    await act(async () => {
      fireEvent.click(ok());
    });
    await waitFor(() => expect(dialog.textContent).toMatch(/required/i));
    expect(calls(Api.incidentCancel.path)).toHaveLength(0);
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'duplicate call' } });
    await act(async () => {
      fireEvent.click(ok());
    });
    await waitFor(() => expect(calls(Api.incidentCancel.path)).toHaveLength(1));
    expect(bodyOf(calls(Api.incidentCancel.path)[0]!)).toEqual({ id: 1, reason: 'duplicate call' });
    await waitFor(() =>
      expect(within(document.querySelector<HTMLElement>('tr[data-row-key="1"]')!).queryByText('Cancel')).toBeNull(),
    );
  });

  it('shows the linked media and unlinks one', async () => {
    await renderWidget(<IncidentsPage />, {
      url: '/data/archive/lawDoc',
      permissions: { [ArchiveMenu.LAW_DOC]: ALL },
      language: 'en-US',
    });
    fireEvent.click(within(await rowOf(1)).getByText('Linked media'));
    await screen.findByText('Media linked to JQ-1');
    expect(await screen.findByText('clip 7')).toBeTruthy();
    expect(bodyOf(calls(Api.incidentMedia.path)[0]!)).toEqual({ id: 1 });
    fireEvent.click(screen.getByText('Unlink'));
    const confirm = await screen.findByText('Unlink this item from JQ-1?');
    const pop = confirm.closest('.ant-popover') as HTMLElement;
    await act(async () => {
      fireEvent.click(within(pop).getByRole('button', { name: /ok/i }));
    });
    await waitFor(() => expect(calls(Api.incidentMediaWrite.path)).toHaveLength(1));
    expect(bodyOf(calls(Api.incidentMediaWrite.path)[0]!)).toEqual({ id: 1, media_ids: [7], action: 'unlink' });
    expect(await screen.findByText('No media linked yet')).toBeTruthy();
  });

  it('plays a linked item in the player when the user may view the library', async () => {
    await renderWidget(<IncidentsPage />, {
      url: '/data/archive/lawDoc',
      permissions: { [ArchiveMenu.LAW_DOC]: ALL, [MenuId.LAW_MEDIA]: { view: 1 } },
      language: 'en-US',
    });
    fireEvent.click(within(await rowOf(1)).getByText('Linked media'));
    expect(await screen.findByText('clip 7')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    await waitFor(() => expect(calls(Api.mediaView.path)).toHaveLength(1));
    expect(bodyOf(calls(Api.mediaView.path)[0]!)).toEqual({ id: 7 });
  });

  it('offers no play without a library menu', async () => {
    await renderWidget(<IncidentsPage />, {
      url: '/data/archive/lawDoc',
      permissions: { [ArchiveMenu.LAW_DOC]: ALL },
      language: 'en-US',
    });
    fireEvent.click(within(await rowOf(1)).getByText('Linked media'));
    expect(await screen.findByText('clip 7')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Play' })).toBeNull();
  });
});
