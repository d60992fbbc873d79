import { HeartbeatState, SESSION_HEARTBEAT_MS } from '@bwc/protocol';
import { useEffect } from 'react';
import { call } from '../../api/http';
import { navigateTo } from '../../api/navigation';
import { notify } from '../../api/notify';
import { clearSession } from '../../api/session';
import { i18next } from '../../i18n';
import { useSessionStore } from './store';

/** Ends a session the server says is gone (second login elsewhere): spec part 1 section 4. */
export function forceOffline(): void {
  useSessionStore.getState().setAlive(false);
  notify.warning(i18next.t('common:session.forcedOffline'), 'session');
  clearSession();
  navigateTo('/login', { replace: true });
}

/**
 * Session heartbeat: create once, then check every SESSION_HEARTBEAT_MS.
 * success -> alive; error -> try again next tick; fail -> stop, forced-offline message, Login.
 * A failed create is only logged (spec part 1 section 8).
 */
export function useSessionKeeper(): void {
  useEffect(() => {
    let stopped = false;
    const stop = () => {
      stopped = true;
      clearInterval(timer);
    };
    const check = async () => {
      try {
        const { state } = await call('heartbeatCheck', undefined, { silent: true });
        if (stopped) return;
        if (state === HeartbeatState.SUCCESS) useSessionStore.getState().setAlive(true);
        else if (state === HeartbeatState.FAIL) {
          stop();
          forceOffline();
        }
      } catch (error) {
        // network trouble or a 401 (already handled by the http layer): try again next tick
        if (!stopped) console.warn('heartbeat check failed', error);
      }
    };
    call('heartbeatCreate', undefined, { silent: true })
      .then(({ state }) => {
        if (!stopped && state === HeartbeatState.SUCCESS) useSessionStore.getState().setAlive(true);
      })
      .catch((error: unknown) => console.warn('heartbeat create failed', error));
    const timer = setInterval(() => void check(), SESSION_HEARTBEAT_MS);
    return stop;
  }, []);
}
