import { SESSION_WS_CLOSE_UNAUTHORISED } from '@bwc/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PING_MS, PushChannel, RECONNECT_FIRST_MS, socketUrl, type PushLogin, type PushSocket } from './pushChannel';

class FakeSocket implements PushSocket {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: PushSocket['onopen'] = null;
  onmessage: PushSocket['onmessage'] = null;
  onclose: PushSocket['onclose'] = null;
  onerror: PushSocket['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  // server side of the test
  accept() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const LOGIN: PushLogin = {
  wsurl: 'ws://console.test/ws/session',
  logincode: 'abc',
  username: 'dispatcher',
  scode: 's',
  cate: '1',
};
const SITE = {
  type: 'site_data',
  data: [
    {
      device_id: 7,
      hostbody: 'HB7',
      hostname: 'Officer 7',
      unit_id: 1,
      lng: 114.05,
      lat: 22.54,
      speed: 3,
      course: 90,
      battery: 80,
      time: '2026-11-21T10:00:00.000Z',
      lineon: 1,
    },
  ],
};

describe('PushChannel', () => {
  let sockets: FakeSocket[];
  let channel: PushChannel;
  const last = () => sockets[sockets.length - 1]!;

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    channel = new PushChannel((url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    });
  });
  afterEach(() => {
    channel.stop();
    vi.useRealTimers();
  });

  it('sends client_login with the user info values when the socket opens', () => {
    channel.start(LOGIN);
    expect(last().url).toBe(LOGIN.wsurl);
    last().accept();
    expect(last().sent).toEqual([
      { cmd: 'client_login', logincode: 'abc', username: 'dispatcher', scode: 's', cate: '1' },
    ]);
    expect(channel.state).toBe('connecting');
    last().receive({ cmd: 'client_login', code: 200, msg: 'ok' });
    expect(channel.state).toBe('open');
  });

  it('hands valid pushes to the listeners of their kind only, and drops malformed ones', () => {
    const sites = vi.fn();
    const alarms = vi.fn();
    channel.subscribe('site_data', sites);
    channel.subscribe('alarm_data', alarms);
    channel.start(LOGIN);
    last().accept();
    last().receive({ cmd: 'client_login', code: 200, msg: 'ok' });
    last().receive(SITE);
    last().receive({ type: 'site_data', data: [{ device_id: 'x' }] });
    last().receive({ cmd: 'pong', time: 1 });
    expect(sites).toHaveBeenCalledTimes(1);
    expect(sites.mock.calls[0]![0]).toEqual(SITE);
    expect(alarms).not.toHaveBeenCalled();
  });

  it('unsubscribes', () => {
    const sites = vi.fn();
    const off = channel.subscribe('site_data', sites);
    off();
    expect(channel.dispatch(SITE)).toBe(true);
    expect(sites).not.toHaveBeenCalled();
  });

  it('reconnects after a drop with a growing delay and runs the reconnect listeners after each login', () => {
    const reconnect = vi.fn();
    channel.onReconnect(reconnect);
    channel.start(LOGIN);
    last().accept();
    last().receive({ cmd: 'client_login', code: 200, msg: 'ok' });
    expect(reconnect).toHaveBeenCalledTimes(1);

    last().drop();
    expect(channel.state).toBe('connecting');
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(RECONNECT_FIRST_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    // the second attempt fails too: the next delay is twice as long
    last().drop();
    vi.advanceTimersByTime(2 * RECONNECT_FIRST_MS - 1);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    last().accept();
    last().receive({ cmd: 'client_login', code: 200, msg: 'ok' });
    expect(reconnect).toHaveBeenCalledTimes(2);
    // a successful login resets the delay
    last().drop();
    vi.advanceTimersByTime(RECONNECT_FIRST_MS);
    expect(sockets).toHaveLength(4);
  });

  it('does not reconnect after a 4401 close or a refused client_login', () => {
    channel.start(LOGIN);
    last().accept();
    last().drop(SESSION_WS_CLOSE_UNAUTHORISED);
    expect(channel.state).toBe('closed');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);

    channel.start(LOGIN);
    expect(sockets).toHaveLength(2);
    last().accept();
    last().receive({ cmd: 'client_login', code: 401, msg: 'log in again' });
    last().drop(1000);
    expect(channel.state).toBe('closed');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(2);
  });

  it('pings while open and drops a socket that stays silent for two pings', () => {
    channel.start(LOGIN);
    last().accept();
    last().receive({ cmd: 'client_login', code: 200, msg: 'ok' });
    vi.advanceTimersByTime(PING_MS);
    expect(last().sent).toContainEqual({ cmd: 'ping' });
    last().receive({ cmd: 'pong', time: 1 });
    vi.advanceTimersByTime(2 * PING_MS);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(PING_MS + RECONNECT_FIRST_MS);
    expect(sockets).toHaveLength(2);
  });

  describe('reconnects at once when the connection is likely back', () => {
    let visibility: DocumentVisibilityState;
    beforeEach(() => {
      visibility = 'hidden';
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    });
    afterEach(() => {
      Reflect.deleteProperty(document, 'visibilityState');
    });
    const showTab = () => {
      visibility = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
    };
    const opened = () => {
      channel.start(LOGIN);
      last().accept();
      last().receive({ cmd: 'client_login', code: 200, msg: 'ok' });
    };
    const dropped = () => {
      opened();
      last().drop();
      expect(channel.state).toBe('connecting');
      expect(sockets).toHaveLength(1);
    };

    it('on online, without waiting for the backoff delay', () => {
      dropped();
      window.dispatchEvent(new Event('online'));
      expect(sockets).toHaveLength(2);
      // the delay that was waiting does not open a third socket
      vi.advanceTimersByTime(RECONNECT_FIRST_MS);
      expect(sockets).toHaveLength(2);
    });

    it('when the tab becomes visible, not when it is hidden', () => {
      dropped();
      document.dispatchEvent(new Event('visibilitychange'));
      expect(sockets).toHaveLength(1);
      showTab();
      expect(sockets).toHaveLength(2);
      last().accept();
      last().receive({ cmd: 'client_login', code: 200, msg: 'ok' });
      expect(channel.state).toBe('open');
    });

    it('keeps the growing delay when the early attempt fails too', () => {
      dropped();
      window.dispatchEvent(new Event('online'));
      last().drop();
      vi.advanceTimersByTime(2 * RECONNECT_FIRST_MS - 1);
      expect(sockets).toHaveLength(2);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(3);
    });

    it('leaves an open channel, a closed session and a stopped channel alone', () => {
      opened();
      window.dispatchEvent(new Event('online'));
      showTab();
      expect(sockets).toHaveLength(1);

      last().drop(SESSION_WS_CLOSE_UNAUTHORISED);
      window.dispatchEvent(new Event('online'));
      expect(sockets).toHaveLength(1);

      channel.start(LOGIN);
      last().drop();
      channel.stop();
      window.dispatchEvent(new Event('online'));
      showTab();
      vi.advanceTimersByTime(60_000);
      expect(sockets).toHaveLength(2);
    });
  });

  it('stop closes the socket and never reconnects', () => {
    channel.start(LOGIN);
    const first = last();
    first.accept();
    channel.stop();
    expect(first.closedWith).toBe(1000);
    expect(channel.state).toBe('idle');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('keeps an open channel when started again with the same login', () => {
    channel.start(LOGIN);
    channel.start({ ...LOGIN });
    expect(sockets).toHaveLength(1);
    channel.start({ ...LOGIN, logincode: 'other' });
    expect(sockets).toHaveLength(2);
  });

  it('sends the site filter when open and again after every login; back to every device with null', () => {
    channel.start(LOGIN);
    // set before the login: held until it succeeds
    channel.setSiteFilter({ view: 'none', ids: [3] });
    last().accept();
    expect(last().sent).toHaveLength(1);
    last().receive({ cmd: 'client_login', code: 200, msg: 'ok' });
    expect(last().sent.at(-1)).toEqual({ cmd: 'site_filter', view: 'none', ids: [3] });
    // the server's answer is no push and reaches no listener
    last().receive({ cmd: 'site_filter', code: 200, msg: 'ok' });
    expect(channel.state).toBe('open');

    channel.setSiteFilter({ view: [114, 22, 115, 23], ids: [] });
    expect(last().sent.at(-1)).toEqual({ cmd: 'site_filter', view: [114, 22, 115, 23], ids: [] });
    // the same filter again: nothing sent
    const count = last().sent.length;
    channel.setSiteFilter({ view: [114, 22, 115, 23], ids: [] });
    expect(last().sent).toHaveLength(count);

    // a reconnected socket starts with every device on the server: the filter goes again
    last().drop();
    vi.advanceTimersByTime(RECONNECT_FIRST_MS);
    last().accept();
    last().receive({ cmd: 'client_login', code: 200, msg: 'ok' });
    expect(last().sent.at(-1)).toEqual({ cmd: 'site_filter', view: [114, 22, 115, 23], ids: [] });

    channel.setSiteFilter(null);
    expect(last().sent.at(-1)).toEqual({ cmd: 'site_filter', view: 'all', ids: [] });
  });
});

describe('PushChannel language', () => {
  it('opens the socket in the console language and reconnects in the new one after a switch', () => {
    const sockets: FakeSocket[] = [];
    const channel = new PushChannel((url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    });
    channel.start({ ...LOGIN, lang: 'en-US' });
    expect(sockets.map((x) => x.url)).toEqual(['ws://console.test/ws/session?lang=en-US']);
    sockets[0]!.accept();
    channel.start({ ...LOGIN, lang: 'zh-CN' });
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(sockets.map((x) => x.url)).toEqual([
      'ws://console.test/ws/session?lang=en-US',
      'ws://console.test/ws/session?lang=zh-CN',
    ]);
    sockets[1]!.accept();
    expect(sockets[1]!.sent[0]).toMatchObject({ cmd: 'client_login', logincode: 'abc' });
    channel.stop();
  });
});

describe('socketUrl', () => {
  it('uses an absolute wsurl as given and builds a relative one from the page origin', () => {
    expect(socketUrl('ws://a:1/ws/session', { protocol: 'http:', host: 'b:2' })).toBe('ws://a:1/ws/session');
    expect(socketUrl('/ws/session', { protocol: 'https:', host: 'b:2' })).toBe('wss://b:2/ws/session');
    expect(socketUrl('', { protocol: 'http:', host: 'b:2' })).toBe('ws://b:2/ws/session');
  });

  it('asks for the console language', () => {
    expect(socketUrl('/ws/session', { protocol: 'http:', host: 'b:2' }, 'en-US')).toBe(
      'ws://b:2/ws/session?lang=en-US',
    );
    expect(socketUrl('ws://a:1/ws/session?x=1', { protocol: 'http:', host: 'b:2' }, 'zh-CN')).toBe(
      'ws://a:1/ws/session?x=1&lang=zh-CN',
    );
  });
});
