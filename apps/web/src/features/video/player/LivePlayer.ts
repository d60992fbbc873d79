import { LIVE_START_WAIT_MS, type LivePlay } from '@bwc/protocol';
import { ApiError } from '../../../api/http';
import { catchUp, LIVE_CATCH_UP, MPEGTS_LIVE_CONFIG } from './catchUp';

/**
 * The console's one live player (WS-FLV through mpegts.js, issue 13). Everything else talks to this
 * facade: mpegts.js is imported here only, and lazily, so that it stays out of the first-load bundle
 * (bench/bundle-size.ts) and loads with the first live picture.
 *
 * The facade owns the websocket (a custom mpegts loader) because the server speaks on it: a refusal
 * is one JSON text message `{code, msg}` followed by close code 4000 + HTTP status, and the end of
 * the publisher is a normal close. mpegts' own loader drops both.
 */

/** Why a live view failed; each has its message in the `video` catalogue (`FAILURE_KEYS` in liveSource.ts). */
export type LiveFailure =
  /** the device is offline or did not start publishing (close 4404) */
  | 'offline'
  /** the server refused the viewer (close 4403: out of the user's unit scope) */
  | 'refused'
  /** the play token was refused again after a fresh one was asked for (close 4401) */
  | 'token'
  /** the device was told to publish but nothing came */
  | 'timeout'
  /** the connection kept failing after the reconnect attempts */
  | 'network'
  /** the stream could not be decoded */
  | 'media'
  /** this browser has no Media Source Extensions for live playback */
  | 'unsupported'
  /** asking for the live view (live_add / getVideo) failed: `detail` is the server's message */
  | 'request';

export type LivePlayerState =
  | { kind: 'idle' }
  | { kind: 'requesting' }
  /** `starting`: the device was told to publish and the server holds the socket until it does */
  | { kind: 'connecting'; starting: boolean }
  | { kind: 'playing' }
  | { kind: 'stalled' }
  | { kind: 'reconnecting'; attempt: number; delayMs: number }
  /** not visible (tile scrolled away, background tab): nothing is downloaded */
  | { kind: 'paused' }
  /** `retryInMs`: a passing failure, asked again by itself after that long (the Retry button asks at once) */
  | { kind: 'failed'; reason: LiveFailure; detail?: string; retryInMs?: number }
  /** the publisher ended (device stopped, went offline, was kicked) */
  | { kind: 'ended' };

export type LivePlayerKind = LivePlayerState['kind'];

export interface LiveStats {
  width: number;
  height: number;
  /** frames decoded per second since the previous reading (the stream's declared rate on the first) */
  fps: number | null;
  droppedFrames: number;
  decodedFrames: number;
  /** download rate, kbit/s */
  bitrateKbps: number | null;
  /** seconds buffered ahead of the playhead */
  bufferS: number;
  /** seconds behind the newest buffered frame (the live edge as this player knows it) */
  latencyS: number;
}

// --- the part of mpegts.js this facade uses (the test drives a fake of the same shape) ---

export interface MpegtsLoader {
  _status: number;
  _needStash: boolean;
  readonly onDataArrival: ((chunk: ArrayBuffer, byteStart: number, receivedLength?: number) => void) | null;
  destroy(): void;
}

export interface MpegtsPlayer {
  attachMediaElement(element: HTMLMediaElement): void;
  detachMediaElement(): void;
  load(): void;
  unload(): void;
  play(): Promise<void> | void;
  destroy(): void;
  on(event: string, listener: (...args: unknown[]) => void): void;
  readonly mediaInfo: { width?: number; height?: number; fps?: number };
  readonly statisticsInfo: { speed?: number; decodedFrames?: number; droppedFrames?: number };
}

export interface MpegtsModule {
  createPlayer(
    source: { type: string; isLive?: boolean; url?: string; hasAudio?: boolean },
    config?: object,
  ): MpegtsPlayer;
  getFeatureList(): { mseLivePlayback: boolean };
  BaseLoader: new (typeName: string) => MpegtsLoader;
  LoaderStatus: { kConnecting: number; kBuffering: number; kComplete: number };
  Events: { ERROR: string };
  ErrorTypes: { NETWORK_ERROR: string; MEDIA_ERROR: string };
}

