import { Api, type CheckBatchDetail } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from '../data/fakeServer';
import { testMedia } from '../data/test-media';
import { DrawDialog } from './DrawDialog';

afterEach(() => vi.unstubAllGlobals());

const detail: CheckBatchDetail = {
  batch: {
    id: 4,
    unit_id: 2,
    unit_name: 'Futian',
    created_by_name: 'Wang',
    created_at: '2026-11-20T08:00:00.000Z',
    note: 'monthly',
    seed: 12345,
    max_media_id: 90,
    filters: { unit_id: null, include_sub: 1, recorded_start: null, recorded_end: null, media_type: null },
    requested: 5,
    drawn: 1,
    pass: 0,
    fail: 0,
    doubtful: 0,
    pending: 1,
  },
  items: [
    {
      batch_id: 4,
      media_id: 7,
      pos: 1,
      result: 'pending',
      note: '',
      checked_by_name: '',
      checked_at: null,
      media: testMedia(7),
    },
  ],
};

describe('draw dialog', () => {
  it('sends the count and note, hands the drawn batch over and closes', async () => {
    const server = fakeServer((path) => (path === Api.checkDraw.path ? detail : []));
    const onDrawn = vi.fn();
    const onClose = vi.fn();
    await renderWidget(<DrawDialog open onClose={onClose} onDrawn={onDrawn} />, { language: 'en-US' });
    const count = (await screen.findByLabelText('How many')) as HTMLInputElement;
    expect(count.value).toBe('10');
    fireEvent.change(count, { target: { value: '5' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Note' }), { target: { value: ' monthly ' } });
    fireEvent.click(screen.getByTestId('draw-ok'));
    await waitFor(() => expect(onDrawn).toHaveBeenCalledWith(detail));
    expect(server.calls(Api.checkDraw.path)).toEqual([{ count: 5, note: 'monthly' }]);
    expect(onClose).toHaveBeenCalled();
  });

  it('asks for a count and sends nothing without one', async () => {
    const server = fakeServer(() => []);
    const onDrawn = vi.fn();
    await renderWidget(<DrawDialog open onClose={() => undefined} onDrawn={onDrawn} />, { language: 'en-US' });
    fireEvent.change(await screen.findByLabelText('How many'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('draw-ok'));
    expect(await screen.findByText('Enter a whole number from 1 to 100')).toBeTruthy();
    expect(server.calls(Api.checkDraw.path)).toHaveLength(0);
    expect(onDrawn).not.toHaveBeenCalled();
  });

  it('stays open with the values when the server refuses', async () => {
    const server = fakeServer((path) =>
      path === Api.checkDraw.path
        ? { code: 400, msg: 'No media items match the filters to draw from', data: null }
        : [],
    );
    const onDrawn = vi.fn();
    const onClose = vi.fn();
    await renderWidget(<DrawDialog open onClose={onClose} onDrawn={onDrawn} />, { language: 'en-US' });
    fireEvent.change(await screen.findByLabelText('How many'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('draw-ok'));
    await waitFor(() => expect(server.calls(Api.checkDraw.path)).toEqual([{ count: 3, note: '' }]));
    // the answer has arrived when the button stops spinning (the toast shows the server's text)
    await waitFor(() => expect(screen.getByTestId('draw-ok').className).not.toContain('ant-btn-loading'));
    expect(onDrawn).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect((screen.getByLabelText('How many') as HTMLInputElement).value).toBe('3');
  });
});
