import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SEND_CMD_TYPES } from '@bwc/protocol';
import { CLOCK_STRIP, CLOCK_STRIP_MODULUS } from './clock-strip';

export { CLOCK_STRIP, CLOCK_STRIP_MODULUS, clockStripAgeMs, readClockStrip } from './clock-strip';

/**
 * A simulated camera's live picture: ffmpeg publishing H.264 + AAC over RTMP to the URL of a
 * `startlive` command, as a body-worn camera does. The picture is a moving test pattern with the
 * officer's name, the device number, a wall clock, the state the console's camera commands change
 * (pan, REC, AUDIO, MUTE, PHOTO) and the machine-readable clock strip of clock-strip.ts.
 *
 * The publish key of a URL works once, so nothing may restart ffmpeg while it publishes: the
 * commands reach the running process instead. Text comes from files that drawtext re-reads every
 * frame (reload=1, replaced atomically by rename); the pan (a crop window moving over a wider
 * pattern) and the mute (the tone's volume) go through ffmpeg's own command prompt on its stdin
 * ("c<filter> -1 <command> <argument>"), which sends a command to a filter of the running graph.
 */

export type CameraCommand = (typeof SEND_CMD_TYPES)[number];

/** Frames per second; the keyframe interval is one second (a viewer joins within a second). */
export const CAMERA_FPS = 15;
export const CAMERA_WIDTH = CLOCK_STRIP.frameWidth;
export const CAMERA_HEIGHT = CLOCK_STRIP.frameHeight;
/** The pattern is this much wider than the picture: the pan moves the picture's window over it. */
const SOURCE_WIDTH = 960;
/** One turnleft / turnright turns this far; the pan stays within ±PAN_LIMIT. */
export const PAN_STEP = 15;
export const PAN_LIMIT = 90;
/** How long `takephoto` shows PHOTO, ms */
const PHOTO_MS = 1_000;
/** The tone's volume when not muted (a quiet 440 Hz beep rather than a loud whistle) */
const TONE_VOLUME = 0.25;
/** After SIGTERM, ffmpeg gets this long to close the stream before SIGKILL, ms */
const STOP_GRACE_MS = 3_000;

const require = createRequire(import.meta.url);

