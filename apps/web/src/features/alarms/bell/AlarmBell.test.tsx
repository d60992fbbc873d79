import { Api, MenuId, type Alarm, type AlarmListResponse, type UserContext } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionKeys } from '../../../app/session/queries';
import { renderWidget } from '../../../components/test-utils';
import { AlarmBell } from './AlarmBell';
import { onBellEvent, type AlarmOpenRequest } from './bellEvents';
import { testAlarm } from '../test-alarm';

// The push channel is replaced by an emitter the test drives (the real one needs a server socket).
const channel = vi.hoisted(() => ({
  alarm: new Set<(message: { type: 'alarm_data'; data: unknown }) => void>(),
  reconnect: new Set<() => void>(),
}));
vi.mock('../../../realtime/session/pushChannel', async () => {
  const { useEffect, useRef } = await import('react');
  return {
    usePush: (_kind: string, listener: (message: { type: 'alarm_data'; data: unknown }) => void) => {
      const ref = useRef(listener);
      ref.current = listener;
      useEffect(() => {
        const wrapped = (message: { type: 'alarm_data'; data: unknown }) => ref.current(message);
        channel.alarm.add(wrapped);
        return () => void channel.alarm.delete(wrapped);
      }, []);
    },
    usePushReconnect: (listener: () => void) => {
      const ref = useRef(listener);
      ref.current = listener;
      useEffect(() => {
        const wrapped = () => ref.current();
        channel.reconnect.add(wrapped);
        return () => void channel.reconnect.delete(wrapped);
      }, []);
    },
  };
});

const alarm = testAlarm;

let snapshot: AlarmListResponse;
let fetchMock: ReturnType<typeof vi.fn>;

function answer(data: unknown) {
  return new Response(JSON.stringify({ code: 200, msg: '', data }), {
    headers: { 'content-type': 'application/json' },
  });
}

const calls = (path: string) => fetchMock.mock.calls.filter(([url]) => String(url).split('?')[0] === path);

function push(data: Alarm) {
  act(() => {
    for (const listener of channel.alarm) listener({ type: 'alarm_data', data });
  });
}

/** Shows the router's path and navigation state. */
function Where() {
  const location = useLocation();
  const state = location.state as AlarmOpenRequest | null;
  return (
    <output data-testid="where">
      {location.pathname}
      {location.search}
      {state ? ` info=${state.info.id} isLive=${String(state.isLive)}` : ''}
    </output>
  );
}

async function renderBell(url: string, permissions: Record<number, { view: 1 }>, gb = false) {
  const view = await renderWidget(
    <>
      <AlarmBell />
      <Where />
    </>,
    { url, permissions, language: 'en-US' },
  );
  if (gb) {
    act(() => {
      view.queryClient.setQueryData<UserContext>(sessionKeys.userContext, (old) => old && { ...old, gb: 1 });
    });
  }
  return view;
}

/** The bell's count (the suite's generous waiting limit: it shares a busy machine). */
function bellShows(count: string) {
  return waitFor(() => expect(screen.getByTestId('alarm-bell').dataset.count).toBe(count));
}

async function openPanel() {
  fireEvent.click(await screen.findByTestId('alarm-bell'));
  return screen.findByTestId('alarm-bell-panel');
}

