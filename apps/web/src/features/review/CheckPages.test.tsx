import { Api, MenuId, type CheckBatch, type CheckBatchDetail } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from '../data/fakeServer';
import { testMedia } from '../data/test-media';
import { CheckRandomPage, CheckRecordPage, recordQuery } from './CheckPages';

afterEach(() => vi.unstubAllGlobals());

function batch(id: number, change: Partial<CheckBatch> = {}): CheckBatch {
  return {
    id,
    unit_id: 2,
    unit_name: 'Futian',
    created_by_name: 'Wang',
    created_at: '2026-11-20T08:00:00.000Z',
    note: `batch ${id}`,
    seed: 99,
    max_media_id: 50,
    filters: { unit_id: null, include_sub: 1, recorded_start: null, recorded_end: null, media_type: null },
    requested: 3,
    drawn: 3,
    pass: 1,
    fail: 1,
    doubtful: 0,
    pending: 1,
    ...change,
  };
}
const detailOf = (b: CheckBatch): CheckBatchDetail => ({
  batch: b,
  items: [
    {
      batch_id: b.id,
      media_id: 7,
      pos: 1,
      result: 'pending',
      note: '',
      checked_by_name: '',
      checked_at: null,
      media: testMedia(7),
    },
  ],
});

describe('check pages', () => {
  it('record list: filters from the address go to the server, a row opens its batch', async () => {
    const server = fakeServer((path, body) => {
      if (path === Api.checkRecords.path) return { total: 1, page: 1, limit: 20, list: [batch(4)] };
      if (path === Api.checkBatch.path) return detailOf(batch(Number(body.id)));
      return [];
    });
    await renderWidget(<CheckRecordPage />, {
      url: '/data/check/record?done=0&unit_id=2',
      language: 'en-US',
      permissions: { [MenuId.CHECK_RECORD]: { view: 1 } },
    });
    const row = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('tr[data-row-key="4"]');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(server.calls(Api.checkRecords.path)[0]).toEqual({ page: 1, limit: 20, done: 0, unit_id: 2 });
    expect(row.textContent).toContain('Fail 1');
    expect(row.textContent).toContain('batch 4');
    fireEvent.click(within(row).getByText('Details'));
    expect(await screen.findByTestId('batch-detail')).toBeTruthy();
    expect(server.calls(Api.checkBatch.path)).toEqual([{ id: 4 }]);
  });

  it('random check: a draw shows its batch and puts it in the address', async () => {
    const server = fakeServer((path) => (path === Api.checkDraw.path ? detailOf(batch(6, { note: 'fresh' })) : []));
    const view = await renderWidget(<CheckRandomPage />, {
      url: '/data/check/random',
      language: 'en-US',
      permissions: { [MenuId.CHECK_RANDOM]: { view: 1, add: 1, edit: 1 } },
    });
    fireEvent.click(screen.getByTestId('draw-open'));
    fireEvent.click(await screen.findByTestId('draw-ok'));
    expect(await screen.findByTestId('batch-detail')).toBeTruthy();
    expect(server.calls(Api.checkDraw.path)).toEqual([{ count: 10, note: '' }]);
    expect(view.url().get('batch')).toBe('6');
    expect(screen.getByTestId('batch-summary').textContent).toContain('fresh');
    expect(server.calls(Api.checkBatch.path)).toHaveLength(0);
  });

  it('random check without add offers no draw', async () => {
    fakeServer(() => []);
    await renderWidget(<CheckRandomPage />, {
      url: '/data/check/random',
      language: 'en-US',
      permissions: { [MenuId.CHECK_RANDOM]: { view: 1 } },
    });
    expect(screen.queryByTestId('draw-open')).toBeNull();
  });

  it('turns the filters into the wire query', () => {
    expect(recordQuery({ unit_id: '3', done: '1', start: '2026-11-01 00:00:00', end: '', other: 'x' })).toEqual({
      unit_id: 3,
      done: 1,
      start: new Date(2026, 10, 1).toISOString(),
    });
  });
});