/** The ffmpeg binary of @ffmpeg-installer/ffmpeg, or null when its platform package is missing. */
export function findFfmpeg(): string | null {
  try {
    const path = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/**
 * Fonts drawtext can use, best first: the officers' names are Chinese, so a CJK font comes first;
 * DejaVu or Liberation still draw the device number, clock and state (the names as boxes).
 * BWC_SIM_FONT names another.
 */
const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/System/Library/Fonts/PingFang.ttc',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
];

export function findFont(): string | null {
  const own = process.env.BWC_SIM_FONT;
  if (own) return existsSync(own) ? own : null;
  return FONT_CANDIDATES.find((f) => existsSync(f)) ?? null;
}

/**
 * geq expression of the clock strip (see clock-strip.ts), evaluated per pixel of the strip only.
 * T is the frame's time in seconds: the strip's frames carry the wall clock (setpts=RTCTIME) at
 * the moment the filter graph takes them, which with -re is when the frame is due: its capture.
 * Luma 16 / 235 (video black / white) decode to RGB 0 / 255. The block index is not kept in a
 * variable: this ffmpeg's geq shares its variables between slice threads, and a per-pixel one
 * raced (a wrong block now and then); the graph also runs on one thread (-filter_complex_threads).
 */
function clockStripExpression(): string {
  const { block, bits } = CLOCK_STRIP;
  const bit = (i: string) => `mod(floor(ld(0)/pow(2,${i})),2)`;
  const ones = Array.from({ length: bits }, (_, i) => bit(String(i))).join('+');
  const k = `floor(X/${block})`;
  return [
    `st(0,mod(floor(T*1000),${CLOCK_STRIP_MODULUS}))`,
    `16+219*if(eq(${k},0),1,if(eq(${k},1),0,if(lt(${k},${bits + 2}),${bit(`${k}-2`)},mod(${ones},2))))`,
  ].join(';');
}

/**
 * A filter option's value in -filter_complex: escaped for the option parser (`\ ' :`), then for
 * the graph parser (`\ ' [ ] , ;`), so paths and the geq expression's commas arrive as written.
 */
const value = (v: string) => v.replace(/[\\':]/g, '\\$&').replace(/[\\'[\],;]/g, '\\$&');

export interface CameraArgsInput {
  /** where to publish: an rtmp:// URL, or a file path (tests) */
  url: string;
  /** the folder of the text files drawtext reads */
  dir: string;
  /** font for drawtext; null: no text, only the pattern and the clock strip */
  font: string | null;
  pan: number;
  mute: boolean;
  /** stop after this many seconds (tests); default: until stopped */
  seconds?: number;
}

/** The text files of a camera's picture, relative to its folder. */
const FILES = { identity: 'identity.txt', state: 'state.txt', pan: 'pan.txt' } as const;

function cropX(pan: number): number {
  return Math.round(((pan + PAN_LIMIT) / (2 * PAN_LIMIT)) * (SOURCE_WIDTH - CAMERA_WIDTH));
}

/** ffmpeg's arguments for one camera. */
export function cameraArgs(input: CameraArgsInput): string[] {
  const { block, blocks, x, y } = CLOCK_STRIP;
  const text = (file: string | null, opts: string) =>
    input.font
      ? `,drawtext=fontfile=${value(input.font)}:${file ? `textfile=${value(join(input.dir, file))}:` : ''}fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=4:${opts}`
      : '';
  const graph = [
    // the frame count as timestamps on both branches, so overlay pairs each frame with its strip
    `[0:v]settb=1/${CAMERA_FPS},setpts=N,crop@pan=${CAMERA_WIDTH}:${CAMERA_HEIGHT}:${cropX(input.pan)}:0,split[bg][s]`,
    `[s]crop=${blocks * block}:${block}:${x}:${y},settb=AVTB,setpts=RTCTIME,` +
      `geq=lum=${value(clockStripExpression())}:cb=128:cr=128,settb=1/${CAMERA_FPS},setpts=N[clock]`,
    `[bg]drawbox=x=0:y=0:w=iw:h=68:color=black@0.6:t=fill` +
      text(FILES.identity, 'x=12:y=8:fontsize=22') +
      // %{localtime} with no format argument is "%Y-%m-%d %H:%M:%S" (no colons to escape here)
      text(null, 'text=%{localtime}:x=12:y=38:fontsize=18') +
      text(FILES.state, 'reload=1:x=w-tw-12:y=10:fontsize=26:fontcolor=red') +
      text(FILES.pan, `reload=1:x=(w-tw)/2:y=${y - 64}:fontsize=18:line_spacing=4`) +
      '[pic]',
    `[pic][clock]overlay=${x}:${y}[v]`,
    `[1:a]volume@mute=${input.mute ? 0 : TONE_VOLUME}[a]`,
  ].join(';');
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostats'],
    ...['-re', '-f', 'lavfi', '-i', `testsrc2=size=${SOURCE_WIDTH}x${CAMERA_HEIGHT}:rate=${CAMERA_FPS}`],
    ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:beep_factor=2:sample_rate=44100'],
    ...['-filter_complex_threads', '1', '-filter_complex', graph, '-map', '[v]', '-map', '[a]'],
    ...(input.seconds ? ['-t', String(input.seconds)] : []),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline'],
    ...['-pix_fmt', 'yuv420p', '-g', String(CAMERA_FPS), '-keyint_min', String(CAMERA_FPS), '-sc_threshold', '0'],
    ...['-b:v', '800k', '-maxrate', '1000k', '-bufsize', '1000k'],
    ...['-c:a', 'aac', '-b:a', '64k', '-ac', '1'],
    ...['-f', 'flv', input.url],
  ];
}

/** ffmpeg processes alive in this process: killed when it exits, so none outlives the simulator. */
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

export interface SimCameraOptions {
  identity: { hostname: string; hostbody: string };
  /** one line when ffmpeg ends by itself (the server refused the key or kicked the stream) */
  log?: (line: string) => void;
  /** called when the camera starts or stops publishing */
  onChange?: () => void;
  /** default: findFfmpeg() */
  ffmpeg?: string | null;
  /** default: findFont() */
  font?: string | null;
}

/** One device's camera. Its state (pan, REC, ...) outlives a publish: a new startlive shows it again. */
export class SimCamera {
  pan = 0;
  rec = false;
  audio = false;
  mute = false;
  private photoUntil = 0;
  private photoTimer: NodeJS.Timeout | null = null;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private dir: string | null = null;
  private stopping = false;
  private readonly ffmpeg: string | null;
  private readonly font: string | null;
  private readonly log: (line: string) => void;

