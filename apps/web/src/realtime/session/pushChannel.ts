import {
  SESSION_WS_CLOSE_UNAUTHORISED,
  SESSION_WS_PATH,
  SESSION_WS_PING_MS,
  SessionPush,
  SessionReply,
  DEFAULT_LANGUAGE,
  type Language,
  type PushKind,
  type SiteFilter,
  type UserInfo,
} from '@bwc/protocol';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { onSessionCleared } from '../../api/session';
import { isLanguage } from '../../i18n';
import { useUserInfo } from '../../app/session/queries';
import { onConnectivityRegained, type RealtimeSocket } from '../connectivity';

/**
 * Session push channel client (spec part 1 section 7; protocol schemas/realtime-session.ts).
 *
 * One websocket per console tab at user info's `wsurl`: on open it sends `client_login`
 * (logincode, username, scode, cate); pushes (`alarm_data`, `site_data`, `device_data`,
 * `face_data`, `plate_data`) are validated with the protocol's `SessionPush` schema and handed to
 * the listeners of their kind. A ping goes out every PING_MS; a socket that hears nothing for two
 * pings is dropped. A dropped socket is reopened with a growing delay (1 s doubling to 30 s), or
 * at once when the browser comes back online or the tab becomes visible again (the wait was for a
 * network or a sleeping machine that is back); a socket closed with 4401 or a refused
 * client_login is not reopened (the session is gone: the heartbeat and the http layer take the
 * user to Login).
 *
 * After every successful client_login (the first one included, which closes the gap between a
 * page's first read and the socket's login) the reconnect listeners run: pages re-read their
 * snapshot (the alarm list, the map's points), then apply pushes as deltas.
 */

export type PushMessage<K extends PushKind> = Extract<SessionPush, { type: K }>;
type AnyListener = (message: SessionPush) => void;

export type PushChannelState = 'idle' | 'connecting' | 'open' | 'closed';

/** What the client needs of a websocket (shared with the other realtime client). */
export type PushSocket = RealtimeSocket;

export interface PushLogin {
  wsurl: string;
  logincode: string;
  username: string;
  scode: string;
  cate: string;
  /** the console's language: pushed texts (alarm type names, ...) come in it */
  lang?: Language;
}

const OPEN = 1;
/** client ping interval (the server also pings at the websocket level every SESSION_WS_PING_MS) */
export const PING_MS = Math.min(20_000, SESSION_WS_PING_MS);
export const RECONNECT_FIRST_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/**
 * The websocket address: user info's wsurl; a relative or empty one is taken from this page's
 * origin. `lang` asks the server for pushes in the console's language.
 */
export function socketUrl(wsurl: string, location: { protocol: string; host: string }, lang?: Language): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const path = wsurl && wsurl.startsWith('/') ? wsurl : SESSION_WS_PATH;
  const url = /^wss?:\/\//i.test(wsurl) ? wsurl : `${scheme}//${location.host}${path}`;
  return lang ? `${url}${url.includes('?') ? '&' : '?'}lang=${encodeURIComponent(lang)}` : url;
}

export class PushChannel {
  private readonly listeners = new Map<PushKind, Set<AnyListener>>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly stateListeners = new Set<() => void>();
  private socket: PushSocket | null = null;
  private login: PushLogin | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private attempts = 0;
  private lastHeard = 0;
  private current: PushChannelState = 'idle';
  private unwatch: (() => void) | null = null;
  private sites: Omit<SiteFilter, 'cmd'> | null = null;

  /**
   * `watchConnectivity` calls back when a waiting reconnect should happen now (by default the
   * browser's `online` and `visibilitychange` events).
   */
  constructor(
    private readonly createSocket: (url: string) => PushSocket,
    private readonly watchConnectivity: (wake: () => void) => () => void = onConnectivityRegained,
  ) {}

  get state(): PushChannelState {
    return this.current;
  }

  subscribe<K extends PushKind>(kind: K, listener: (message: PushMessage<K>) => void): () => void {
    let set = this.listeners.get(kind);
    if (!set) this.listeners.set(kind, (set = new Set()));
    const wrapped = listener as AnyListener;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  onState(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /**
   * Which devices' position changes (site_data) to receive: sent now when the channel is open
   * and again after every client_login (a reconnected socket starts with every device). null:
   * every device (the default).
   */
  setSiteFilter(filter: Omit<SiteFilter, 'cmd'> | null): void {
    const same = JSON.stringify(filter) === JSON.stringify(this.sites);
    this.sites = filter;
    if (!same && this.current === 'open') this.sendSiteFilter();
  }

  private sendSiteFilter(): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return;
    const filter = this.sites ?? { view: 'all', ids: [] };
    socket.send(JSON.stringify({ cmd: 'site_filter', view: filter.view, ids: filter.ids }));
  }

  /** Open the channel for this login (again); an open channel for the same login is kept. */
  start(login: PushLogin): void {
    const same = this.login && JSON.stringify(this.login) === JSON.stringify(login);
    if (same && this.current !== 'closed' && this.current !== 'idle') return;
    this.stop();
    this.login = login;
    this.attempts = 0;
    this.unwatch = this.watchConnectivity(() => this.reconnectNow());
    this.open();
  }

  /** Close for good (logout, unmount): no reconnect. */
  stop(): void {
    this.login = null;
    this.unwatch?.();
    this.unwatch = null;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      try {
        socket.close(1000);
      } catch {
        // already closed
      }
    }
    this.setState('idle');
  }