const loadRealMpegts = async (): Promise<MpegtsModule> => (await import('mpegts.js')).default;

// --- timing ---

/** Reconnect delays: 1, 2, 4, 8 s, then 8 s for the remaining attempts. */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 4_000, 8_000] as const;
/** After this many reconnects in a row without a picture the player gives up ('network'). */
export const RECONNECT_ATTEMPTS_MAX = 6;
/** The server closes a held socket after LIVE_START_WAIT_MS; this is our own limit behind it. */
export const CONNECT_TIMEOUT_MS = LIVE_START_WAIT_MS + 5_000;
/**
 * A picture frozen this long (no playhead progress) shows 'stalled'. A live player keeps a quarter
 * second buffered, so the element's own 'waiting' fires at every late frame; showing the overlay on
 * it made busy tiles of a nine-tile wall flicker "buffering" every few seconds.
 */
export const STALL_SHOW_MS = 1_500;
/** A picture frozen this long (no playhead progress, visible) is reconnected. */
export const STALL_RECONNECT_MS = 8_000;

/** The `n`th delay (from 1) of a growing list, its last one from then on. */
function nthDelay(delays: readonly number[], n: number): number {
  return delays[Math.min(Math.max(n, 1), delays.length) - 1]!;
}

export function reconnectDelay(attempt: number): number {
  return nthDelay(RECONNECT_DELAYS_MS, attempt);
}

/**
 * Failures that pass (a camera slow to start on a busy device, a connection that kept dropping, a
 * stream the decoder choked on) are asked again by themselves after 5, 10, 20, then every 30 s,
 * for as long as the view is open: a video wall is watched, not operated, and a tile must not stay
 * dark once its device streams again. So does a request for the play that got no answer or a 5xx
 * (the server restarting, a node of a cluster failing over behind its proxy). A refusal, an
 * unsupported browser and a request the server refused wait for the user.
 */
export const AUTO_RETRY_DELAYS_MS = [5_000, 10_000, 20_000, 30_000] as const;
const PASSING_FAILURES: ReadonlySet<LiveFailure> = new Set(['offline', 'timeout', 'network', 'media']);

export function autoRetryDelay(retry: number): number {
  return nthDelay(AUTO_RETRY_DELAYS_MS, retry);
}

