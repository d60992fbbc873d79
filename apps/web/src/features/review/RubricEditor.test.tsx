import { Api, MenuId, type RubricVersion } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from '../data/fakeServer';
import { RubricEditor, rubricPayload } from './RubricEditor';

afterEach(() => vi.unstubAllGlobals());

function version(id: number, change: Partial<RubricVersion> = {}): RubricVersion {
  const criteria = [
    { key: 'identity', label_zh: '表明身份', label_en: 'Identifies himself', max: 20 },
    { key: 'reason', label_zh: '告知事由', label_en: 'States the reason', max: 30 },
  ];
  return {
    id,
    root_id: id,
    version: 1,
    name_zh: '执法规范',
    name_en: 'Law-enforcement conduct',
    criteria,
    max_total: 50,
    active: 0,
    latest: 1,
    scores: 0,
    updated: '2026-11-20T08:00:00.000Z',
    ...change,
  };
}

const ALL = { [MenuId.PEER_REVIEW]: { view: 1, add: 1, edit: 1 } } as const;
const rowOf = (id: number) =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);
    expect(found).not.toBeNull();
    return found!;
  });

describe('rubric editor', () => {
  it('lists the newest versions, old ones on request, and activates one', async () => {
    let rubrics = [
      version(3, { root_id: 1, version: 2, active: 1, scores: 4 }),
      version(1, { latest: 0, scores: 9 }),
      version(5, { name_en: 'Scene' }),
    ];
    const server = fakeServer((path, body) => {
      if (path === Api.rubricList.path) return rubrics;
      if (path === Api.rubricActive.path) {
        rubrics = rubrics.map((r) => ({ ...r, active: r.id === body.id ? 1 : 0 }));
        return rubrics.find((r) => r.id === body.id);
      }
      return null;
    });
    await renderWidget(<RubricEditor />, { language: 'en-US', permissions: ALL });
    const active = await rowOf(3);
    expect(active.textContent).toContain('Law-enforcement conduct (v2)');
    expect(active.textContent).toContain('In use');
    expect(active.textContent).toContain('2 criteria, out of 50');
    expect(active.textContent).toContain('States the reason 30');
    expect(document.querySelector('tr[data-row-key="1"]')).toBeNull();
    fireEvent.click(screen.getByText('Show old versions'));
    const old = await rowOf(1);
    expect(old.textContent).toContain('Replaced by a newer version');
    // an old version offers no edit nor activation
    expect(within(old).queryByText('Edit')).toBeNull();
    expect(screen.queryByTestId('rubric-activate-3')).toBeNull();

    fireEvent.click(screen.getByTestId('rubric-activate-5'));
    fireEvent.click(await screen.findByTestId('rubric-activate-ok'));
    await waitFor(() => expect(server.calls(Api.rubricActive.path)).toEqual([{ id: 5 }]));
    await waitFor(() =>
      expect((document.querySelector('tr[data-row-key="5"]') as HTMLElement).textContent).toContain('In use'),
    );
  });

  it('creates a rubric: checks criteria in the form before sending', async () => {
    const server = fakeServer((path, body) => {
      if (path === Api.rubricList.path) return [];
      if (path === Api.rubricAdd.path) return version(9, { name_zh: String(body.name_zh) });
      return null;
    });
    await renderWidget(<RubricEditor />, { language: 'en-US', permissions: ALL });
    fireEvent.click(await screen.findByTestId('rubric-new'));
    const dialog = await screen.findByTestId('rubric-dialog');
    fireEvent.change(within(dialog).getByLabelText('Chinese name'), { target: { value: ' 现场处置 ' } });
    fireEvent.change(within(dialog).getByLabelText('Key 1'), { target: { value: 'safety' } });
    fireEvent.change(within(dialog).getByLabelText('Chinese label 1'), { target: { value: '现场安全' } });
    fireEvent.click(within(dialog).getByTestId('rubric-add-criterion'));
    fireEvent.change(within(dialog).getByLabelText('Key 2'), { target: { value: 'safety' } });
    fireEvent.change(within(dialog).getByLabelText('Chinese label 2'), { target: { value: '证据' } });
    fireEvent.change(within(dialog).getByLabelText('Most points 2'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('rubric-ok'));
    await waitFor(() => expect(within(dialog).getAllByText('Keys must be unique')).toHaveLength(2));
    expect(await within(dialog).findByText('Most points must be a whole number from 1 to 1000')).toBeTruthy();
    expect(server.calls(Api.rubricAdd.path)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Key 2'), { target: { value: 'evidence' } });
    fireEvent.change(within(dialog).getByLabelText('Most points 2'), { target: { value: '30' } });
    fireEvent.click(screen.getByTestId('rubric-ok'));
    await waitFor(() => expect(server.calls(Api.rubricAdd.path)).toHaveLength(1));
    expect(server.calls(Api.rubricAdd.path)[0]).toEqual({
      name_zh: '现场处置',
      name_en: '',
      criteria: [
        { key: 'safety', label_zh: '现场安全', label_en: '', max: 20 },
        { key: 'evidence', label_zh: '证据', label_en: '', max: 30 },
      ],
    });
  });

  it('says a scored rubric gets a new version, and sends the edit', async () => {
    const server = fakeServer((path) => {
      if (path === Api.rubricList.path) return [version(3, { active: 1, scores: 4 })];
      if (path === Api.rubricEdit.path) return version(4, { root_id: 3, version: 2 });
      return null;
    });
    await renderWidget(<RubricEditor />, { permissions: ALL });
    fireEvent.click(await screen.findByTestId('rubric-edit-3'));
    const dialog = await screen.findByTestId('rubric-dialog');
    expect(dialog.textContent).toContain('该评分标准已有 4 次评分：保存将生成第 2 版');
    expect((within(dialog).getByLabelText('中文名称 2') as HTMLInputElement).value).toBe('告知事由');
    fireEvent.change(within(dialog).getByLabelText('满分 2'), { target: { value: '40' } });
    fireEvent.click(screen.getByTestId('rubric-ok'));
    await waitFor(() => expect(server.calls(Api.rubricEdit.path)).toHaveLength(1));
    expect(server.calls(Api.rubricEdit.path)[0]).toMatchObject({
      id: 3,
      criteria: [{ max: 20 }, { key: 'reason', max: 40 }],
    });
  });

  it('is read-only with view only', async () => {
    fakeServer((path) => (path === Api.rubricList.path ? [version(3, { active: 1 })] : null));
    await renderWidget(<RubricEditor />, { permissions: { [MenuId.PEER_REVIEW]: { view: 1 } } });
    expect((await rowOf(3)).textContent).toContain('执法规范（第 1 版）');
    expect(screen.queryByTestId('rubric-new')).toBeNull();
    expect(screen.queryByTestId('rubric-edit-3')).toBeNull();
  });

  it('trims the payload', () => {
    expect(
      rubricPayload({
        name_zh: ' 甲 ',
        name_en: ' A ',
        criteria: [{ key: ' k ', label_zh: ' 乙 ', label_en: '', max: 5 }],
      }),
    ).toEqual({ name_zh: '甲', name_en: 'A', criteria: [{ key: 'k', label_zh: '乙', label_en: '', max: 5 }] });
  });
});
