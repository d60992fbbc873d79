import { LIVE_IDLE_MS } from '@bwc/protocol';
import { buildOffer, parseSdp, ssrcNumber, SsrcAllocator } from '@bwc/gb28181/sdp';
import type { MansrtspControl } from '@bwc/gb28181/sip';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaGateway } from '../../media/gateway';
import { signPlayToken, verifyPlayToken } from '../../media/keys';
import type { AvPacket, LiveStream } from '../../media/live-stream';
import {
  GbMediaSession,
  TcpActiveRtpReceiver,
  TcpPassiveRtpReceiver,
  UdpRtpReceiver,
  type PortAllocator,
  type GbTracks,
  type RtpReceiver,
  type Transport,
} from '../media';
import { GbRequestError, type GbDialog, type GbSipPlatform } from '../sip';
import { gbLiveKey, gbPlaybackKey } from './gb-keys';

export interface GbLiveOptions {
  platform: GbSipPlatform;
  gateway: MediaGateway;
  /** the platform's 20-digit id (SDP o=) and 10-digit domain (SSRC digits 2-6) */
  platformId: string;
  domain: string;
  /** the address devices send media to (gbconfig LocalIp): SDP c= */
  mediaAddress: string;
  /** where receivers bind; default 0.0.0.0 */
  bindHost?: string;
  /** the video port range (gbconfig VideoPort, PortCount) */
  ports: PortAllocator;
  /** HMAC key of the play tokens (the media signing key) */
  signingKey: Buffer;
  /** default transport of INVITEs; default 'udp' */
  transport?: Transport;
  /** a stream nobody watches is stopped after this; default LIVE_IDLE_MS */
  idleMs?: number;
  /** no RTP for this long stops the stream (BYE); default 10 s */
  receiverTimeoutMs?: number;
  /** how long a start waits after the 200 for the stream map telling whether there is audio; default 3 s */
  mediaWaitMs?: number;
  log: FastifyBaseLogger;
}

/** A started stream: where viewers find it in the gateway. */
export interface GbStreamInfo {
  /** the gateway's key ('gb:<device>_<channel>') */
  key: string;
  /** the path name under /live/ ('gb-<device>_<channel>.flv') */
  name: string;
  transport: Transport;
  ssrc: string;
  /** ms from sending INVITE to its 200 */
  answeredMs: number;
  /** the PS carries audio (its stream map lists an audio stream) */
  hasAudio: boolean;
}

/** The device answered the INVITE but no media came within `mediaWaitMs`. */
export class GbNoMediaError extends Error {
  constructor(
    readonly key: string,
    readonly waitedMs: number,
  ) {
    super(`no media from the device within ${waitedMs} ms (${key})`);
    this.name = 'GbNoMediaError';
  }
}

interface Session {
  key: string;
  deviceId: string;
  channelId: string;
  transport: Transport;
  ssrc: string | null;
  stream: LiveStream | null;
  media: GbMediaSession | null;
  dialog: GbDialog | null;
  ready: Promise<GbStreamInfo>;
  invitedAt: number;
  firstKeyframeMs: number | null;
  idle: NodeJS.Timeout | null;
  stopped: string | null;
  /** a playback the device paused at our request (MANSRTSP): its silence is not a timeout */
  paused: boolean;
  /** controls (INFO) being asked now: the device's silence meanwhile is not a timeout either */
  controls: number;
  /** a playback's span (seconds since 1970); null for live */
  playback: { start: number; end: number } | null;
}

/**
 * GB28181 live video and device playback into the media gateway (GB/T 28181-2016 9.2, 9.8): an
 * INVITE per channel with our SDP offer, an RTP receiver and GbMediaSession feeding a keyed
 * LiveStream that viewers read through the gateway's FLV outputs. See README.md.
 */
export class GbLiveService {
  private readonly sessions = new Map<string, Session>();
  private readonly ssrcs: SsrcAllocator;
  private readonly idleMs: number;
  private readonly offPlatform: (() => void)[] = [];
  /** INVITE-to-first-keyframe of the streams so far (ms), newest last (at most 100) */
  readonly keyframeDelays: number[] = [];

