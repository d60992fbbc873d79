import { SESSION_HEARTBEAT_MS } from '@bwc/protocol';
import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setNavigator } from '../../api/navigation';
import { notify } from '../../api/notify';
import { isLoggedIn, markLoggedIn } from '../../api/session';
import { setLanguage } from '../../i18n';
import { useSessionStore } from './store';
import { useSessionKeeper } from './useSessionKeeper';

describe('session heartbeat', () => {
  const navigate = vi.fn();
  let states: string[];
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(async () => {
    await setLanguage('en-US');
    vi.useFakeTimers();
    navigate.mockReset();
    setNavigator(navigate);
    vi.spyOn(notify, 'warning').mockImplementation(() => undefined);
    markLoggedIn({ username: 'admin', ifadmin: 1 });
    fetchMock = vi.fn(async (url: string) => {
      const state = url.endsWith('/create') ? 'success' : (states.shift() ?? 'success');
      return new Response(JSON.stringify({ code: 200, msg: '', data: { state } }), {
        headers: { 'content-type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('creates, checks every SESSION_HEARTBEAT_MS, keeps going on error and stops on fail', async () => {
    states = ['success', 'error', 'fail'];
    renderHook(() => useSessionKeeper());
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(['/rest/index/heartbeat/create']);
    expect(useSessionStore.getState().alive).toBe(true);

    await vi.advanceTimersByTimeAsync(SESSION_HEARTBEAT_MS * 2);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(navigate).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(SESSION_HEARTBEAT_MS);
    expect(notify.warning).toHaveBeenCalledWith(
      'The account is logged in elsewhere and the user was forced offline',
      'session',
    );
    expect(useSessionStore.getState().alive).toBe(false);
    expect(isLoggedIn()).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });

    await vi.advanceTimersByTimeAsync(SESSION_HEARTBEAT_MS * 3);
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });
});
