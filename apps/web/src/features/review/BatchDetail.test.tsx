import { Api, MenuId, type CheckBatchDetail } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from '../data/fakeServer';
import { testMedia } from '../data/test-media';
import { BatchDetail } from './BatchDetail';

afterEach(() => vi.unstubAllGlobals());

const detail: CheckBatchDetail = {
  batch: {
    id: 4,
    unit_id: 2,
    unit_name: 'Futian',
    created_by_name: 'Wang',
    created_at: '2026-11-20T08:00:00.000Z',
    note: '',
    seed: 12345,
    max_media_id: 90,
    filters: { unit_id: null, include_sub: 1, recorded_start: null, recorded_end: null, media_type: 1 },
    requested: 2,
    drawn: 2,
    pass: 1,
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
    {
      batch_id: 4,
      media_id: 8,
      pos: 2,
      result: 'pass',
      note: 'ok',
      checked_by_name: 'Li',
      checked_at: '2026-11-20T09:00:00.000Z',
      media: null,
    },
  ],
};

describe('check batch detail', () => {
  it('records a result with a note; a purged item offers no buttons', async () => {
    const server = fakeServer((path, body) =>
      path === Api.checkResult.path ? { ...detail.items[0], ...body, media: testMedia(7) } : null,
    );
    await renderWidget(<BatchDetail detail={detail} />, {
      language: 'en-US',
      permissions: { [MenuId.CHECK_RANDOM]: { view: 1, edit: 1 } },
    });
    expect(screen.getByTestId('batch-summary').textContent).toContain('12345 / 90');
    expect(screen.getByText('Media item 8 was permanently deleted')).toBeTruthy();
    expect(screen.queryByTestId('result-8-pass')).toBeNull();
    fireEvent.click(screen.getByTestId('result-7-fail'));
    fireEvent.change(await screen.findByTestId('result-note'), { target: { value: 'no audio' } });
    fireEvent.click(screen.getByTestId('result-ok'));
    await waitFor(() =>
      expect(server.calls(Api.checkResult.path)).toEqual([
        { batch_id: 4, media_id: 7, result: 'fail', note: 'no audio' },
      ]),
    );
  });

  it('plays an item in the library player; without edit there are no result buttons', async () => {
    const server = fakeServer((path) => {
      if (path === Api.mediaView.path)
        return {
          item: testMedia(7),
          play_url: '/media/evidence/play/7?token=t',
          play_mime: 'video/mp4',
          expires: Date.now() + 60_000,
          revisions: [],
        };
      if (path === Api.mediaGps.path) return { start: '', end: '', points: [] };
      return null;
    });
    await renderWidget(<BatchDetail detail={detail} />, {
      language: 'en-US',
      permissions: { [MenuId.CHECK_RECORD]: { view: 1 } },
    });
    expect(screen.queryByTestId('result-7-pass')).toBeNull();
    fireEvent.click(screen.getByTestId('play-7'));
    expect(await screen.findByTestId('player-video')).toBeTruthy();
    expect(server.calls(Api.mediaView.path)).toEqual([{ id: 7 }]);
  });
});
