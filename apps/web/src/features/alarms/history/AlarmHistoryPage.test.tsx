import { Api, MODULES, MenuId, type Alarm } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { useLocation } from 'react-router';
import { onBellEvent, type AlarmOpenRequest } from '../bell/bellEvents';
import { AlarmHistoryPage } from './AlarmHistoryPage';
import { testAlarm } from '../test-alarm';

const alarm = testAlarm;

let rows: Alarm[];
let fetchMock: ReturnType<typeof vi.fn>;

function answer(data: unknown, msg = '') {
  return new Response(JSON.stringify({ code: 200, msg, data }), { headers: { 'content-type': 'application/json' } });
}
const path = (url: unknown) => String(url).split('?')[0];
const calls = (p: string) => fetchMock.mock.calls.filter(([url]) => path(url) === p);
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body)) as Record<string, unknown>;
const queryOf = (call: unknown[]) => new URL(String(call[0]), 'http://x').searchParams;

beforeEach(() => {
  rows = [alarm(1, 'criticle'), alarm(2, 'criticle')];
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const p = path(url);
    if (p === Api.alarmCategories.path)
      return answer([
        { key: '1', label: 'SOS' },
        { key: '6', label: 'Face match' },
      ]);
    if (p === Api.alarmSearch.path || p === Api.alarmGbSearch.path)
      return answer({ total: rows.length, page: 1, limit: 20, list: rows });
    if (p === Api.alarmSure.path || p === Api.alarmGbSure.path) {
      const { ids, note, ack_type } = JSON.parse(String(init?.body)) as { ids: number[]; note: string; ack_type: number };
      rows = rows.map((r) =>
        ids.includes(r.id)
          ? { ...r, sure: 1, sure_user: 'Wang', sure_note: note, sure_time: '2026-11-21T11:00:00Z', sure_type: ack_type }
          : r,
      );
      return answer({ count: ids.length }, 'Alarm acknowledged');
    }
    if (p === Api.alarmSureAll.path || p === Api.alarmGbSureAll.path) {
      const note = new URL(String(url), 'http://x').searchParams.get('note') ?? '';
      const open = rows.filter((r) => !r.sure).length;
      rows = rows.map((r) => (r.sure ? r : { ...r, sure: 1, sure_user: 'Wang', sure_note: note }));
      return answer({ count: open }, 'Alarm acknowledged');
    }
    return answer(null);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const EDIT = { view: 1, edit: 1 } as const;
const VIDEO_PATROL = MODULES.find((m) => m.key === 'VideoPatrol')!.id;

/** The router's path and navigation state. */
function Where() {
  const location = useLocation();
  const state = location.state as AlarmOpenRequest | null;
  return (
    <output data-testid="where">
      {location.pathname}
      {state ? ` info=${state.info.id} isLive=${String(state.isLive)}` : ''}
    </output>
  );
}
const okButton = () => document.querySelector<HTMLElement>('.ant-modal-footer .ant-btn-primary')!;

describe('alarm history page', () => {
  it('searches with the tab of alarmNavActive and the URL filters; a tab click re-searches from page 1', async () => {
    const view = await renderWidget(<AlarmHistoryPage mode="dispatch" />, {
      url: '/dispatch/alarm?alarmNavActive=0&type=6&sure=0&page=2',
      permissions: { [MenuId.DISPATCH_ALARM]: EDIT },
      language: 'en-US',
    });
    await waitFor(() => expect(calls(Api.alarmSearch.path).length).toBeGreaterThan(0));
    expect(bodyOf(calls(Api.alarmSearch.path)[0]!)).toEqual({
      page: 2,
      limit: 20,
      type: '6',
      sure: '0',
      alarmNavActive: 0,
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Major' }));
    await waitFor(() =>
      expect(bodyOf(calls(Api.alarmSearch.path).at(-1)!)).toMatchObject({ alarmNavActive: 1, page: 1 }),
    );
    expect(view.url().get('alarmNavActive')).toBe('1');
    expect(view.url().get('page')).toBeNull();
    expect(view.url().get('type')).toBe('6');
    fireEvent.click(screen.getByRole('tab', { name: 'All' }));
    await waitFor(() => expect(bodyOf(calls(Api.alarmSearch.path).at(-1)!)).not.toHaveProperty('alarmNavActive'));
    expect(view.url().has('alarmNavActive')).toBe(false);
  });

  it('acknowledges one alarm with a note, shows handler and note, and asks the bell to re-read', async () => {
    const refresh = vi.fn();
    const off = onBellEvent('refresh', refresh);
    await renderWidget(<AlarmHistoryPage mode="dispatch" />, {
      url: '/dispatch/alarm',
      permissions: { [MenuId.DISPATCH_ALARM]: EDIT },
      language: 'en-US',
    });
    const row = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('tr[data-row-key="2"]');
      expect(found).not.toBeNull();
      return found!;
    });
    fireEvent.click(within(row).getByText('Acknowledge'));
    const dialog = await screen.findByTestId('alarm-sure-dialog');
    expect(dialog.textContent).toContain('Acknowledge the SOS of cam2(C2)?');
    fireEvent.change(within(dialog).getByTestId('alarm-sure-note'), { target: { value: '  officer sent  ' } });
    // the outcome: handled unless chosen otherwise
    expect(within(dialog).getByLabelText('Handled')).toHaveProperty('checked', true);
    fireEvent.click(within(dialog).getByLabelText('Transferred'));
    await act(async () => {
      fireEvent.click(okButton());
    });
    await waitFor(() => expect(calls(Api.alarmSure.path)).toHaveLength(1));
    expect(bodyOf(calls(Api.alarmSure.path)[0]!)).toEqual({ ids: [2], note: 'officer sent', ack_type: 2 });
    await waitFor(() => {
      const cell = document.querySelector('tr[data-row-key="2"] [data-testid="alarm-sure-cell"]');
      expect(cell?.textContent).toContain('Wang');
      expect(cell?.textContent).toContain('Transferred');
      expect(cell?.textContent).toContain('officer sent');
    });
    // the acknowledged row offers no acknowledge any more, the other still does
    expect(within(document.querySelector<HTMLElement>('tr[data-row-key="2"]')!).queryByText('Acknowledge')).toBeNull();
    expect(within(document.querySelector<HTMLElement>('tr[data-row-key="1"]')!).getByText('Acknowledge')).toBeTruthy();
    expect(refresh).toHaveBeenCalled();
    off();
  });

  it('GB page: acknowledge all goes to the monitor path with the note', async () => {
    await renderWidget(<AlarmHistoryPage mode="gb" />, {
      url: '/monitor/alarm',
      permissions: { [MenuId.MONITOR_ALARM]: EDIT },
      language: 'en-US',
    });
    await waitFor(() => expect(calls(Api.alarmGbSearch.path).length).toBeGreaterThan(0));
    fireEvent.click(screen.getByTestId('alarm-sure-all'));
    const dialog = await screen.findByTestId('alarm-sure-dialog');
    fireEvent.change(within(dialog).getByTestId('alarm-sure-note'), { target: { value: 'shift end' } });
    await act(async () => {
      fireEvent.click(okButton());
    });
    await waitFor(() => expect(calls(Api.alarmGbSureAll.path)).toHaveLength(1));
    expect(queryOf(calls(Api.alarmGbSureAll.path)[0]!).get('note')).toBe('shift end');
    expect(calls(Api.alarmSureAll.path)).toHaveLength(0);
    await waitFor(() =>
      expect(document.querySelectorAll('[data-testid="alarm-sure-cell"]')[0]?.textContent).toContain('Wang'),
    );
  });

  it('without edit: no acknowledge action and no acknowledge-all; export stays', async () => {
    await renderWidget(<AlarmHistoryPage mode="dispatch" />, {
      url: '/dispatch/alarm',
      permissions: { [MenuId.DISPATCH_ALARM]: { view: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(document.querySelector('tr[data-row-key="1"]')).not.toBeNull());
    expect(screen.queryByText('Acknowledge')).toBeNull();
    expect(screen.queryByTestId('alarm-sure-all')).toBeNull();
    expect(screen.getByTestId('alarm-export')).toBeTruthy();
    // no view on Emergency: no view / live
    expect(screen.queryByText('Live')).toBeNull();
    expect(screen.queryByText('View')).toBeNull();
    expect(screen.getAllByText('Details').length).toBeGreaterThan(0);
  });

  it('view and live open Emergency (dispatch) or VideoPatrol (GB) with info and isLive', async () => {
    for (const [mode, path] of [
      ['dispatch', '/dispatch/emergency'],
      ['gb', '/monitor/patrol'],
    ] as const) {
      const view = await renderWidget(
        <>
          <AlarmHistoryPage mode={mode} />
          <Where />
        </>,
        {
          url: mode === 'gb' ? '/monitor/alarm' : '/dispatch/alarm',
          permissions: {
            [MenuId.DISPATCH_ALARM]: { view: 1 },
            [MenuId.MONITOR_ALARM]: { view: 1 },
            [MenuId.EMERGENCY]: { view: 1 },
            [VIDEO_PATROL]: { view: 1 },
          },
          language: 'en-US',
        },
      );
      const row = await waitFor(() => {
        const found = document.querySelector<HTMLElement>('tr[data-row-key="2"]');
        expect(found).not.toBeNull();
        return found!;
      });
      fireEvent.click(within(row).getByText('Live'));
      expect(screen.getByTestId('where').textContent).toBe(`${path} info=2 isLive=true`);
      view.unmount();
    }
  });
});