  /** Validate one received frame and hand it to its listeners; false when it is not a push. */
  dispatch(raw: unknown): boolean {
    const parsed = SessionPush.safeParse(raw);
    if (!parsed.success) return false;
    for (const listener of this.listeners.get(parsed.data.type) ?? []) {
      try {
        listener(parsed.data);
      } catch (error) {
        console.error('push listener failed', error);
      }
    }
    return true;
  }

  private open(): void {
    const login = this.login;
    if (!login) return;
    this.setState('connecting');
    let socket: PushSocket;
    try {
      socket = this.createSocket(
        socketUrl(login.wsurl, globalThis.location ?? { protocol: 'http:', host: 'localhost' }, login.lang),
      );
    } catch (error) {
      console.warn('push channel: cannot open the socket', error);
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.lastHeard = Date.now();
      socket.send(
        JSON.stringify({
          cmd: 'client_login',
          logincode: login.logincode,
          username: login.username,
          scode: login.scode,
          cate: login.cate,
        }),
      );
    };
    socket.onmessage = (event) => this.receive(socket, event.data);
    socket.onerror = () => undefined; // onclose follows and decides
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearTimers();
      if (event.code === SESSION_WS_CLOSE_UNAUTHORISED) {
        this.login = null;
        this.setState('closed');
        return;
      }
      this.retry();
    };
  }

  private receive(socket: PushSocket, data: unknown): void {
    this.lastHeard = Date.now();
    let message: unknown;
    try {
      message = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return;
    }
    const reply = SessionReply.safeParse(message);
    if (reply.success) {
      if (reply.data.cmd !== 'client_login') return;
      if (reply.data.code !== 200) {
        // refused: the session is gone or not allowed; the server closes the socket (4401)
        this.login = null;
        this.setState('closed');
        return;
      }
      this.attempts = 0;
      this.setState('open');
      if (this.sites) this.sendSiteFilter();
      this.startPing(socket);
      for (const listener of this.reconnectListeners) {
        try {
          listener();
        } catch (error) {
          console.error('push reconnect listener failed', error);
        }
      }
      return;
    }
    this.dispatch(message);
  }

  private startPing(socket: PushSocket): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (this.socket !== socket) return;
      if (Date.now() - this.lastHeard > 2 * PING_MS) {
        // nothing heard for two pings: the connection is dead even if the socket does not know it yet
        socket.onclose?.({ code: 1006 });
        try {
          socket.close();
        } catch {
          // ignore
        }
        return;
      }
      if (socket.readyState === OPEN) socket.send(JSON.stringify({ cmd: 'ping' }));
    }, PING_MS);
  }

  private retry(): void {
    if (!this.login) return;
    this.setState('connecting');
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** this.attempts);
    this.attempts++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
  }

  /** A reconnect that waits for its delay happens now (the delay keeps growing if it fails again). */
  private reconnectNow(): void {
    if (!this.login || !this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.open();
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.retryTimer = null;
    this.pingTimer = null;
  }

  private setState(state: PushChannelState): void {
    if (this.current === state) return;
    this.current = state;
    for (const listener of this.stateListeners) listener();
  }
}

/** The console's one channel. */
export const pushChannel = new PushChannel((url) => new WebSocket(url) as unknown as PushSocket);
onSessionCleared(() => pushChannel.stop());

export function subscribePush<K extends PushKind>(kind: K, listener: (message: PushMessage<K>) => void): () => void {
  return pushChannel.subscribe(kind, listener);
}

export function onPushReconnect(listener: () => void): () => void {
  return pushChannel.onReconnect(listener);
}

/** React: listen to one push kind while mounted (the listener is kept in a ref). */
export function usePush<K extends PushKind>(kind: K, listener: (message: PushMessage<K>) => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => pushChannel.subscribe(kind, (message) => ref.current(message)), [kind]);
}

/** React: run after every successful client_login while mounted (re-read snapshots). */
export function usePushReconnect(listener: () => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => pushChannel.onReconnect(() => ref.current()), []);
}

export function loginOf(info: UserInfo, lang?: Language): PushLogin {
  return {
    wsurl: info.wsurl,
    logincode: info.logincode,
    username: info.username,
    scode: info.scode,
    cate: info.auth_cate,
    ...(lang ? { lang } : {}),
  };
}

/**
 * Mounted once by the shell: keeps the channel open while the user info is known, in the
 * console's language (a language switch reconnects, and the pages re-read their lists).
 */
export function usePushChannel(): void {
  const { data: info } = useUserInfo();
  const { i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const login = info ? loginOf(info, lang) : null;
  const key = login ? JSON.stringify(login) : '';
  useEffect(() => {
    if (!key) return;
    pushChannel.start(JSON.parse(key) as PushLogin);
    return () => pushChannel.stop();
  }, [key]);
}