  constructor(private readonly options: SimCameraOptions) {
    this.ffmpeg = options.ffmpeg === undefined ? findFfmpeg() : options.ffmpeg;
    this.font = options.font === undefined ? findFont() : options.font;
    this.log = options.log ?? (() => {});
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** The ffmpeg process id while publishing. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Publish to `url` (an rtmp:// URL; a file path works too), replacing a running publish. */
  async start(url: string, opts: { seconds?: number } = {}): Promise<void> {
    await this.stop();
    if (!this.ffmpeg) throw new Error('no ffmpeg binary (@ffmpeg-installer/ffmpeg has none for this platform)');
    const dir = mkdtempSync(join(tmpdir(), 'bwc-cam-'));
    this.dir = dir;
    this.writeText();
    const child = spawn(
      this.ffmpeg,
      cameraArgs({ url, dir, font: this.font, pan: this.pan, mute: this.mute, seconds: opts.seconds }),
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    this.child = child;
    this.stopping = false;
    track(child);
    // the last thing ffmpeg said, for the line logged when it ends by itself; its command prompt
    // echoes ("Enter command", "Command reply") are not worth it
    let said = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        const l = line.trim();
        if (l && !l.startsWith('Enter command') && !l.startsWith('Command reply')) said = l;
      }
    });
    // the prompt's writes fail once ffmpeg is gone: the exit handler tells the story
    child.stdin!.on('error', () => {});
    this.exited = new Promise((resolve) => {
      const done = (how: string) => {
        if (this.child !== child) return resolve();
        this.child = null;
        rmSync(dir, { recursive: true, force: true });
        if (this.dir === dir) this.dir = null;
        if (!this.stopping) this.log(`camera ${this.options.identity.hostbody}: ffmpeg ended (${how})${said ? `: ${said}` : ''}`);
        this.options.onChange?.();
        resolve();
      };
      child.once('exit', (code, signal) => done(signal ?? `code ${code}`));
      child.once('error', (err) => done(err.message));
    });
    this.options.onChange?.();
  }

  /** Stop publishing (SIGTERM, then SIGKILL after a grace time); true if it was publishing. */
  async stop(): Promise<boolean> {
    const child = this.child;
    if (!child) return false;
    this.stopping = true;
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(kill);
    return true;
  }

  /** Obey a console's camera command (send_cmd); answers what happened, for the ack. */
  command(type: CameraCommand): string {
    switch (type) {
      case 'turnleft':
      case 'turnright': {
        const next = Math.max(-PAN_LIMIT, Math.min(PAN_LIMIT, this.pan + (type === 'turnleft' ? -PAN_STEP : PAN_STEP)));
        if (next === this.pan) return `already at ${this.pan}° (the pan limit)`;
        this.pan = next;
        this.send('crop@pan', 'x', String(cropX(next)));
        this.writeText();
        return `panned to ${next}°`;
      }
      case 'takephoto':
        this.photoUntil = Date.now() + PHOTO_MS;
        if (this.photoTimer) clearTimeout(this.photoTimer);
        this.photoTimer = setTimeout(() => {
          this.photoTimer = null;
          this.writeText();
        }, PHOTO_MS).unref();
        this.writeText();
        return 'photo taken';
      case 'startvideo':
        this.rec = true;
        this.writeText();
        return 'recording';
      case 'startaudio':
      case 'stopaudio':
        this.audio = type === 'startaudio';
        this.writeText();
        return this.audio ? 'audio recording on' : 'audio recording off';
      case 'startmute':
      case 'stopmute':
        this.mute = type === 'startmute';
        this.send('volume@mute', 'volume', String(this.mute ? 0 : TONE_VOLUME));
        this.writeText();
        return this.mute ? 'muted' : 'unmuted';
    }
  }

  /** A command to a filter of the running ffmpeg through its command prompt. */
  private send(target: string, command: string, arg: string): void {
    if (this.child?.stdin?.writable) this.child.stdin.write(`c${target} -1 ${command} ${arg}\n`);
  }

  /** The picture's text files; each replaced whole, so drawtext never reads half a file. */
  private writeText(): void {
    const dir = this.dir;
    if (!dir) return;
    const { hostname, hostbody } = this.options.identity;
    const state = [
      this.rec && 'REC',
      this.audio && 'AUDIO',
      this.mute && 'MUTE',
      Date.now() < this.photoUntil && 'PHOTO',
    ].filter(Boolean);
    // the pan as a tape: one mark per step from -90° to +90°, the bar where the camera looks
    const tape = Array.from({ length: (2 * PAN_LIMIT) / PAN_STEP + 1 }, (_, i) =>
      -PAN_LIMIT + i * PAN_STEP === this.pan ? '|' : '.',
    ).join(' ');
    const files: Record<string, string> = {
      [FILES.identity]: `${hostname}  ${hostbody}`,
      // drawtext draws nothing for an empty text but still wants a file
      [FILES.state]: state.join('  ') || ' ',
      [FILES.pan]: `PAN ${this.pan > 0 ? '+' : ''}${this.pan}°\nL ${tape} R`,
    };
    for (const [name, content] of Object.entries(files)) {
      const path = join(dir, name);
      writeFileSync(`${path}.tmp`, content);
      renameSync(`${path}.tmp`, path);
    }
  }
}
