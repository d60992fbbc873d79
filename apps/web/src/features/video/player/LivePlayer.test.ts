import type { LivePlay } from '@bwc/protocol';
import { ApiError } from '../../../api/http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  autoRetryDelay,
  catchUp,
  CONNECT_TIMEOUT_MS,
  STALL_RECONNECT_MS,
  STALL_SHOW_MS,
  LivePlayer,
  OFFLINE_RETRY_MS,
  reconnectDelay,
  RECONNECT_ATTEMPTS_MAX,
  socketUrl,
  type LivePlayerKind,
  type LivePlayerState,
  type MpegtsModule,
  type MpegtsPlayer,
} from './LivePlayer';

/** The websocket the player's loader opens; the test plays the server. */
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  binaryType = 'blob';
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  closedByClient = false;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  send(data: unknown) {
    this.onmessage?.({ data });
  }
  serverClose(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
  close() {
    this.closedByClient = true;
    this.readyState = 3;
    this.onclose?.({ code: 1005, reason: '' });
  }
}

/** mpegts.js as far as the facade uses it: the player opens the custom loader on load(). */
function fakeMpegts(options: { mse?: boolean } = {}) {
  const players: (MpegtsPlayer & {
    destroyed: boolean;
    emit: (event: string, ...args: unknown[]) => void;
    received: number;
    source: { type: string; hasAudio?: boolean };
  })[] = [];
  class BaseLoader {
    _status = 0;
    _needStash = true;
    onDataArrival: ((chunk: ArrayBuffer, start: number, received?: number) => void) | null = null;
    constructor(readonly type: string) {}
    destroy() {}
  }
  const module: MpegtsModule = {
    getFeatureList: () => ({ mseLivePlayback: options.mse ?? true }),
    BaseLoader,
    LoaderStatus: { kConnecting: 1, kBuffering: 2, kComplete: 4 },
    Events: { ERROR: 'error' },
    ErrorTypes: { NETWORK_ERROR: 'NetworkError', MEDIA_ERROR: 'MediaError' },
    createPlayer(source, config) {
      const Loader = (
        config as { customLoader: new () => BaseLoader & { open: (s: { url: string }) => void; abort: () => void } }
      ).customLoader;
      const listeners = new Map<string, ((...args: unknown[]) => void)[]>();
      let loader: (BaseLoader & { open: (s: { url: string }) => void; abort: () => void }) | null = null;
      const player = {
        source,
        destroyed: false,
        received: 0,
        mediaInfo: { width: 1280, height: 720, fps: 25 },
        statisticsInfo: { speed: 100 },
        attachMediaElement: () => undefined,
        detachMediaElement: () => undefined,
        load() {
          loader = new Loader();
          loader.onDataArrival = (chunk) => void (player.received += chunk.byteLength);
          loader.open({ url: source.url ?? '' });
        },
        unload() {
          loader?.abort();
        },
        play: () => Promise.resolve(),
        destroy() {
          player.destroyed = true;
          loader?.destroy();
        },
        on(event: string, listener: (...args: unknown[]) => void) {
          listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        },
        emit(event: string, ...args: unknown[]) {
          for (const listener of listeners.get(event) ?? []) listener(...args);
        },
      };
      players.push(player);
      return player;
    },
  };
  return { module, players };
}

const play = (token: string, state: LivePlay['state'] = 'live'): LivePlay => ({
  device_id: 7,
  imei: '860000000000007',
  hostbody: 'B007',
  hostname: 'Officer 7',
  state,
  flv: `/live/7.flv?token=${token}`,
  ws: `/live/7.flv?token=${token}`,
  expires: Date.now() + 60_000,
});

let requests: number;
let fake: ReturnType<typeof fakeMpegts>;
let video: HTMLVideoElement;
let seen: LivePlayerKind[];
let made: LivePlayer[];

function makePlayer(request?: () => Promise<LivePlay>) {
  const player = new LivePlayer({
    request: request ?? (() => Promise.resolve(play(`t${++requests}`))),
    lang: () => 'en-US',
    loadMpegts: () => Promise.resolve(fake.module),
  });
  player.subscribe((state) => seen.push(state.kind));
  made.push(player);
  return player;
}

