import { Api, MenuId, type MediaScore, type MediaScoreAnswer } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from '../data/fakeServer';
import { ScorePanel } from './ScorePanel';

afterEach(() => vi.unstubAllGlobals());

const CRITERIA = [
  { key: 'identity', label_zh: '表明身份', label_en: 'Identifies himself', max: 20 },
  { key: 'reason', label_zh: '告知事由', label_en: 'States the reason', max: 20 },
  { key: 'language', label_zh: '文明用语', label_en: 'Courteous language', max: 20 },
];

function scoreOf(id: number, user_name: string, points: number[], comment = ''): MediaScore {
  const items = CRITERIA.map((c, i) => ({ key: c.key, score: points[i]! }));
  return {
    id,
    user_id: id,
    user_name,
    at: '2026-11-20T08:00:00.000Z',
    items,
    comment,
    total: points.reduce((a, b) => a + b, 0),
    max_total: 60,
    rubric: { id: 1, name_zh: '执法规范', name_en: 'Law-enforcement conduct', version: 1, criteria: CRITERIA },
  };
}

function answer(scores: MediaScore[], mine: MediaScore | null, average: number | null): MediaScoreAnswer {
  return {
    media_id: 5,
    rubric: { id: 1, name_zh: '执法规范', name_en: 'Law-enforcement conduct', criteria: CRITERIA, max_total: 60 },
    scores,
    mine,
    average,
  };
}

const EDIT = { [MenuId.LAW_MEDIA]: { view: 1, edit: 1 } } as const;

describe('score panel', () => {
  it('shows the rubric and the other scores, saves the caller score and shows it as his', async () => {
    const other = scoreOf(9, 'Supervisor Zhao', [20, 10, 12], 'late notice');
    let current = answer([other], null, 70);
    const server = fakeServer((path, body) => {
      if (path === Api.mediaScoreGet.path) return current;
      if (path === Api.mediaScoreUpdate.path) {
        const mine = scoreOf(
          3,
          'Me',
          (body.items as { score: number }[]).map((i) => i.score),
          String(body.comment),
        );
        current = answer([mine, other], mine, 80.8);
        return current;
      }
      return null;
    });
    await renderWidget(<ScorePanel mediaId={5} />, { language: 'en-US', permissions: EDIT });
    const list = await screen.findByTestId('score-list');
    expect(list.textContent).toContain('Supervisor Zhao');
    expect(list.textContent).toContain('42 / 60 points');
    expect(list.textContent).toContain('States the reason 10');
    expect(list.textContent).toContain('late notice');
    expect(screen.getByText('Rubric: Law-enforcement conduct (out of 60)')).toBeTruthy();
    expect(screen.getByTestId('score-average').textContent).toContain('70');

    fireEvent.change(screen.getByLabelText('Identifies himself'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('States the reason'), { target: { value: '18' } });
    fireEvent.change(screen.getByLabelText('Courteous language'), { target: { value: '15' } });
    fireEvent.change(within(screen.getByTestId('score-form')).getByRole('textbox'), { target: { value: 'good' } });
    fireEvent.click(screen.getByTestId('score-save'));
    await waitFor(() => expect(server.calls(Api.mediaScoreUpdate.path)).toHaveLength(1));
    expect(server.calls(Api.mediaScoreUpdate.path)[0]).toEqual({
      id: 5,
      items: [
        { key: 'identity', score: 20 },
        { key: 'reason', score: 18 },
        { key: 'language', score: 15 },
      ],
      comment: 'good',
    });
    await waitFor(() => expect(screen.getByTestId('score-save').textContent).toBe('Update my score'));
    expect(screen.getByTestId('score-average').textContent).toContain('80.8');
    expect(screen.getByTestId('score-list').textContent).toContain('53 / 60 points');
  });

  it('asks for every criterion before saving', async () => {
    const server = fakeServer((path) => (path === Api.mediaScoreGet.path ? answer([], null, null) : null));
    await renderWidget(<ScorePanel mediaId={5} />, { language: 'en-US', permissions: EDIT });
    await screen.findByTestId('score-form');
    expect(screen.getByText('Not scored yet')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Identifies himself'), { target: { value: '20' } });
    fireEvent.click(screen.getByTestId('score-save'));
    await waitFor(() => expect(screen.getAllByText('Enter a score')).toHaveLength(2));
    expect(server.calls(Api.mediaScoreUpdate.path)).toHaveLength(0);
  });

  it('is read-only without edit on a library menu, in Chinese by default', async () => {
    fakeServer((path) =>
      path === Api.mediaScoreGet.path ? answer([scoreOf(9, '赵督察', [20, 20, 20])], null, 100) : null,
    );
    await renderWidget(<ScorePanel mediaId={5} />, { permissions: { [MenuId.LAW_MEDIA]: { view: 1 } } });
    expect((await screen.findByTestId('score-list')).textContent).toContain('赵督察');
    expect(screen.getByText('评分标准：执法规范（满分 60）')).toBeTruthy();
    expect(screen.queryByTestId('score-save')).toBeNull();
    expect((screen.getByLabelText('表明身份') as HTMLInputElement).disabled).toBe(true);
  });
});
