/**
 * A GB28181 device's media for one INVITE: ffmpeg draws a test pattern (with the device's name and
 * the clock; a playback shows the recording's time) and writes H.264 Annex-B on its stdout and,
 * with audio, a beeping tone as G.711 A-law (8 kHz mono) on fd 3; the access units go through
 * PsMuxer and RtpPacketizer (GB28181-2016 Appendix C) to the offered port, over UDP, or TCP with
 * RFC 4571 framing as the device connecting (active) or listening (passive).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type dgram from 'node:dgram';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { frameRtpTcp, PsMuxer, RtpPacketizer, splitH264AccessUnits } from '@bwc/gb28181/ps';
import type { MediaPlan } from '@bwc/gb28181/sdp';

export const GB_STREAM_FPS = 25;
export const GB_STREAM_SIZE = '640x360';
/** An Annex-B backlog over this (ffmpeg writing without frame boundaries) is dropped. */
const MAX_PENDING = 8 * 1024 * 1024;
const STOP_GRACE_MS = 2_000;
/** G.711 sample rate; an audio frame is 20 ms (160 bytes), each in its own pack */
export const GB_AUDIO_RATE = 8000;
export const GB_AUDIO_FRAME = 160;
/** A passive TCP stream waits this long for the platform to connect. */
const ACCEPT_TIMEOUT_MS = 10_000;

/** ffmpeg processes of GB streams alive in this process; killed when it exits. */
const alive = new Set<ChildProcess>();
let exitHook = false;
function track(child: ChildProcess): void {
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const c of alive) c.kill('SIGKILL');
  });
}

/** How many GB stream ffmpeg processes run now (tests check none is left). */
export function runningGbStreams(): number {
  return alive.size;
}

export interface StreamArgsInput {
  /** drawn on the picture; letters, digits, space, '-', '_' and '.' are kept */
  label: string;
  font: string | null;
  /** playback: seconds since 1970 of the first frame's recording time (shown instead of the clock; may be fractional) */
  playbackStart?: number;
  /** stream seconds to send (playback and download) */
  seconds?: number;
  /**
   * frames are made this many times faster than real time (a Download's speed, 1-16, or a
   * playback's Scale, 0.25-4); each frame still holds 1/GB_STREAM_FPS s of the recording
   */
  speed?: number;
  /**
   * also a tone as G.711 A-law on fd 3, in real time whatever the speed (a player of the stream
   * waits for the audio it was promised: it must not stop at another Scale)
   */
  audio?: boolean;
}

/**
 * ffmpeg's arguments: a test pattern to H.264 Annex-B on stdout, in real time, a keyframe a second;
 * with `audio`, a 440 Hz beep a second to raw A-law on pipe:3.
 */