/** A request for the play that failed on the way (no answer: status 0; a 5xx), not by the server's refusal. */
function requestPasses(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

export { catchUp, LIVE_CATCH_UP };
const TICK_MS = LIVE_CATCH_UP.tickMs;

/** ws:// or wss:// on this page's host, with the language the refusal message should be in. */
export function socketUrl(path: string, lang: string, page: Pick<Location, 'protocol' | 'host'> = location): string {
  const url = new URL(path, `${page.protocol}//${page.host}`);
  url.protocol = page.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('lang', lang);
  return url.toString();
}

/** The server's close codes: 4000 + HTTP status for refusals. */
const CLOSE_TOKEN = 4401;
const CLOSE_SCOPE = 4403;
const CLOSE_NOT_PUBLISHING = 4404;
const CLOSE_NORMAL = 1000;
/** close reason of the server when the stream ended because its device went offline */
const CLOSE_REASON_OFFLINE = 'offline';
/** a tile whose device went offline asks again this often, so that it plays once the device is back */
export const OFFLINE_RETRY_MS = 5_000;

/** A LivePlay that may say whether the stream carries sound (GB28181's gbplay answers it). */
export type LivePlayAnswer = LivePlay & { hasAudio?: boolean };

export interface LivePlayerOptions {
  /** Asks the server for a fresh LivePlay (live_add / getVideo): each (re)connect needs a new token. */
  request: (signal: AbortSignal) => Promise<LivePlayAnswer>;
  /** language of the server's refusal messages */
  lang: () => string;
  /** Tests pass a fake mpegts; the real one is imported on first use. */
  loadMpegts?: () => Promise<MpegtsModule>;
  /** Stop downloading while the video is off screen or the tab is hidden (default on). */
  pauseWhenHidden?: boolean;
  /**
   * false: the stream has no audio whatever its FLV header says (the body-camera gateway's header
   * names both tracks; the demuxer would wait for audio that never comes). An answer's `hasAudio`
   * (GB28181) overrides it for that connection.
   */
  hasAudio?: boolean;
}

type Listener = (state: LivePlayerState) => void;

interface Session {
  player: MpegtsPlayer;
  /** set when this session was torn down by us: its socket's close is not news */
  closed: boolean;
  started: number;
  /** the JSON refusal the server sent before closing, if any */
  refusal?: string;
  gotData: boolean;
  lastTime: number;
  lastProgress: number;
  /** when catchUp last jumped to the live edge (performance.now) */
  lastJump: number;
}

/**
 * One live view. `attach(video)` starts it (and follows visibility), `retry()` after a failure,
 * `destroy()` when the tile closes. Read `state` and `subscribe` (useSyncExternalStore), `stats()`.
 */
export class LivePlayer {
  private current: LivePlayerState = { kind: 'idle' };
  private readonly listeners = new Set<Listener>();
  private video: HTMLVideoElement | null = null;
  private session: Session | null = null;
  private abort: AbortController | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private attempts = 0;
  /** passing failures in a row without a picture (autoRetryDelay) */
  private autoRetries = 0;
  /** the device went offline while it played: keep asking until it is back (waitForDevice) */
  private awaitingDevice = false;
  private visible = { onScreen: true, tab: true };
  private unobserve: (() => void) | null = null;
  private lastPlay: LivePlay | null = null;
  /** what the last answer said about sound, null when it said nothing */
  private answeredAudio: boolean | null = null;
  private frames: { at: number; decoded: number } | null = null;
  private destroyed = false;
  /** the source stopped on purpose (a device playback paused): a frozen picture is not a stall */
  private held = false;

  constructor(private readonly options: LivePlayerOptions) {}

  /** Whether the stream carries sound (no mute control is offered without): the answer's word, else the option's. */
  get hasAudio(): boolean {
    return this.answeredAudio ?? this.options.hasAudio !== false;
  }

  get state(): LivePlayerState {
    return this.current;
  }

  /** The last LivePlay the server answered (device names, imei), null before the first. */
  get play(): LivePlay | null {
    return this.lastPlay;
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): LivePlayerState => this.current;

  /** Plays into `video` (muted or not is the caller's choice) and starts. */
  attach(video: HTMLVideoElement): void {
    if (this.destroyed) return;
    if (this.video !== video) {
      if (this.video) this.detach();
      this.video = video;
      video.addEventListener('playing', this.onPlaying);
      if (this.options.pauseWhenHidden !== false) this.observeVisibility(video);
    }
    if (this.current.kind === 'idle') this.start();
  }

  /** Stops playing into the attached element (the player can be attached again). */
  detach(): void {
    this.stopSession();
    this.unobserve?.();
    this.unobserve = null;
    if (this.video) {
      this.video.removeEventListener('playing', this.onPlaying);
    }
    this.video = null;
    if (!this.destroyed) this.set({ kind: 'idle' });
  }

  /**
   * The source pauses on purpose (a GB device's playback paused by MANSRTSP): while held the
   * picture stays as it is without the frozen-picture reconnect or the stalled state; after the
   * release the watchdog counts from then.
   */
  hold(on: boolean): void {
    this.held = on;
    if (!on && this.session) this.session.lastProgress = performance.now();
  }

  /** Starts over after a failure or an end (the user's retry). */
  retry(): void {
    if (this.destroyed) return;
    this.attempts = 0;
    this.autoRetries = 0;
    this.stopSession();
    this.start();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.detach();
    this.destroyed = true;
    this.listeners.clear();
  }

  stats(): LiveStats | null {
    const video = this.video;
    const player = this.session?.player;
    if (!video || !player) return null;
    const quality = typeof video.getVideoPlaybackQuality === 'function' ? video.getVideoPlaybackQuality() : null;
    const decoded = quality?.totalVideoFrames ?? player.statisticsInfo.decodedFrames ?? 0;
    const dropped = quality?.droppedVideoFrames ?? player.statisticsInfo.droppedFrames ?? 0;
    const now = performance.now();
    let fps: number | null = player.mediaInfo.fps ?? null;
    if (this.frames && now - this.frames.at > 200)
      fps = ((decoded - this.frames.decoded) * 1000) / (now - this.frames.at);
    if (!this.frames || now - this.frames.at > 200) this.frames = { at: now, decoded };
    const end = bufferedEnd(video);
    const speed = player.statisticsInfo.speed;
    return {
      width: video.videoWidth || player.mediaInfo.width || 0,
      height: video.videoHeight || player.mediaInfo.height || 0,
      fps: fps === null ? null : Math.round(fps * 10) / 10,
      decodedFrames: decoded,
      droppedFrames: dropped,
      bitrateKbps: speed === undefined ? null : Math.round(speed * 8),
      bufferS: end === null ? 0 : Math.max(0, end - video.currentTime),
      latencyS: end === null ? 0 : Math.max(0, end - video.currentTime),
    };
  }

  // --- the machine ---

  private set(next: LivePlayerState): void {
    this.current = next;
    for (const listener of [...this.listeners]) listener(next);
  }

  private get shown(): boolean {
    return this.visible.onScreen && this.visible.tab;
  }

  private start(): void {
    if (this.destroyed || !this.video) return;
    if (!this.shown) return this.set({ kind: 'paused' });
    this.clearRetry();
    const abort = new AbortController();
    this.abort = abort;
    this.set({ kind: 'requesting' });
    const mpegts = (this.options.loadMpegts ?? loadRealMpegts)();
    Promise.all([mpegts, this.options.request(abort.signal)]).then(
      ([module, play]) => {
        if (abort.signal.aborted) return;
        this.lastPlay = play;
        this.answeredAudio = play.hasAudio ?? null;
        if (!module.getFeatureList().mseLivePlayback) return this.fail('unsupported');
        this.connect(module, play);
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        // mpegts.js failing to load is a network failure (chunk); an API refusal carries its message
        const detail = error instanceof Error ? error.message : String(error);
        if (this.awaitingDevice) return this.waitForDevice(detail);
        this.fail('request', detail, requestPasses(error));
      },
    );
  }

  private connect(mpegts: MpegtsModule, play: LivePlay): void {
    const video = this.video;
    if (!video) return;
    const hooks = {
      onData: () => {
        if (session.closed) return;
        session.gotData = true;
      },
      onText: (text: string) => {
        session.refusal = refusalMessage(text);
      },
      onClose: (code: number, reason: string) => {
        if (session.closed) return;
        this.onSocketClosed(session, code, reason);
      },
    };
    const player = mpegts.createPlayer(
      {
        type: 'flv',
        isLive: true,
        url: socketUrl(play.ws, this.options.lang()),
        ...(this.answeredAudio !== null
          ? { hasAudio: this.answeredAudio }
          : this.options.hasAudio === false
            ? { hasAudio: false }
            : {}),
      },
      { ...MPEGTS_LIVE_CONFIG, customLoader: socketLoader(mpegts, hooks) },
    );
    const now = performance.now();
    const session: Session = {
      player,
      closed: false,
      started: now,
      gotData: false,
      lastTime: 0,
      lastProgress: now,
      lastJump: -Infinity,
    };
    this.session = session;
    player.on(mpegts.Events.ERROR, (type, _detail, info) => {
      if (session.closed) return;
      // network errors come with the socket's close, which says more; decoding errors do not heal
      if (type === mpegts.ErrorTypes.MEDIA_ERROR) this.fail('media', messageOf(info));
    });
    this.set({ kind: 'connecting', starting: play.state === 'starting' });
    player.attachMediaElement(video);
    player.load();
    // autoplay: a muted element may play without a gesture; a refusal leaves the picture paused
    void Promise.resolve(player.play()).catch(() => undefined);
    this.ticker = setInterval(this.tick, TICK_MS);
  }

  private onSocketClosed(session: Session, code: number, reason: string): void {
    const detail = session.refusal;
    if (code === CLOSE_NORMAL && reason === CLOSE_REASON_OFFLINE) {
      // the device went offline: wait for it, asking again every OFFLINE_RETRY_MS
      this.awaitingDevice = true;
      return this.waitForDevice();
    }
    if (code === CLOSE_NORMAL) {
      this.stopSession();
      return this.set({ kind: 'ended' });
    }
    if (code === CLOSE_SCOPE) return this.fail('refused', detail);
    if (code === CLOSE_NOT_PUBLISHING) {
      // the server held the socket for the device and gave up: the device never started
      const waited = performance.now() - session.started >= LIVE_START_WAIT_MS - 1_000;
      return this.fail(waited && !session.gotData ? 'timeout' : 'offline', detail);
    }
    // a refused token (expired while we waited) and dropped connections: ask again for a fresh play
    this.reconnect(code === CLOSE_TOKEN ? 'token' : 'network', detail);
  }

  private reconnect(reason: LiveFailure, detail?: string): void {
    this.stopSession();
    this.attempts += 1;
    if (this.attempts > RECONNECT_ATTEMPTS_MAX) return this.fail(reason, detail);
    const delayMs = reconnectDelay(this.attempts);
    this.set({ kind: 'reconnecting', attempt: this.attempts, delayMs });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.start();
    }, delayMs);
  }

  /** Shows the device as offline and asks again later (until it plays or the tile closes). */
  private waitForDevice(detail?: string): void {
    this.failThenRetry('offline', detail, OFFLINE_RETRY_MS);
  }

  /** A failure; one that passes is asked again by itself (autoRetryDelay), others wait for retry(). */
  private fail(reason: LiveFailure, detail?: string, passing = PASSING_FAILURES.has(reason)): void {
    if (passing) return this.failThenRetry(reason, detail, autoRetryDelay(++this.autoRetries));
    this.stopSession();
    this.set(detail ? { kind: 'failed', reason, detail } : { kind: 'failed', reason });
  }

  /** Shows the failure and starts again after `retryInMs` (unless a play, retry or close comes first). */
  private failThenRetry(reason: LiveFailure, detail: string | undefined, retryInMs: number): void {
    this.stopSession();
    this.set(detail ? { kind: 'failed', reason, detail, retryInMs } : { kind: 'failed', reason, retryInMs });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.start();
    }, retryInMs);
  }

  private readonly onPlaying = () => {
    if (!this.session) return;
    // the frozen-picture clocks count from the first frame, not from the connect
    this.session.lastProgress = performance.now();
    this.attempts = 0;
    this.autoRetries = 0;
    this.awaitingDevice = false;
    this.set({ kind: 'playing' });
  };

  /** Latency catch-up, the connect timeout and the frozen-picture watchdog. */
  private readonly tick = () => {
    const session = this.session;
    const video = this.video;
    if (!session || !video) return;
    const now = performance.now();
    const kind = this.current.kind;
    if (kind === 'connecting') {
      if (now - session.started > CONNECT_TIMEOUT_MS) this.fail('timeout');
      return;
    }
    if (video.currentTime !== session.lastTime) {
      session.lastTime = video.currentTime;
      session.lastProgress = now;
      if (kind === 'stalled') this.set({ kind: 'playing' });
    } else if (!this.held && now - session.lastProgress > STALL_RECONNECT_MS) {
      return this.reconnect('network');
    } else if (!this.held && kind === 'playing' && now - session.lastProgress >= STALL_SHOW_MS) {
      this.set({ kind: 'stalled' });
    }
    const end = bufferedEnd(video);
    if (end === null || video.paused || video.seeking) return;
    const { seekBack, rate } = catchUp(end - video.currentTime, (now - session.lastJump) / 1000);
    if (seekBack !== null) {
      video.currentTime = end - seekBack;
      session.lastJump = now;
    }
    if (video.playbackRate !== rate) video.playbackRate = rate;
  };

  private stopSession(): void {
    this.abort?.abort();
    this.abort = null;
    this.clearRetry();
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    this.frames = null;
    const session = this.session;
    this.session = null;
    if (!session) return;
    session.closed = true;
    try {
      // the media element first: mpegts' unload() flushes its source buffers with abort(), which
      // Chromium refuses while a cleanup remove() runs ("Aborting asynchronous remove() operation
      // is disallowed", logged as an error at every tile closed on a busy machine); detached, the
      // buffers are removed with the media source, which ends a running remove() without error
      session.player.detachMediaElement();
      session.player.unload();
      session.player.destroy();
    } catch {
      // a player that failed half-way may throw on teardown; it is dropped either way
    }
    if (this.video) this.video.playbackRate = 1;
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Off screen or background tab: release the stream; back in view: a fresh play. */
  private observeVisibility(video: HTMLVideoElement): void {
    const apply = (next: Partial<typeof this.visible>) => {
      const was = this.shown;
      this.visible = { ...this.visible, ...next };
      if (was === this.shown || this.destroyed) return;
      if (!this.shown && isActive(this.current.kind)) {
        this.stopSession();
        this.attempts = 0;
        this.set({ kind: 'paused' });
      } else if (this.shown && this.current.kind === 'paused') this.start();
    };
    const onVisibility = () => apply({ tab: document.visibilityState !== 'hidden' });
    document.addEventListener('visibilitychange', onVisibility);
    this.visible.tab = document.visibilityState !== 'hidden';
    let observer: IntersectionObserver | null = null;
    if (typeof IntersectionObserver === 'function') {
      observer = new IntersectionObserver((entries) => {
        const entry = entries[entries.length - 1];
        if (entry) apply({ onScreen: entry.isIntersecting });
      });
      observer.observe(video);
    }
    this.unobserve = () => {
      document.removeEventListener('visibilitychange', onVisibility);
      observer?.disconnect();
      this.visible = { onScreen: true, tab: true };
    };
  }
}