/** lets the request and the lazy import resolve */
const settle = () => vi.advanceTimersByTimeAsync(0);
const lastSocket = () => FakeSocket.all[FakeSocket.all.length - 1]!;

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
  FakeSocket.all = [];
  requests = 0;
  fake = fakeMpegts();
  video = document.createElement('video');
  seen = [];
  made = [];
});
afterEach(() => {
  // a player left attached would still follow the page's visibility in the next test
  for (const player of made) player.destroy();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('LivePlayer', () => {
  it('requests a play, connects its ws path on this host with the language, plays on the first frame', async () => {
    const player = makePlayer();
    player.attach(video);
    expect(player.state.kind).toBe('requesting');
    await settle();
    expect(player.state).toEqual({ kind: 'connecting', starting: false });
    const socket = lastSocket();
    expect(socket.url).toBe(`ws://${location.host}/live/7.flv?token=t1&lang=en-US`);
    socket.open();
    socket.send(new ArrayBuffer(16));
    expect(fake.players[0]!.received).toBe(16);
    video.dispatchEvent(new Event('playing'));
    expect(player.state.kind).toBe('playing');
    player.destroy();
    expect(fake.players[0]!.destroyed).toBe(true);
    expect(socket.closedByClient).toBe(true);
  });

  it('tells the demuxer there is no audio only when asked (a video-only GB stream under a two-track FLV header)', async () => {
    makePlayer().attach(video);
    await settle();
    expect(fake.players[0]!.source.hasAudio).toBeUndefined();
    const videoOnly = new LivePlayer({
      request: () => Promise.resolve(play('t9')),
      lang: () => 'en-US',
      loadMpegts: () => Promise.resolve(fake.module),
      hasAudio: false,
    });
    made.push(videoOnly);
    videoOnly.attach(document.createElement('video'));
    await settle();
    expect(fake.players[1]!.source).toMatchObject({ type: 'flv', hasAudio: false });
  });

  it("follows the answer's hasAudio (GB28181's has_audio) over the option, for the demuxer and the mute tool", async () => {
    const withSound = new LivePlayer({
      request: () => Promise.resolve({ ...play('t10'), hasAudio: true }),
      lang: () => 'en-US',
      loadMpegts: () => Promise.resolve(fake.module),
      hasAudio: false,
    });
    made.push(withSound);
    // before the answer: the option
    expect(withSound.hasAudio).toBe(false);
    withSound.attach(document.createElement('video'));
    await settle();
    expect(withSound.hasAudio).toBe(true);
    expect(fake.players[0]!.source).toMatchObject({ type: 'flv', hasAudio: true });
    const silent = new LivePlayer({
      request: () => Promise.resolve({ ...play('t11'), hasAudio: false }),
      lang: () => 'en-US',
      loadMpegts: () => Promise.resolve(fake.module),
    });
    made.push(silent);
    expect(silent.hasAudio).toBe(true);
    silent.attach(document.createElement('video'));
    await settle();
    expect(silent.hasAudio).toBe(false);
    expect(fake.players[1]!.source).toMatchObject({ type: 'flv', hasAudio: false });
  });

  it('says the device is starting while the server holds the socket', async () => {
    const player = makePlayer(() => Promise.resolve(play('s', 'starting')));
    player.attach(video);
    await settle();
    expect(player.state).toEqual({ kind: 'connecting', starting: true });
  });

  it('a refusal: the server message is kept and the close code names the failure', async () => {
    const player = makePlayer();
    player.attach(video);
    await settle();
    lastSocket().send(JSON.stringify({ code: 403, msg: 'outside your units' }));
    lastSocket().serverClose(4403);
    expect(player.state).toEqual<LivePlayerState>({ kind: 'failed', reason: 'refused', detail: 'outside your units' });
    expect(fake.players[0]!.destroyed).toBe(true);
  });

  it('4404 right away is offline; 4404 after the start wait is a timeout', async () => {
    const player = makePlayer();
    player.attach(video);
    await settle();
    lastSocket().serverClose(4404);
    expect(player.state).toMatchObject({ kind: 'failed', reason: 'offline' });

    player.retry();
    await settle();
    await vi.advanceTimersByTimeAsync(15_000);
    lastSocket().serverClose(4404);
    expect(player.state).toMatchObject({ kind: 'failed', reason: 'timeout' });
  });

  it('a passing failure asks again by itself after 5, 10, 20, 30, 30 s until a picture; a refusal waits for the user', async () => {
    expect([1, 2, 3, 4, 5, 6].map(autoRetryDelay)).toEqual([5_000, 10_000, 20_000, 30_000, 30_000, 30_000]);
    const player = makePlayer();
    player.attach(video);
    await settle();
    // the camera is slow to start: the server gives up on it, and so on five times
    for (let retry = 1; retry <= 5; retry++) {
      await vi.advanceTimersByTimeAsync(15_000);
      lastSocket().serverClose(4404);
      const retryInMs = autoRetryDelay(retry);
      expect(player.state).toEqual({ kind: 'failed', reason: 'timeout', retryInMs });
      await vi.advanceTimersByTimeAsync(retryInMs - 1);
      expect(FakeSocket.all).toHaveLength(retry);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
      expect(FakeSocket.all).toHaveLength(retry + 1);
      expect(lastSocket().url).toContain(`token=t${retry + 1}`);
    }
    // then it plays: the next failure starts from 5 s again
    video.dispatchEvent(new Event('playing'));
    expect(player.state.kind).toBe('playing');
    fake.players.at(-1)!.emit('error', 'MediaError', 'MediaMSEError', { msg: 'bad frame' });
    expect(player.state).toEqual({ kind: 'failed', reason: 'media', detail: 'bad frame', retryInMs: 5_000 });
    // closing the view ends the waiting: nothing is asked after
    player.destroy();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(6);

    // a refusal is not asked again
    const refused = makePlayer();
    refused.attach(video);
    await settle();
    lastSocket().serverClose(4403);
    expect(refused.state).toEqual({ kind: 'failed', reason: 'refused' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(7);
  });

  it('the publisher ending is an end, not a failure; retry asks for a fresh play', async () => {
    const player = makePlayer();
    player.attach(video);
    await settle();
    lastSocket().serverClose(1000, 'ended');
    expect(player.state.kind).toBe('ended');
    player.retry();
    await settle();
    expect(lastSocket().url).toContain('token=t2');
  });

  it('a device gone offline is waited for: asked again every OFFLINE_RETRY_MS, refusals included, until it plays', async () => {
    let offline = false;
    const player = makePlayer(() =>
      offline ? Promise.reject(new Error('张三 不在线')) : Promise.resolve(play(`t${++requests}`)),
    );
    player.attach(video);
    await settle();
    video.dispatchEvent(new Event('playing'));
    offline = true;
    lastSocket().serverClose(1000, 'offline');
    expect(player.state).toEqual({ kind: 'failed', reason: 'offline', retryInMs: OFFLINE_RETRY_MS });
    await vi.advanceTimersByTimeAsync(OFFLINE_RETRY_MS);
    await settle();
    // still offline: the server's refusal is shown and it keeps asking
    expect(player.state).toEqual({
      kind: 'failed',
      reason: 'offline',
      detail: '张三 不在线',
      retryInMs: OFFLINE_RETRY_MS,
    });
    offline = false;
    await vi.advanceTimersByTimeAsync(OFFLINE_RETRY_MS);
    await settle();
    expect(player.state).toEqual({ kind: 'connecting', starting: false });
    video.dispatchEvent(new Event('playing'));
    expect(player.state.kind).toBe('playing');
    // played again: a later refusal is a plain failure, no more waiting
    offline = true;
    player.retry();
    await settle();
    expect(player.state).toMatchObject({ kind: 'failed', reason: 'request' });
  });

  it('reconnects with a fresh token after 1, 2, 4, 8, 8 s and then fails, to be asked again later', async () => {
    expect([1, 2, 3, 4, 5, 6].map(reconnectDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    const player = makePlayer();
    player.attach(video);
    await settle();
    for (let attempt = 1; attempt <= RECONNECT_ATTEMPTS_MAX; attempt++) {
      lastSocket().serverClose(1006);
      const delayMs = reconnectDelay(attempt);
      expect(player.state).toEqual({ kind: 'reconnecting', attempt, delayMs });
      await vi.advanceTimersByTimeAsync(delayMs - 1);
      expect(FakeSocket.all).toHaveLength(attempt);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
      expect(FakeSocket.all).toHaveLength(attempt + 1);
      expect(lastSocket().url).toContain(`token=t${attempt + 1}`);
    }
    lastSocket().serverClose(1006);
    expect(player.state).toEqual({ kind: 'failed', reason: 'network', retryInMs: autoRetryDelay(1) });
  });

  it('a picture resets the attempts; an expired token reconnects at once with 1 s', async () => {
    const player = makePlayer();
    player.attach(video);
    await settle();
    lastSocket().serverClose(1006);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    video.dispatchEvent(new Event('playing'));
    lastSocket().serverClose(4401);
    expect(player.state).toEqual({ kind: 'reconnecting', attempt: 1, delayMs: 1_000 });
  });

  it("shows 'stalled' only for a picture frozen STALL_SHOW_MS, not at the element's every 'waiting'", async () => {
    const player = makePlayer();
    player.attach(video);
    await settle();
    let time = 10;
    Object.defineProperty(video, 'currentTime', { get: () => time, set: (v: number) => (time = v) });
    video.dispatchEvent(new Event('playing'));
    // a late frame: the element waits, which alone shows nothing; the next tick sees the playhead move
    video.dispatchEvent(new Event('waiting'));
    expect(player.state.kind).toBe('playing');
    time += 0.4;
    await vi.advanceTimersByTimeAsync(500);
    expect(player.state.kind).toBe('playing');
    // frozen from that tick on: 'stalled' once STALL_SHOW_MS passed, 'playing' again when it moves
    await vi.advanceTimersByTimeAsync(STALL_SHOW_MS - 500);
    expect(player.state.kind).toBe('playing');
    await vi.advanceTimersByTimeAsync(500);
    expect(player.state.kind).toBe('stalled');
    time += 0.5;
    await vi.advanceTimersByTimeAsync(500);
    expect(player.state.kind).toBe('playing');
    expect(requests).toBe(1);
  });

  it('a player far behind live jumps to the edge, not again within 3 s nor while the seek runs', async () => {
    const player = makePlayer();
    player.attach(video);
    await settle();
    // the picture moves 0.5 s per tick while the buffer ends 2 s ahead of it: always too far behind
    let time = 10;
    let seeking = false;
    const jumps: number[] = [];
    Object.defineProperty(video, 'currentTime', {
      get: () => time,
      set: (v: number) => {
        time = v;
        jumps.push(v);
      },
    });
    Object.defineProperty(video, 'buffered', { get: () => ({ length: 1, start: () => 0, end: () => time + 2 }) });
    Object.defineProperty(video, 'paused', { get: () => false });
    Object.defineProperty(video, 'seeking', { get: () => seeking });
    video.dispatchEvent(new Event('playing'));
    const tick = async () => {
      time += 0.5;
      await vi.advanceTimersByTimeAsync(500);
    };
    await tick();
    expect(jumps).toHaveLength(1);
    expect(video.playbackRate).toBe(1);
    // the next 2.5 s: faster, no jump
    for (let i = 0; i < 5; i++) await tick();
    expect(jumps).toHaveLength(1);
    expect(video.playbackRate).toBe(1.1);
    // 3 s after the jump, but the browser still seeks: no jump yet; done seeking, the next one
    seeking = true;
    await tick();
    await tick();
    expect(jumps).toHaveLength(1);
    seeking = false;
    await tick();
    expect(jumps).toHaveLength(2);
    expect(player.state.kind).toBe('playing');
  });

  it('a frozen picture reconnects after STALL_RECONNECT_MS, but not while held (a paused playback)', async () => {
    const held = makePlayer();
    held.attach(video);
    await settle();
    video.dispatchEvent(new Event('playing'));
    held.hold(true);
    video.dispatchEvent(new Event('waiting'));
    await vi.advanceTimersByTimeAsync(STALL_RECONNECT_MS * 3);
    expect(held.state).toEqual({ kind: 'playing' });
    expect(requests).toBe(1);
    // released: the watchdog counts from the release
    held.hold(false);
    await vi.advanceTimersByTimeAsync(STALL_SHOW_MS - 500);
    expect(held.state).toEqual({ kind: 'playing' });
    await vi.advanceTimersByTimeAsync(STALL_RECONNECT_MS - STALL_SHOW_MS - 500);
    expect(held.state).toEqual({ kind: 'stalled' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(held.state).toMatchObject({ kind: 'reconnecting' });
  });

  it('a request refused by the server fails with its message', async () => {
    const player = makePlayer(() => Promise.reject(new Error('device offline')));
    player.attach(video);
    await settle();
    expect(player.state).toEqual({ kind: 'failed', reason: 'request', detail: 'device offline' });
    expect(FakeSocket.all).toHaveLength(0);
  });

  it('a request that got no answer or a 5xx is asked again by itself; a refused one is not', async () => {
    const failures = [new ApiError(0, 'network down', 0), new ApiError(500, 'bad gateway', 502)];
    const player = makePlayer(() => {
      const failure = failures.shift();
      return failure ? Promise.reject(failure) : Promise.resolve(play(`t${++requests}`));
    });
    player.attach(video);
    await settle();
    expect(player.state).toEqual({ kind: 'failed', reason: 'request', detail: 'network down', retryInMs: 5_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    await settle();
    expect(player.state).toEqual({ kind: 'failed', reason: 'request', detail: 'bad gateway', retryInMs: 10_000 });
    await vi.advanceTimersByTimeAsync(10_000);
    await settle();
    expect(player.state).toEqual({ kind: 'connecting', starting: false });

    const refused = makePlayer(() => Promise.reject(new ApiError(404, 'no such device', 200)));
    refused.attach(video);
    await settle();
    expect(refused.state).toEqual({ kind: 'failed', reason: 'request', detail: 'no such device' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refused.state).toEqual({ kind: 'failed', reason: 'request', detail: 'no such device' });
  });

  it('without MSE live playback it says the browser is unsupported', async () => {
    fake = fakeMpegts({ mse: false });
    const player = makePlayer();
    player.attach(video);
    await settle();
    expect(player.state).toMatchObject({ kind: 'failed', reason: 'unsupported' });
  });

  it('a decoding error fails as media', async () => {
    const player = makePlayer();
    player.attach(video);
    await settle();
    fake.players[0]!.emit('error', 'MediaError', 'MediaMSEError', { msg: 'bad frame' });
    expect(player.state).toEqual({
      kind: 'failed',
      reason: 'media',
      detail: 'bad frame',
      retryInMs: autoRetryDelay(1),
    });
  });

  it('times out when the server never answers on the socket', async () => {
    const player = makePlayer();
    player.attach(video);
    await settle();
    await vi.advanceTimersByTimeAsync(CONNECT_TIMEOUT_MS + 1_000);
    expect(player.state).toMatchObject({ kind: 'failed', reason: 'timeout' });
  });

  it('a background tab releases the stream and a visible one asks again', async () => {
    let hidden = false;
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => (hidden ? 'hidden' : 'visible'));
    const player = makePlayer();
    player.attach(video);
    await settle();
    video.dispatchEvent(new Event('playing'));
    hidden = true;
    document.dispatchEvent(new Event('visibilitychange'));
    expect(player.state.kind).toBe('paused');
    expect(fake.players[0]!.destroyed).toBe(true);
    hidden = false;
    document.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(player.state.kind).toBe('connecting');
    expect(lastSocket().url).toContain('token=t2');
    expect(seen).toEqual(['requesting', 'connecting', 'playing', 'paused', 'requesting', 'connecting']);
  });
});

describe('catchUp and socketUrl', () => {
  it('jumps to the edge beyond 0.8 s, plays faster beyond 0.35 s, else normal', () => {
    expect(catchUp(3, Infinity)).toEqual({ seekBack: 0.25, rate: 1 });
    expect(catchUp(0.9, 3)).toEqual({ seekBack: 0.25, rate: 1 });
    expect(catchUp(0.6, Infinity)).toEqual({ seekBack: null, rate: 1.1 });
    expect(catchUp(0.3, Infinity)).toEqual({ seekBack: null, rate: 1 });
  });

  it('jumps at most once per chaseEveryS: in between it plays faster', () => {
    expect(catchUp(3, 2.9)).toEqual({ seekBack: null, rate: 1.1 });
    expect(catchUp(0.9, 0)).toEqual({ seekBack: null, rate: 1.1 });
  });

  it('uses wss on an https page', () => {
    expect(socketUrl('/live/1.flv?token=a', 'zh-CN', { protocol: 'https:', host: 'bwc.example:8443' })).toBe(
      'wss://bwc.example:8443/live/1.flv?token=a&lang=zh-CN',
    );
  });
});
