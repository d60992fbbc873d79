import { Api, MenuId, type MediaScoreAnswer, type VideoScoreRow } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from '../data/fakeServer';
import { testMedia } from '../data/test-media';
import { PeerReviewPage, scoreQuery } from './PeerReviewPage';

afterEach(() => vi.unstubAllGlobals());

const CRITERIA = [{ key: 'identity', label_zh: '表明身份', label_en: 'Identifies himself', max: 20 }];
const RUBRIC = { id: 4, name_zh: '执法规范', name_en: 'Law-enforcement conduct', version: 2, criteria: CRITERIA };

function row(id: number, change: Partial<VideoScoreRow> = {}): VideoScoreRow {
  return {
    ...testMedia(id, { title: `stop ${id}`, user_name: 'Officer Li', unit_name: 'Futian', score: 85 }),
    scorers: 2,
    my_score: null,
    last_score: {
      user_name: 'Supervisor Zhao',
      at: '2026-11-21T08:00:00.000Z',
      total: 17,
      max_total: 20,
      rubric: RUBRIC,
      items: [{ key: 'identity', score: 17 }],
    },
    ...change,
  };
}

const scoreAnswer = (id: number): MediaScoreAnswer => ({
  media_id: id,
  rubric: { id: 4, name_zh: '执法规范', name_en: 'Law-enforcement conduct', criteria: CRITERIA, max_total: 20 },
  scores: [],
  mine: null,
  average: 85,
});

describe('peer review page', () => {
  it('lists scored recordings with the filters of the address and opens the player at its score tab', async () => {
    const server = fakeServer((path, body) => {
      if (path === Api.videoScore.path) return { total: 1, page: 1, limit: 20, list: [row(7)] };
      if (path === Api.mediaView.path) {
        const item = testMedia(Number(body.id));
        return {
          item,
          play_url: `/media/evidence/play/${item.id}?token=t`,
          play_mime: item.mime,
          expires: Date.now() + 60_000,
          revisions: [],
        };
      }
      if (path === Api.mediaScoreGet.path) return scoreAnswer(Number(body.id));
      return [];
    });
    await renderWidget(<PeerReviewPage />, {
      url: '/data/peerreview/review?scored=1&score_min=60&user_id=3',
      language: 'en-US',
      permissions: { [MenuId.PEER_REVIEW]: { view: 1 }, [MenuId.LAW_MEDIA]: { view: 1, edit: 1 } },
    });
    const found = await waitFor(() => {
      const tr = document.querySelector<HTMLElement>('tr[data-row-key="7"]');
      expect(tr).not.toBeNull();
      return tr!;
    });
    expect(server.calls(Api.videoScore.path)[0]).toEqual({ page: 1, limit: 20, scored: 1, score_min: 60, user_id: 3 });
    for (const text of [
      'stop 7',
      'Officer Li',
      'Futian',
      'Law-enforcement conduct (v2)',
      '85%',
      'Supervisor Zhao (17 / 20 points)',
    ])
      expect(found.textContent).toContain(text);

    fireEvent.click(within(found).getByText('Scores'));
    expect(await screen.findByTestId('score-panel')).toBeTruthy();
    expect(server.calls(Api.mediaView.path)).toEqual([{ id: 7 }]);
    expect(server.calls(Api.mediaScoreGet.path)).toEqual([{ id: 7 }]);
  });

  it('shows an unscored row as such and switches to the rubrics tab', async () => {
    fakeServer((path) => {
      if (path === Api.videoScore.path)
        return { total: 1, page: 1, limit: 20, list: [row(8, { score: null, scorers: 0, last_score: null })] };
      if (path === Api.rubricList.path) return [];
      return [];
    });
    const view = await renderWidget(<PeerReviewPage />, {
      url: '/data/peerreview/review?scored=0',
      permissions: { [MenuId.PEER_REVIEW]: { view: 1, add: 1 }, [MenuId.OUTSIDE_MEDIA]: { view: 1, edit: 1 } },
    });
    const tr = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('tr[data-row-key="8"]');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(tr.textContent).toContain('未评分');
    fireEvent.click(screen.getByRole('tab', { name: '评分标准' }));
    expect(await screen.findByTestId('rubric-editor')).toBeTruthy();
    expect(view.url().get('tab')).toBe('rubrics');
    expect(screen.getByTestId('rubric-new')).toBeTruthy();
  });

  it('shows only the rubrics without edit on a library menu', async () => {
    const server = fakeServer((path) => (path === Api.rubricList.path ? [] : []));
    await renderWidget(<PeerReviewPage />, {
      url: '/data/peerreview/review',
      permissions: { [MenuId.PEER_REVIEW]: { view: 1 }, [MenuId.LAW_MEDIA]: { view: 1 } },
    });
    expect(await screen.findByTestId('rubric-editor')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: '评分记录' })).toBeNull();
    expect(server.calls(Api.videoScore.path)).toHaveLength(0);
  });

  it('turns the filters into the wire query', () => {
    expect(
      scoreQuery({
        unit_id: '3',
        user_id: 'x',
        score_min: '50.5',
        score_max: 'abc',
        recorded_start: '2026-11-01 00:00:00',
        mine: '0',
        keyword: ' stop ',
      }),
    ).toEqual({
      unit_id: 3,
      score_min: 50.5,
      recorded_start: new Date(2026, 10, 1).toISOString(),
      mine: 0,
      keyword: 'stop',
    });
  });
});