function isActive(kind: LivePlayerKind): boolean {
  return (
    kind === 'requesting' ||
    kind === 'connecting' ||
    kind === 'playing' ||
    kind === 'stalled' ||
    kind === 'reconnecting'
  );
}

function bufferedEnd(video: HTMLVideoElement): number | null {
  const ranges = video.buffered;
  return ranges && ranges.length > 0 ? ranges.end(ranges.length - 1) : null;
}

/** The server's refusal `{code, msg}` (msg already in the viewer's language). */
function refusalMessage(text: string): string | undefined {
  try {
    return messageOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** `msg` of an object such as the refusal or mpegts' error info. */
function messageOf(value: unknown): string | undefined {
  const msg = value && typeof value === 'object' ? (value as { msg?: unknown }).msg : undefined;
  return typeof msg === 'string' && msg ? msg : undefined;
}

interface SocketHooks {
  onData: () => void;
  onText: (text: string) => void;
  onClose: (code: number, reason: string) => void;
}

/**
 * An mpegts loader over our own websocket: binary frames go to the demuxer as mpegts' WebSocket
 * loader does, text frames (the refusal) and the close code go to the facade.
 */
function socketLoader(mpegts: MpegtsModule, hooks: SocketHooks) {
  const status = mpegts.LoaderStatus;
  return class LiveSocketLoader extends mpegts.BaseLoader {
    private socket: WebSocket | null = null;
    private received = 0;
    private aborted = false;

    constructor() {
      super('bwc-live-socket');
      // live: no stash, every chunk goes straight to the demuxer
      this._needStash = false;
    }

    isWorking(): boolean {
      return this._status === status.kConnecting || this._status === status.kBuffering;
    }

    open(source: { url: string }): void {
      const socket = new WebSocket(source.url);
      this.socket = socket;
      socket.binaryType = 'arraybuffer';
      this._status = status.kConnecting;
      socket.onopen = () => {
        this._status = status.kBuffering;
      };
      socket.onmessage = (event: MessageEvent<unknown>) => {
        if (typeof event.data === 'string') return hooks.onText(event.data);
        if (!(event.data instanceof ArrayBuffer)) return;
        const start = this.received;
        this.received += event.data.byteLength;
        hooks.onData();
        this.onDataArrival?.(event.data, start, this.received);
      };
      socket.onclose = (event: CloseEvent) => {
        this._status = status.kComplete;
        if (this.aborted) return;
        hooks.onClose(event.code, event.reason);
      };
    }

    abort(): void {
      this.aborted = true;
      const socket = this.socket;
      this.socket = null;
      if (socket && (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN))
        socket.close();
      this._status = status.kComplete;
    }

    override destroy(): void {
      if (this.socket) this.abort();
      super.destroy();
    }
  };
}
