import { Api, ArchiveMenu, type CaseRecord, type CaseSample } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { CasesPage, IncidentsPage } from './RecordsPage';
import { SamplePage } from './SamplePage';
import { testRecord } from './test-records';
import { testMedia } from '../data/test-media';

/** A violation record: an incident's defaults with the officer, kind and breach. */
function record(id: number, extra: Partial<CaseRecord> = {}): CaseRecord {
  return testRecord(id, {
    kind: 'violation',
    no: `WF-${id}`,
    title: `breach ${id}`,
    content: 'camera switched off',
    place: '',
    created_by_name: 'Supervisor Li',
    officer_id: 9,
    officer_name: 'Officer Zhang',
    violation_type: 'covered',
    ...extra,
  });
}

let violations: CaseRecord[];
let cases: CaseRecord[];
let samples: CaseSample[];
let fetchMock: ReturnType<typeof vi.fn>;

function answer(data: unknown, msg = '') {
  return new Response(JSON.stringify({ code: 200, msg, data }), { headers: { 'content-type': 'application/json' } });
}
const path = (url: unknown) => String(url).split('?')[0];
const calls = (p: string) => fetchMock.mock.calls.filter(([url]) => path(url) === p);
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body)) as Record<string, unknown>;
const page = (list: unknown[]) => answer({ total: list.length, page: 1, limit: 20, list });

beforeEach(() => {
  violations = [record(1), record(2, { state: 'closed', cancel_reason: 'warned', violation_type: 'rude_language' })];
  cases = [
    record(11, { kind: 'case', no: 'AJ-11', officer_id: null, officer_name: '', violation_type: '' }),
    record(12, { kind: 'case', no: 'AJ-12', officer_id: null, officer_name: '', violation_type: '', sample: 1 }),
  ];
  samples = [
    {
      ...cases[1]!,
      summary: 'textbook evidence collection',
      marked_by_name: 'Chen',
      marked_at: '2026-11-21T08:00:00Z',
      media_count: 1,
    },
  ];
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const p = path(url);
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (p === Api.violationList.path) return page(violations);
    if (p === Api.incidentList.path) return page([]);
    if (p === Api.caseList.path) return page(cases);
    if (p === Api.sampleList.path) return page(samples);
    if (p === Api.violationOfficers.path)
      return answer([{ id: 9, name: 'Officer Zhang', username: 'zhang', unit_name: 'Futian' }]);
    if (p === Api.violationAdd.path) {
      const created = record(3, { title: String(body.title) });
      violations = [created, ...violations];
      return answer(created, 'Added');
    }
    if (p === Api.violationClose.path) {
      violations = violations.map((r) =>
        r.id === body.id ? { ...r, state: 'closed', cancel_reason: String(body.reason) } : r,
      );
      return answer(
        violations.find((r) => r.id === body.id),
        'Closed',
      );
    }
    if (p === Api.sampleAdd.path) {
      cases = cases.map((r) => (r.id === body.id ? { ...r, sample: 1 } : r));
      return answer({ ...cases.find((r) => r.id === body.id), summary: body.summary }, 'Marked as a sample');
    }
    if (p === Api.sampleMedia.path) return answer([testMedia(7)]);
    return answer(null);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const rowOf = (id: number) =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);
    expect(found).not.toBeNull();
    return found!;
  });
const okOf = (dialog: HTMLElement) => dialog.querySelector<HTMLElement>('.ant-modal-footer .ant-btn-primary')!;