describe('alarm bell widget', () => {
  beforeEach(() => {
    snapshot = {
      count: { total: 2, criticle: 1, middle: 1, normal: 0 },
      lines: { criticle: [alarm(1, 'criticle')], middle: [alarm(2, 'middle')], normal: [] },
    };
    fetchMock = vi.fn(async (url: string) => {
      const path = String(url).split('?')[0];
      if (path === Api.alarmSettings.path) return answer({ sos_alarm_time: 5, sos_alarm_audio: '' });
      if (path === Api.alarmList.path || path === Api.alarmLight.path) return answer(snapshot);
      if (path === Api.alarmRead.path || path === Api.alarmReadAll.path) return answer({ count: 1 });
      return answer(null);
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is not shown without view on 10104 in dispatch mode, and loads nothing', async () => {
    await renderBell('/menu', { [MenuId.MONITOR_ALARM]: { view: 1 } });
    await act(async () => {});
    expect(screen.queryByTestId('alarm-bell')).toBeNull();
    expect(calls(Api.alarmList.path)).toHaveLength(0);
  });

  it('GB mode: needs 10154, reads alarmlight, view-all goes to AlarmHistory with alarmNavActive', async () => {
    await renderBell('/menu', { [MenuId.MONITOR_ALARM]: { view: 1 } }, true);
    await bellShows('2');
    expect(calls(Api.alarmLight.path)).toHaveLength(1);
    expect(calls(Api.alarmList.path)).toHaveLength(0);
    const panel = await openPanel();
    fireEvent.click(within(panel).getByTestId('alarm-bell-tab-normal'));
    fireEvent.click(within(panel).getByTestId('alarm-bell-view-all'));
    expect(screen.getByTestId('where').textContent).toBe('/monitor/alarm?alarmNavActive=2');
  });

  it('dispatch mode: counts per tab, a push goes on top unread, read sends {ids:[{id,eid}]}', async () => {
    await renderBell('/menu', { [MenuId.DISPATCH_ALARM]: { view: 1 } });
    await bellShows('2');
    push(alarm(7, 'criticle'));
    expect(screen.getByTestId('alarm-bell').dataset.count).toBe('3');
    const panel = await openPanel();
    expect(within(panel).getByTestId('alarm-bell-count-criticle').textContent).toBe('2');
    const rows = within(panel).getByTestId('alarm-bell-table-criticle').querySelectorAll('tr.ant-table-row');
    expect([...rows].map((r) => r.getAttribute('data-row-key'))).toEqual(['7', '1']);

    fireEvent.click(within(rows[0] as HTMLElement).getByTestId('alarm-bell-read'));
    await bellShows('2');
    expect(within(panel).getByTestId('alarm-bell-count-criticle').textContent).toBe('1');
    const [, init] = calls(Api.alarmRead.path)[0]!;
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ ids: [{ id: 7, eid: 'sos:7' }] });
  });

  it('mark-all-read: highlighted and effective with alarms, no request at 0', async () => {
    await renderBell('/menu', { [MenuId.DISPATCH_ALARM]: { view: 1 } });
    await bellShows('2');
    const panel = await openPanel();
    const readAll = within(panel).getByTestId('alarm-bell-read-all');
    expect(readAll.className).toContain('ant-btn-primary');
    fireEvent.click(readAll);
    await bellShows('0');
    expect(within(panel).getByTestId('alarm-bell-table-criticle').querySelectorAll('tr.ant-table-row')).toHaveLength(0);
    expect(within(panel).getByTestId('alarm-bell-table-criticle').textContent).toContain('No unread alarms');
    expect(readAll.className).not.toContain('ant-btn-primary');
    fireEvent.click(readAll);
    await act(async () => {});
    expect(calls(Api.alarmReadAll.path)).toHaveLength(1);
  });

  it('re-reads the snapshot after a push-channel reconnect', async () => {
    await renderBell('/menu', { [MenuId.DISPATCH_ALARM]: { view: 1 } });
    await bellShows('2');
    snapshot = { ...snapshot, count: { total: 5, criticle: 4, middle: 1, normal: 0 } };
    act(() => {
      for (const listener of channel.reconnect) listener();
    });
    await bellShows('5');
    expect(calls(Api.alarmList.path)).toHaveLength(2);
  });

  it.each([
    ['alarm-bell-see', false],
    ['alarm-bell-live', true],
  ])('elsewhere, %s navigates to Emergency with info and isLive %s', async (action, isLive) => {
    await renderBell('/menu', { [MenuId.DISPATCH_ALARM]: { view: 1 } });
    await bellShows('2');
    const panel = await openPanel();
    fireEvent.click(within(panel).getByTestId(action));
    expect(screen.getByTestId('where').textContent).toBe(`/dispatch/emergency info=1 isLive=${String(isLive)}`);
  });

  it('embedded on Emergency: events instead of navigation; a new critical alarm opens live; type 5 stops live', async () => {
    const opened: AlarmOpenRequest[] = [];
    const stopped: number[] = [];
    const offOpen = onBellEvent('open', (request) => opened.push(request));
    const offStop = onBellEvent('stopLive', (a) => stopped.push(a.id));
    try {
      await renderBell('/dispatch/emergency', { [MenuId.DISPATCH_ALARM]: { view: 1 } });
      await bellShows('2');
      push(alarm(8, 'middle'));
      expect(opened).toEqual([]);
      push(alarm(9, 'criticle'));
      // opened by its arrival (the page moves its map without a flight), not by the user
      expect(opened.map((r) => [r.info.id, r.isLive, r.automatic])).toEqual([[9, true, true]]);
      push(alarm(10, 'middle', { type: '5' }));
      expect(stopped).toEqual([10]);

      const panel = await openPanel();
      fireEvent.click(within(panel).getAllByTestId('alarm-bell-see')[0]!);
      expect(opened.map((r) => [r.info.id, r.isLive, r.automatic])).toEqual([
        [9, true, true],
        [9, false, undefined],
      ]);
      expect(screen.getByTestId('where').textContent).toBe('/dispatch/emergency');
    } finally {
      offOpen();
      offStop();
    }
  });
});
