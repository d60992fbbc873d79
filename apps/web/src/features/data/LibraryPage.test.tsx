import { Api, MenuId } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from './fakeServer';
import { AlarmRecordingsPage, LibraryPage } from './LibraryPage';
import { testMedia } from './test-media';

afterEach(() => vi.unstubAllGlobals());

const page = (list: unknown[]) => ({ total: list.length, page: 1, limit: 20, list });
const row = (id: number) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);

describe('evidence library', () => {
  it('searches with the URL filters and the view, 20 rows a page', async () => {
    const server = fakeServer((path) => (path === Api.mediaList.path ? page([testMedia(1)]) : []));
    await renderWidget(<LibraryPage view="sensitivity" />, {
      url: '/data/manage/sensitivity?media_type=1&flg=1&keyword=stop&recorded_start=2026-11-01%2000:00:00&scored=0',
      permissions: { [MenuId.SENSITIVE_MEDIA]: { view: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(server.calls(Api.mediaList.path).length).toBeGreaterThan(0));
    expect(server.calls(Api.mediaList.path)[0]).toEqual({
      page: 1,
      limit: 20,
      view: 'sensitivity',
      media_type: 1,
      flg: 1,
      keyword: 'stop',
      scored: 0,
      recorded_start: dayjs('2026-11-01 00:00:00').toISOString(),
    });
    await waitFor(() => expect(row(1)).not.toBeNull());
    // no thumbnail yet: the placeholder icon
    expect(within(row(1)!).getByTestId('thumb-placeholder')).toBeTruthy();
    expect(row(1)!.textContent).toContain('01:05');
    expect(row(1)!.textContent).toContain('5.0 MB');
    // the device by its number (its name on hover), the officer under it
    const device = within(row(1)!).getByText('HB007');
    expect(device.getAttribute('title')).toBe('cam7');
    expect(device.nextElementSibling?.textContent).toBe('Li');
  });

  it('alarm recordings (/data/archive/alram) list the live recordings of alarms under menu 10222', async () => {
    const server = fakeServer((path) =>
      path === Api.mediaList.path ? page([testMedia(3, { source: 'live', alarm_id: 9, title: 'SOS T1' })]) : [],
    );
    await renderWidget(<AlarmRecordingsPage />, {
      url: '/data/archive/alram',
      permissions: { [MenuId.ALARM_RECORDINGS]: { view: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(server.calls(Api.mediaList.path).length).toBeGreaterThan(0));
    expect(server.calls(Api.mediaList.path)[0]).toMatchObject({ view: 'alarm' });
    expect(await screen.findByText('Alarm recordings')).toBeTruthy();
    await waitFor(() => expect(row(3)?.textContent).toContain('SOS T1'));
    // no upload into alarm recordings
    expect(screen.queryByTestId('evidence-upload')).toBeNull();
  });

  it('without edit or add: no bulk actions, no selection, no upload, no revise / mark / delete', async () => {
    fakeServer((path) => (path === Api.mediaList.path ? page([testMedia(1)]) : []));
    await renderWidget(<LibraryPage view="law" />, {
      url: '/data/manage/law',
      permissions: { [MenuId.LAW_MEDIA]: { view: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(row(1)).not.toBeNull());
    expect(screen.queryByTestId('evidence-bulk')).toBeNull();
    expect(screen.queryByTestId('evidence-upload')).toBeNull();
    expect(row(1)!.querySelector('input[type="checkbox"]')).toBeNull();
    const cell = within(row(1)!);
    expect(cell.getByText('Play')).toBeTruthy();
    expect(cell.getByText('Custody')).toBeTruthy();
    expect(cell.getByText('Download')).toBeTruthy();
    expect(cell.queryByText('Revise')).toBeNull();
    expect(cell.queryByText('Delete')).toBeNull();
  });

  it('with edit: checked rows are deleted in bulk with a reason; upload needs add and the law or outside view', async () => {
    const server = fakeServer((path) => {
      if (path === Api.mediaList.path) return page([testMedia(1), testMedia(2)]);
      if (path === Api.mediaDelete.path) return { changed: 2, refused: [] };
      return [];
    });
    await renderWidget(<LibraryPage view="sensitivity" />, {
      url: '/data/manage/sensitivity',
      permissions: { [MenuId.SENSITIVE_MEDIA]: { view: 1, edit: 1, add: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(row(2)).not.toBeNull());
    // the sensitive view takes no uploads even with add
    expect(screen.queryByTestId('evidence-upload')).toBeNull();
    const bulkDelete = screen.getByTestId('evidence-bulk-delete');
    expect(bulkDelete).toHaveProperty('disabled', true);
    fireEvent.click(row(1)!.querySelector('input[type="checkbox"]')!);
    fireEvent.click(row(2)!.querySelector('input[type="checkbox"]')!);
    await waitFor(() => expect(bulkDelete).toHaveProperty('disabled', false));
    fireEvent.click(bulkDelete);
    const dialog = await screen.findByTestId('media-delete');
    // the reason is required: nothing is sent without it
    await act(async () => {
      fireEvent.click(screen.getByTestId('media-delete-ok'));
    });
    await waitFor(() => expect(dialog.querySelector('.ant-form-item-explain-error')).not.toBeNull());
    expect(server.calls(Api.mediaDelete.path)).toHaveLength(0);
    fireEvent.change(within(dialog).getByTestId('reason'), { target: { value: 'duplicate' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('media-delete-ok'));
    });
    await waitFor(() => expect(server.calls(Api.mediaDelete.path)).toHaveLength(1));
    expect(server.calls(Api.mediaDelete.path)[0]).toEqual({ ids: [1, 2], reason: 'duplicate' });
  });

  it('the law view offers upload with add', async () => {
    fakeServer((path) => (path === Api.mediaList.path ? page([]) : []));
    await renderWidget(<LibraryPage view="law" />, {
      url: '/data/manage/law',
      permissions: { [MenuId.LAW_MEDIA]: { view: 1, add: 1 } },
      language: 'en-US',
    });
    expect(await screen.findByTestId('evidence-upload')).toBeTruthy();
    // add alone gives no bulk edit
    expect(screen.queryByTestId('evidence-bulk')).toBeNull();
  });
});