describe('violation records tab', () => {
  it('lists violations with officer, kind and state; filters go to the server; a closed one offers no close', async () => {
    await renderWidget(<IncidentsPage />, {
      url: '/data/archive/lawDoc?tab=violations&violation_type=covered',
      permissions: { [ArchiveMenu.LAW_DOC]: { view: 1, edit: 1, add: 1 } },
      language: 'en-US',
    });
    const open = await rowOf(1);
    expect(bodyOf(calls(Api.violationList.path)[0]!)).toEqual({ page: 1, limit: 20, violation_type: 'covered' });
    expect(calls(Api.incidentList.path)).toHaveLength(0);
    expect(open.textContent).toContain('Officer Zhang');
    expect(open.textContent).toContain('Camera covered or turned away');
    expect(within(open).getByText('Close')).toBeTruthy();
    const closed = await rowOf(2);
    expect(closed.textContent).toContain('Rude language');
    expect(closed.textContent).toContain('Closed');
    expect(within(closed).queryByText('Close')).toBeNull();
    expect(within(closed).queryByText('Cancel')).toBeNull();
    expect(screen.getByRole('button', { name: 'Register violation' })).toBeTruthy();
  });

  it('registers one: the form asks for officer, kind and description, then sends them', async () => {
    await renderWidget(<IncidentsPage />, {
      url: '/data/archive/lawDoc?tab=violations',
      permissions: { [ArchiveMenu.LAW_DOC]: { view: 1, edit: 1, add: 1 } },
      language: 'zh-CN',
    });
    await rowOf(1);
    fireEvent.click(screen.getByRole('button', { name: '登记违规' }));
    const dialog = await screen.findByRole('dialog');
    await act(async () => {
      fireEvent.click(okOf(dialog));
    });
    await waitFor(() =>
      expect(dialog.querySelectorAll('.ant-form-item-explain-error').length).toBeGreaterThanOrEqual(4),
    );
    expect(calls(Api.violationAdd.path)).toHaveLength(0);

    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: '涉及民警' }));
    fireEvent.click(await screen.findByText('Officer Zhang (zhang, Futian)'));
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: '违规类型' }));
    const option = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.ant-select-item-option[title="遮挡或故意偏离镜头"]');
      expect(found).not.toBeNull();
      return found!;
    });
    fireEvent.click(option);
    fireEvent.change(dialog.querySelector('#violation-add_title')!, { target: { value: '遮挡镜头' } });
    fireEvent.change(dialog.querySelector('#violation-add_content')!, { target: { value: '处警时用手遮挡镜头' } });
    await act(async () => {
      fireEvent.click(okOf(dialog));
    });
    await waitFor(() => expect(calls(Api.violationAdd.path)).toHaveLength(1));
    expect(bodyOf(calls(Api.violationAdd.path)[0]!)).toMatchObject({
      officer_id: 9,
      violation_type: 'covered',
      title: '遮挡镜头',
      content: '处警时用手遮挡镜头',
    });
    await rowOf(3);
  });

  it('closes with the handling result', async () => {
    await renderWidget(<IncidentsPage />, {
      url: '/data/archive/lawDoc?tab=violations',
      permissions: { [ArchiveMenu.LAW_DOC]: { view: 1, edit: 1 } },
      language: 'en-US',
    });
    expect(screen.queryByRole('button', { name: 'Register violation' })).toBeNull();
    fireEvent.click(within(await rowOf(1)).getByText('Close'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Close WF-1');
    expect(dialog.textContent).toContain('Handling result');
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'warned in writing' } });
    await act(async () => {
      fireEvent.click(okOf(dialog));
    });
    await waitFor(() => expect(calls(Api.violationClose.path)).toHaveLength(1));
    expect(bodyOf(calls(Api.violationClose.path)[0]!)).toEqual({ id: 1, reason: 'warned in writing' });
    await waitFor(() =>
      expect(within(document.querySelector<HTMLElement>('tr[data-row-key="1"]')!).queryByText('Close')).toBeNull(),
    );
  });
});

describe('case samples', () => {
  it('marks a case from the case screen with a summary (sample menu add); a sample shows its tag', async () => {
    await renderWidget(<CasesPage />, {
      url: '/data/archive/case',
      permissions: { [ArchiveMenu.CASE]: { view: 1 }, [ArchiveMenu.SAMPLE]: { view: 1, add: 1, edit: 1 } },
      language: 'en-US',
    });
    const marked = await rowOf(12);
    expect(within(marked).getByText('Sample')).toBeTruthy();
    expect(within(marked).getByText('Unmark')).toBeTruthy();
    expect(within(marked).queryByText('Mark as sample')).toBeNull();
    fireEvent.click(within(await rowOf(11)).getByText('Mark as sample'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Mark AJ-11 as a case sample');
    await act(async () => {
      fireEvent.click(okOf(dialog));
    });
    await waitFor(() => expect(dialog.textContent).toMatch(/required/i));
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'complete recording' } });
    await act(async () => {
      fireEvent.click(okOf(dialog));
    });
    await waitFor(() => expect(calls(Api.sampleAdd.path)).toHaveLength(1));
    expect(bodyOf(calls(Api.sampleAdd.path)[0]!)).toEqual({ id: 11, summary: 'complete recording' });
    await waitFor(() =>
      expect(
        within(document.querySelector<HTMLElement>('tr[data-row-key="11"]')!).queryByText('Mark as sample'),
      ).toBeNull(),
    );
  });

  it('offers no marking without the sample menu', async () => {
    await renderWidget(<CasesPage />, {
      url: '/data/archive/case',
      permissions: { [ArchiveMenu.CASE]: { view: 1, edit: 1, add: 1 } },
      language: 'en-US',
    });
    const row = await rowOf(11);
    expect(within(row).queryByText('Mark as sample')).toBeNull();
    expect(within(await rowOf(12)).queryByText('Unmark')).toBeNull();
  });

  it('lists samples with summary and media count and opens their media read-only', async () => {
    await renderWidget(<SamplePage />, {
      url: '/data/archive/sample',
      permissions: { [ArchiveMenu.SAMPLE]: { view: 1 } },
      language: 'en-US',
    });
    const row = await rowOf(12);
    expect(row.textContent).toContain('AJ-12');
    expect(row.textContent).toContain('textbook evidence collection');
    expect(row.textContent).toContain('Chen');
    expect(within(row).queryByText('Unmark')).toBeNull();
    fireEvent.click(within(row).getByText('Linked media'));
    expect(await screen.findByText('clip 7')).toBeTruthy();
    expect(bodyOf(calls(Api.sampleMedia.path)[0]!)).toEqual({ id: 12 });
    expect(calls(Api.caseMedia.path)).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Link media' })).toBeNull();
    expect(screen.queryByText('Unlink')).toBeNull();
  });
});