  constructor(private readonly o: GbLiveOptions) {
    this.ssrcs = new SsrcAllocator(o.domain);
    this.idleMs = o.idleMs ?? LIVE_IDLE_MS;
    const ended = (e: { dialog: GbDialog }) => {
      for (const s of [...this.sessions.values()])
        if (s.dialog?.id === e.dialog.id) {
          s.dialog = null; // the device ended it: no BYE back
          this.end(s, 'ended');
        }
    };
    const gone = (e: { deviceId: string }) => {
      for (const s of [...this.sessions.values()]) if (s.deviceId === e.deviceId) this.end(s, 'offline');
    };
    o.platform.on('dialogEnded', ended);
    o.platform.on('offline', gone);
    o.platform.on('unregistered', gone);
    this.offPlatform.push(() => {
      o.platform.off('dialogEnded', ended);
      o.platform.off('offline', gone);
      o.platform.off('unregistered', gone);
    });
  }

  /** Start a channel's live video, or join the start already running (one INVITE per channel). */
  start(channelId: string, deviceId: string, transport?: Transport): Promise<GbStreamInfo> {
    return this.open(gbLiveKey(deviceId, channelId), deviceId, channelId, transport, null);
  }

  /** Play a device-side recording of `start`-`end` (seconds since 1970) under its own key. */
  startPlayback(
    channelId: string,
    deviceId: string,
    start: number,
    end: number,
    transport?: Transport,
  ): Promise<GbStreamInfo> {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start)
      return Promise.reject(new RangeError(`playback range ${start}-${end}`));
    return this.open(gbPlaybackKey(deviceId, channelId, start, end), deviceId, channelId, transport, { start, end });
  }

  /**
   * Pause, resume, seek or set the speed of a running playback (`gbpb:` key): MANSRTSP in an INFO
   * of its dialog (9.8.2). While paused the device's silence does not stop the stream. A seek or a
   * speed is a PLAY: it ends a pause too, and the receiver's timeout counts again from now (the
   * device goes quiet while it moves to the new point). A seek's offset is checked by the caller
   * against the span (`playbackSpan`). False when no playback runs under `key`; rejects when the
   * device refuses or does not answer (the state is then unchanged).
   */
  async control(key: string, control: MansrtspControl): Promise<boolean> {
    const s = this.sessions.get(key);
    if (!s?.playback) return false;
    // a start that fails has no playback to control
    if (!(await s.ready.then(() => true).catch(() => false))) return false;
    const dialog = s.dialog;
    if (!dialog || s.stopped) return false;
    // the device may go quiet from its answer until it plays from the new point
    s.controls++;
    let answered = false;
    try {
      await this.o.platform.info(dialog, control);
      answered = true;
    } catch (err) {
      // 481: the device has no such call any more (the playback ended)
      if (err instanceof GbRequestError && err.status === 481) return false;
      throw err;
    } finally {
      s.controls--;
      if (answered) s.paused = control.command === 'pause';
      // silence counts from now (a timeout that fired while asking was ignored)
      if (!s.paused) s.media?.receiver.restartTimeout();
    }
    if (s.stopped) return false;
    this.o.log.info({ key, device: s.deviceId, ...control }, 'gb live: playback control');
    return true;
  }

  /** The span (seconds since 1970) of the playback under `key`, or null. */
  playbackSpan(key: string): { start: number; end: number } | null {
    return this.sessions.get(key)?.playback ?? null;
  }

  /** Is a playback under `key` paused? */
  paused(key: string): boolean {
    return this.sessions.get(key)?.paused ?? false;
  }

  /** Is a stream under `key` started (or starting)? */
  has(key: string): boolean {
    return this.sessions.has(key);
  }

  /** Stop a stream now (BYE, receiver closed, port and SSRC freed); false when there is none. */
  stop(key: string, reason = 'stopped'): boolean {
    const s = this.sessions.get(key);
    if (!s) return false;
    this.end(s, reason);
    return true;
  }

  /** A play token for `userId` to watch `key` until `ttlMs` from now (media/keys.ts). */
  playToken(userId: number, key: string, ttlMs: number, nowMs = Date.now()): string {
    return signPlayToken(this.o.signingKey, 'gbplay', userId, key, nowMs + ttlMs);
  }

  /** The user a play token is for, or why it is refused. */
  checkPlayToken(
    key: string,
    token: string,
    nowMs = Date.now(),
  ): { userId: number } | { refused: 'malformed' | 'signature' | 'expired' } {
    return verifyPlayToken(this.o.signingKey, 'gbplay', key, token, nowMs);
  }

  private open(
    key: string,
    deviceId: string,
    channelId: string,
    transport: Transport | undefined,
    playback: { start: number; end: number } | null,
  ): Promise<GbStreamInfo> {
    const running = this.sessions.get(key);
    if (running) return running.ready;
    const s: Session = {
      key,
      deviceId,
      channelId,
      transport: transport ?? this.o.transport ?? 'udp',
      ssrc: null,
      stream: null,
      media: null,
      dialog: null,
      ready: Promise.resolve(null as never),
      invitedAt: 0,
      firstKeyframeMs: null,
      idle: null,
      stopped: null,
      paused: false,
      controls: 0,
      playback,
    };
    this.sessions.set(key, s);
    s.ready = this.run(s, playback).catch((err: unknown) => {
      this.end(s, 'failed');
      throw err;
    });
    return s.ready;
  }

  private async run(s: Session, playback: { start: number; end: number } | null): Promise<GbStreamInfo> {
    const { o } = this;
    s.ssrc = this.ssrcs.allocate(playback ? 'history' : 'live');
    const ssrc = ssrcNumber(s.ssrc);
    const stream = o.gateway.addKeyed(s.key, (viewers) => this.viewersChanged(s, viewers));
    s.stream = stream;
    this.viewersChanged(s, 0);
    const ropts = { ssrc, timeoutMs: o.receiverTimeoutMs ?? 10_000, host: o.bindHost ?? '0.0.0.0', log: o.log };
    let receiver: RtpReceiver | null = null;
    if (s.transport === 'udp') receiver = await UdpRtpReceiver.open(o.ports, ropts);
    else if (s.transport === 'tcp-passive') receiver = await TcpPassiveRtpReceiver.open(o.ports, ropts);
    if (receiver && s.stopped) {
      receiver.close(s.stopped);
      throw new Error(`stopped (${s.stopped})`);
    }
    if (receiver) this.attach(s, receiver);
    const offer = buildOffer({
      platformId: o.platformId,
      address: o.mediaAddress,
      // TCP active: we connect, so our port is the discard port (RFC 4145 4)
      port: receiver?.port ?? 9,
      ssrc: s.ssrc,
      transport: s.transport,
      ...(playback
        ? { session: 'Playback' as const, channelId: s.channelId, start: playback.start, stop: playback.end }
        : {}),
    });
    s.invitedAt = performance.now();
    const { answer, dialog } = await o.platform.invite(s.deviceId, s.channelId, offer, { ssrc: s.ssrc });
    const answeredMs = Math.round(performance.now() - s.invitedAt);
    s.dialog = dialog;
    if (s.stopped) {
      // stopped while the INVITE ran: hang up the call it made
      this.bye(s);
      throw new Error(`stopped (${s.stopped})`);
    }
    if (s.transport === 'tcp-active') {
      const sdp = parseSdp(answer);
      const media = sdp.media.find((m) => m.kind === 'video') ?? sdp.media[0];
      if (!media) throw new Error('the answer has no media line');
      this.attach(s, new TcpActiveRtpReceiver({ ...ropts, remote: { host: sdp.address, port: media.port } }));
    }
    const tracks = await this.tracks(s);
    if (s.stopped) throw new Error(`stopped (${s.stopped})`);
    // viewers get an FLV header naming audio only when the device sends it
    stream.hasAudio = tracks.audio;
    o.log.info(
      { key: s.key, device: s.deviceId, transport: s.transport, ssrc: s.ssrc, answeredMs, audio: tracks.audio },
      'gb live: started',
    );
    return {
      key: s.key,
      name: `${s.key.replace(':', '-')}.flv`,
      transport: s.transport,
      ssrc: s.ssrc,
      answeredMs,
      hasAudio: tracks.audio,
    };
  }

  /**
   * What the PS carries: its first stream map (a device sends one with each keyframe, Appendix C),
   * waited for up to `mediaWaitMs`. Media without a map by then counts as video only; no media
   * at all is a GbNoMediaError.
   */
  private async tracks(s: Session): Promise<GbTracks> {
    const media = s.media!;
    if (media.tracks) return media.tracks;
    const waitMs = this.o.mediaWaitMs ?? 3_000;
    let timer: NodeJS.Timeout | undefined;
    let onTracks: ((t: GbTracks) => void) | undefined;
    let onClosed: (() => void) | undefined;
    try {
      return await new Promise<GbTracks>((resolve, reject) => {
        onTracks = resolve;
        onClosed = () => reject(new Error(`stopped (${s.stopped ?? 'closed'})`));
        media.once('tracks', onTracks);
        media.once('closed', onClosed);
        timer = setTimeout(() => {
          if (media.receiver.stats.units > 0) resolve({ audio: false, video: true });
          else reject(new GbNoMediaError(s.key, waitMs));
        }, waitMs);
      });
    } finally {
      clearTimeout(timer);
      if (onTracks) media.off('tracks', onTracks);
      if (onClosed) media.off('closed', onClosed);
    }
  }

  private attach(s: Session, receiver: RtpReceiver): void {
    const stream = s.stream!;
    const onPacket = (p: AvPacket) => {
      if (p.flags === 3 && s.firstKeyframeMs === null && s.invitedAt) {
        s.firstKeyframeMs = Math.round(performance.now() - s.invitedAt);
        this.keyframeDelays.push(s.firstKeyframeMs);
        if (this.keyframeDelays.length > 100) this.keyframeDelays.shift();
      }
      stream.push(p);
    };
    s.media = new GbMediaSession(receiver, { onPacket, log: this.o.log });
    s.media.on('timeout', () => {
      if (!s.paused && s.controls === 0) this.end(s, 'timeout');
    });
    // TCP active: the device's connection going away closes the receiver
    s.media.on('closed', (reason) => {
      if (!s.stopped) this.end(s, reason);
    });
  }

  private viewersChanged(s: Session, viewers: number): void {
    if (s.stopped) return;
    if (viewers > 0) {
      if (s.idle) clearTimeout(s.idle);
      s.idle = null;
      return;
    }
    if (s.idle) return;
    s.idle = setTimeout(() => {
      s.idle = null;
      if ((s.stream?.viewers.size ?? 0) === 0) this.end(s, 'idle');
    }, this.idleMs);
    s.idle.unref();
  }

  private bye(s: Session): void {
    const dialog = s.dialog;
    s.dialog = null;
    if (!dialog) return;
    this.o.platform.bye(dialog).catch((err: unknown) => {
      this.o.log.warn({ err, key: s.key, device: s.deviceId }, 'gb live: BYE not answered');
    });
  }

  /** Stop: BYE (unless the device ended it), receiver closed (port freed), SSRC freed, viewers closed. */
  private end(s: Session, reason: string): void {
    if (s.stopped) return;
    s.stopped = reason;
    if (this.sessions.get(s.key) === s) this.sessions.delete(s.key);
    if (s.idle) clearTimeout(s.idle);
    s.idle = null;
    this.bye(s);
    s.media?.close(reason);
    if (s.ssrc) this.ssrcs.release(s.ssrc);
    if (s.stream) this.o.gateway.removeKeyed(s.key, s.stream, reason);
    this.o.log.info({ key: s.key, device: s.deviceId, reason }, 'gb live: stopped');
  }

  /** Stop every stream and stop listening to the platform. */
  close(): void {
    for (const s of [...this.sessions.values()]) this.end(s, 'closed');
    for (const off of this.offPlatform.splice(0)) off();
  }
}