export function streamArgs(input: StreamArgsInput): string[] {
  const label = input.label.replace(/[^A-Za-z0-9 _.-]/g, '').slice(0, 60);
  const font = input.font?.replace(/[\\':]/g, '\\$&');
  const clock =
    input.playbackStart !== undefined
      ? // the recording's time in the device's zone (+08:00, as its GB times)
        `text='PLAYBACK %{pts\\:gmtime\\:${+(input.playbackStart + 8 * 3600).toFixed(3)}}'`
      : `text='%{localtime}'`;
  const speed = Math.min(16, Math.max(0.25, input.speed ?? 1));
  const audio = input.audio === true;
  const seconds = input.seconds ? ['-t', String(+input.seconds.toFixed(3))] : [];
  // The tone is made in real time, but its time stamps run `speed` times as fast, as the video's
  // do: ffmpeg interleaves its outputs by time stamp, so the video is not held back to the audio's
  // pace, and both end after `seconds` of recording. The samples are stamped from their count.
  const audioFilter = speed === 1 ? 'volume=0.3' : `asetpts=PTS*${speed},volume=0.3`;
  // frames come `speed` times faster; their time stamps stay 1/FPS apart in the stream (settb:
  // a rate like 6.25 has a time base too coarse for that)
  const vf =
    `settb=AVTB,setpts=N/(${GB_STREAM_FPS}*TB)${font ? ',' : ''}` +
    (font
      ? `drawtext=fontfile='${font}':text='${label}':x=12:y=10:fontsize=24:fontcolor=white:box=1:boxcolor=black@0.6,` +
        `drawtext=fontfile='${font}':${clock}:x=12:y=44:fontsize=20:fontcolor=white:box=1:boxcolor=black@0.6`
      : '');
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostats'],
    ...['-re', '-f', 'lavfi', '-i', `testsrc=size=${GB_STREAM_SIZE}:rate=${GB_STREAM_FPS * speed}`],
    ...(audio ? ['-re', '-f', 'lavfi', '-i', `sine=frequency=440:beep_factor=2:sample_rate=${GB_AUDIO_RATE}`] : []),
    ...(audio ? ['-map', '0:v'] : []),
    ...seconds,
    ...['-vf', vf, '-r', String(GB_STREAM_FPS)],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline'],
    ...['-pix_fmt', 'yuv420p', '-g', String(GB_STREAM_FPS), '-keyint_min', String(GB_STREAM_FPS), '-bf', '0'],
    ...['-sc_threshold', '0', '-b:v', '600k', '-f', 'h264', 'pipe:1'],
    ...(audio
      ? [
          ...['-map', '1:a', ...seconds],
          ...['-af', audioFilter, '-c:a', 'pcm_alaw', '-ar', String(GB_AUDIO_RATE), '-ac', '1', '-f', 'alaw', 'pipe:3'],
        ]
      : []),
  ];
}

export interface GbStreamOptions {
  plan: MediaPlan;
  /** the RTP SSRC (the y= value as a number) */
  ssrc: number;
  label: string;
  ffmpeg: string;
  font: string | null;
  /** the hub's shared media socket, for UDP */
  udp: dgram.Socket | null;
  localHost: string;
  /** G.711 A-law audio in the PS as well (live and playback; not Download) */
  audio?: boolean;
}

export interface GbStreamEvents {
  /** ffmpeg ended by itself, or the connection failed */
  ended: [reason: string];
}

export class GbStream extends EventEmitter<GbStreamEvents> {
  /** video access units sent in the whole call */
  frames = 0;
  audioFrames = 0;
  packets = 0;
  /** paused by the platform (MANSRTSP PAUSE): no ffmpeg runs and nothing is sent until `resume()` */
  paused = false;
  /** the playback's speed (MANSRTSP Scale): frames are sent `scale` times as fast as real time */
  scale = 1;
  /** recording seconds past the plan's start where the current (or next) ffmpeg run began */
  private from = 0;
  /** video access units of the current run */
  private runFrames = 0;
  /** 90 kHz RTP time of the next video frame: it runs on across pauses, seeks and speeds */
  private clock = 0;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private tcp: net.Socket | null = null;
  private server: net.Server | null = null;
  private accepted: Promise<net.Socket> | null = null;
  private stopped = false;
  /** start() has run (connected); until then resume() only clears `paused` */
  private begun = false;
  /** one muxer and packetizer for the whole call: sequence numbers and time stamps go on across a pause */
  private muxer: PsMuxer | null = null;
  private rtp: RtpPacketizer | null = null;
  /** the sample number after the last audio frame sent */
  private audioNext = 0;
  /** pauses and resumes in order: a resume starts ffmpeg only after the paused one exited */
  private control: Promise<void> = Promise.resolve();

  constructor(private readonly o: GbStreamOptions) {
    super();
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Gets ready before the answer; returns the port to put in it. */
  async prepare(): Promise<number> {
    const { plan } = this.o;
    if (plan.transport === 'udp') {
      if (!this.o.udp) throw new Error('no media socket');
      return this.o.udp.address().port;
    }
    if (plan.transport === 'tcp-active') return 9; // RFC 4145 4: the active side's port is 9
    const server = net.createServer();
    server.maxConnections = 1;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, this.o.localHost, () => resolve());
    });
    this.server = server;
    // the platform may connect before its ACK arrives
    this.accepted = new Promise<net.Socket>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no TCP connection from the platform')), ACCEPT_TIMEOUT_MS);
      t.unref();
      server.once('connection', (s) => {
        clearTimeout(t);
        resolve(s);
      });
      server.once('close', () => reject(new Error('stopped before the platform connected')));
    });
    this.accepted.catch(() => {});
    return (server.address() as net.AddressInfo).port;
  }

  /** On ACK: connects (TCP) and starts ffmpeg (unless paused already). */
  async start(): Promise<void> {
    const { plan } = this.o;
    if (plan.transport === 'tcp-active') {
      const socket = net.connect({ host: plan.address, port: plan.port, localAddress: this.o.localHost });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
      this.useTcp(socket);
    } else if (plan.transport === 'tcp-passive') {
      const socket = await this.accepted!;
      this.server?.close();
      this.server = null;
      this.useTcp(socket);
    }
    if (this.stopped) return void this.tcp?.destroy();
    this.begun = true;
    if (!this.paused) this.spawn();
  }

  /** Recording seconds past the plan's start of the next frame to send. */
  get position(): number {
    return this.from + this.runFrames / GB_STREAM_FPS;
  }

  /**
   * Stops sending at once and ends ffmpeg; the position and the time stamps are kept. The access
   * unit ffmpeg was still writing is dropped and made again on resume.
   */
  pause(): void {
    if (this.paused || this.stopped) return;
    this.paused = true;
    this.detach();
  }

  /** Starts ffmpeg again from the recording position where the pause left it. */
  resume(): void {
    if (!this.paused || this.stopped) return;
    this.paused = false;
    this.respawn();
  }

  /** Plays from `offset` seconds past the plan's start (a PLAY: a pause ends too). */
  seek(offset: number): void {
    if (this.stopped) return;
    this.detach();
    this.from = offset;
    this.paused = false;
    this.respawn();
  }

  /** Plays on from the current position at `scale` times real time (a PLAY: a pause ends too). */
  speed(scale: number): void {
    if (this.stopped) return;
    this.detach();
    this.scale = scale;
    this.paused = false;
    this.respawn();
  }

  /** Stops sending the current run (its output is no longer sent, nor its exit taken for the end) and ends its ffmpeg. */
  private detach(): void {
    this.from = this.position;
    this.runFrames = 0;
    const child = this.child;
    const exited = this.exited;
    this.child = null;
    if (child) this.control = this.control.then(() => this.end(child, exited));
  }

  /** A new run once the detached one has exited (controls take effect in order). */
  private respawn(): void {
    this.control = this.control.then(() => {
      if (this.begun && !this.paused && !this.stopped && !this.child) this.spawn();
    });
  }

  private useTcp(socket: net.Socket): void {
    socket.removeAllListeners('error');
    socket.on('error', () => {});
    socket.once('close', () => {
      if (!this.stopped) this.emit('ended', 'media connection closed');
    });
    socket.setNoDelay(true);
    this.tcp = socket;
  }

  private spawn(): void {
    const { plan } = this.o;
    const playback = plan.session === 'Playback' || plan.session === 'Download';
    // after a pause or a seek, ffmpeg starts at the recording position
    const from = this.from;
    const seconds = playback && plan.stop > plan.start ? plan.stop - plan.start - from : undefined;
    if (seconds !== undefined && seconds * GB_STREAM_FPS < 0.5) {
      // paused after the last frame: nothing is left to play
      setImmediate(() => {
        if (!this.stopped) this.emit('ended', 'ffmpeg ended (code 0): the span was played');
      });
      return;
    }
    const download = plan.session === 'Download';
    const speed = download ? (plan.downloadSpeed ?? 1) : this.scale;
    const audio = this.o.audio === true && !download;
    const child = spawn(
      this.o.ffmpeg,
      streamArgs({
        label: this.o.label,
        font: this.o.font,
        playbackStart: playback ? plan.start + from : undefined,
        seconds,
        speed,
        audio,
      }),
      { stdio: ['ignore', 'pipe', 'pipe', ...(audio ? (['pipe'] as const) : [])] },
    );
    this.child = child;
    this.runFrames = 0;
    track(child);
    const muxer = (this.muxer ??= new PsMuxer({ video: 'h264', audio: audio ? 'g711a' : null }));
    const rtp = (this.rtp ??= new RtpPacketizer({ ssrc: this.o.ssrc, payloadType: plan.payloadType }));
    // A Download's time stamps are the recording's (it is written to a file); a playback's are the
    // time to show it at, so at Scale x a frame (1/FPS s of the recording) lasts 1/(FPS*x) s and
    // a player shows the recording's time advancing x times as fast as real time.
    const step = 90_000 / GB_STREAM_FPS / (download ? 1 : speed);
    let pending: Buffer = Buffer.alloc(0);
    const out = (pack: Buffer, ts: number) => {
      for (const p of rtp.packetize(pack, ts)) {
        this.packets++;
        if (this.tcp) this.tcp.write(frameRtpTcp(p));
        else this.o.udp?.send(p, plan.port, plan.address);
      }
    };
    /** audio made before this run's first video frame (whose pack carries the stream map) waits for it */
    let early: [Buffer, number][] | null = [];
    const send = (au: Buffer) => {
      const ts = Math.round(this.clock);
      this.clock += step;
      this.frames++;
      this.runFrames++;
      out(muxer.video(au, ts), ts);
      for (const [pack, t] of early ?? []) out(pack, t);
      early = null;
    };
    if (audio) {
      // 20 ms frames stamped from the sample count on the video's 90 kHz clock, this run's first
      // sample at the first video frame's time; samples already sent before a pause are skipped
      const base = Math.round((this.clock * GB_AUDIO_RATE) / 90_000);
      let samples = 0;
      let rest: Buffer = Buffer.alloc(0);
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
        if (this.child !== child) return;
        rest = rest.length ? Buffer.concat([rest, chunk]) : chunk;
        let at = 0;
        for (; at + GB_AUDIO_FRAME <= rest.length; at += GB_AUDIO_FRAME) {
          const n = base + samples;
          samples += GB_AUDIO_FRAME;
          if (n < this.audioNext) continue;
          this.audioNext = n + GB_AUDIO_FRAME;
          const ts = Math.round((n * 90_000) / GB_AUDIO_RATE);
          this.audioFrames++;
          const pack = muxer.audio(rest.subarray(at, at + GB_AUDIO_FRAME), ts);
          if (!early) out(pack, ts);
          else if (early.length < 50) early.push([pack, ts]);
        }
        rest = Buffer.from(rest.subarray(at));
      });
    }
    child.stdout!.on('data', (chunk: Buffer) => {
      if (this.child !== child) return;
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const aus = splitH264AccessUnits(pending);
      // the last unit may still grow: kept until the next one starts
      for (let i = 0; i < aus.length - 1; i++) send(aus[i]!);
      pending = aus.length ? Buffer.from(aus[aus.length - 1]!) : Buffer.alloc(0);
      if (pending.length > MAX_PENDING) pending = Buffer.alloc(0);
    });
    let said = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      said = s.trim().split('\n').pop() ?? said;
    });
    this.exited = new Promise((resolve) => {
      const done = (how: string) => {
        // paused or stopped: ended on purpose
        if (this.child !== child) return resolve();
        this.child = null;
        if (pending.length && !this.stopped) send(pending);
        if (!this.stopped) this.emit('ended', `ffmpeg ended (${how})${said ? `: ${said}` : ''}`);
        resolve();
      };
      child.once('exit', (code, signal) => done(signal ?? `code ${code}`));
      child.once('error', (err) => done(err.message));
    });
  }

  /** Ends one ffmpeg: SIGTERM, then SIGKILL. */
  private async end(child: ChildProcess, exited: Promise<void>): Promise<void> {
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(kill);
  }

  /** Stops ffmpeg (one being ended by a pause included) and closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.server?.close();
    this.server = null;
    const child = this.child;
    this.child = null;
    if (child) await this.end(child, this.exited);
    await this.control;
    this.tcp?.end();
    this.tcp = null;
  }
}
