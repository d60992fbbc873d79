import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFfmpeg, findFont } from '../camera';
import { findEspeak } from '../talk/media';
import { toneOf } from '../talk/tone';

/**
 * What a simulated camera records as evidence: real files made by the static ffmpeg of
 * @ffmpeg-installer/ffmpeg, as a body-worn camera writes them to its card. A video is the test
 * pattern (testsrc2) with the officer's name, the device number and the recording's running clock
 * drawn in, H.264 + AAC in MP4 at 640x360; an audio clip is speech by espeak-ng (a tone when it is
 * not installed) in MP3; a photo is one JPEG frame of the same picture. Encoding is kept cheap
 * (ultrafast, one thread, small bit rates) so that a fleet recording now and then does not load
 * the machine.
 */

export type ClipKind = 'video' | 'audio' | 'photo';

export const CLIP_WIDTH = 640;
export const CLIP_HEIGHT = 360;
const CLIP_FPS = 15;
/** Video clips last 5 to 20 s, audio clips 4 to 10 s (drawn per clip when not given). */
export const VIDEO_SECONDS: [number, number] = [5, 20];
export const AUDIO_SECONDS: [number, number] = [4, 10];

/** What an audio clip says when espeak-ng is installed: a short note, as an officer dictates one. */
const NOTES: { speech: string; voice: string }[] = [
  { speech: '现场记录开始，当事人在场', voice: 'cmn' },
  { speech: '已告知执法记录仪正在录音', voice: 'cmn' },
  { speech: '车辆已停靠路边，正在核查证件', voice: 'cmn' },
  { speech: 'Recording started, both parties present', voice: 'en' },
];

export interface RecordedClip {
  kind: ClipKind;
  /** the file, in the camera's folder */
  path: string;
  /** its name as uploaded: <hostbody>_<yyyymmddhhmmss>.<ext> */
  filename: string;
  filetype: string;
  /** the device's own id of the file: the same clip always has the same one */
  fileid: string;
  /** when the recording started, ISO */
  recorded_at: string;
  /** seconds (null for a photo) */
  seconds: number | null;
  size: number;
}

export interface RecordInput {
  kind: ClipKind;
  /** the camera's folder: the clip is written there (made when missing) */
  dir: string;
  identity: { hostbody: string; hostname: string };
  /** when the recording starts (default now) */
  at?: Date;
  /** length of a video or audio clip (default: drawn from VIDEO_SECONDS / AUDIO_SECONDS) */
  seconds?: number;
  /** picks the length and the spoken note (default Math.random) */
  random?: () => number;
  /** default findFfmpeg() */
  ffmpeg?: string | null;
  /** default findFont(); null: the picture without text */
  font?: string | null;
  /** default findEspeak(); null: audio clips are a tone */
  espeak?: string | null;
}

/** ffmpeg (or espeak-ng) is missing or failed: no clip can be made with it. */
export class RecorderError extends Error {
  override name = 'RecorderError';
}

const EXT: Record<ClipKind, { ext: string; filetype: string }> = {
  video: { ext: 'mp4', filetype: 'video/mp4' },
  audio: { ext: 'mp3', filetype: 'audio/mpeg' },
  photo: { ext: 'jpg', filetype: 'image/jpeg' },
};

/** 20250102T030405.678Z -> 20250102030405678 (local time of the clock drawn in is the machine's) */
function stamp(at: Date): string {
  return at.toISOString().replace(/[-:TZ.]/g, '');
}

/** A filter option's value in -filter_complex: escaped for the option parser, then for the graph parser. */
const value = (v: string) => v.replace(/[\\':]/g, '\\$&').replace(/[\\'[\],;]/g, '\\$&');

function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
    child.on('error', (e) => reject(new RecorderError(`${program}: ${e.message}`)));
    child.on('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new RecorderError(`${program} exited ${signal ?? code}: ${err.trim().slice(-300)}`)),
    );
  });
}

/** The picture's filter chain: test pattern, a dark band with name, number and running clock. */
function pictureFilter(font: string | null, identityFile: string, epochS: number): string {
  const text = (source: string, opts: string) =>
    font
      ? `,drawtext=fontfile=${value(font)}:${source}:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=4:${opts}`
      : '';
  return (
    `[0:v]drawbox=x=0:y=0:w=iw:h=68:color=black@0.6:t=fill` +
    text(`textfile=${value(identityFile)}`, 'x=12:y=8:fontsize=22') +
    // the recording's clock: its start plus the frame's time ("%Y-%m-%d %H:%M:%S", local time)
    text(`text=${value(`%{pts:localtime:${epochS}}`)}`, 'x=12:y=38:fontsize=18') +
    text('text=REC', 'x=w-tw-12:y=10:fontsize=26:fontcolor=red') +
    '[v]'
  );
}

const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
/** one thread for filters and encoder: a recording takes one core at most, for a second or two */
const LIGHT = ['-filter_complex_threads', '1', '-threads', '1'];

/**
 * Record one clip into `input.dir`. The file appears under its final name only when complete
 * (written as .part, then renamed), so a queue never sees half a clip.
 */
export async function recordClip(input: RecordInput): Promise<RecordedClip> {
  const ffmpeg = input.ffmpeg === undefined ? findFfmpeg() : input.ffmpeg;
  if (!ffmpeg) throw new RecorderError('no ffmpeg binary for this platform (@ffmpeg-installer/ffmpeg)');
  const font = input.font === undefined ? findFont() : input.font;
  const random = input.random ?? Math.random;
  const at = input.at ?? new Date();
  const { hostbody, hostname } = input.identity;
  const { ext, filetype } = EXT[input.kind];
  const filename = `${hostbody}_${stamp(at).slice(0, 14)}.${ext}`;
  const fileid = `${hostbody}-${stamp(at)}`;
  mkdirSync(input.dir, { recursive: true });
  const path = join(input.dir, filename);
  const part = `${path}.part`;
  const scratch: string[] = [part];
  const epochS = Math.floor(at.getTime() / 1000);
  const creation = ['-metadata', `creation_time=${at.toISOString()}`];
  const draw = (n: [number, number]) => Math.round(n[0] + (n[1] - n[0]) * random());
  let seconds: number | null = null;
  try {
    if (input.kind === 'audio') {
      seconds = input.seconds ?? draw(AUDIO_SECONDS);
      const espeak = input.espeak === undefined ? findEspeak() : input.espeak;
      let source: string[];
      if (espeak) {
        const note = NOTES[Math.floor(random() * NOTES.length)]!;
        const wav = `${path}.speech.wav`;
        scratch.push(wav);
        await run(espeak, ['-v', note.voice, '-w', wav, note.speech]);
        // padded with silence to the clip's length
        source = ['-i', wav, '-af', 'apad'];
      } else {
        source = ['-f', 'lavfi', '-i', `sine=frequency=${toneOf(hostbody.length + epochS)}:sample_rate=22050`];
      }
      await run(ffmpeg, [
        ...QUIET,
        ...source,
        ...['-t', String(seconds), '-ac', '1', '-ar', '22050', '-c:a', 'libmp3lame', '-b:a', '48k'],
        ...creation,
        ...['-f', 'mp3', part],
      ]);
    } else {
      const identityFile = `${path}.identity.txt`;
      scratch.push(identityFile);
      writeFileSync(identityFile, `${hostname}  ${hostbody}`);
      const graph = pictureFilter(font, identityFile, epochS);
      const pattern = ['-f', 'lavfi', '-i', `testsrc2=size=${CLIP_WIDTH}x${CLIP_HEIGHT}:rate=${CLIP_FPS}`];
      if (input.kind === 'photo') {
        await run(ffmpeg, [
          ...QUIET,
          ...pattern,
          ...LIGHT,
          ...['-filter_complex', graph, '-map', '[v]', '-frames:v', '1'],
          ...['-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-q:v', '5', '-f', 'mjpeg', part],
        ]);
      } else {
        seconds = input.seconds ?? draw(VIDEO_SECONDS);
        await run(ffmpeg, [
          ...QUIET,
          ...pattern,
          ...['-f', 'lavfi', '-i', `sine=frequency=${toneOf(epochS)}:beep_factor=4:sample_rate=44100`],
          ...LIGHT,
          ...['-filter_complex', `${graph};[1:a]volume=0.25[a]`, '-map', '[v]', '-map', '[a]'],
          ...['-t', String(seconds)],
          ...['-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p'],
          ...['-g', String(CLIP_FPS * 2), '-b:v', '400k', '-maxrate', '500k', '-bufsize', '1000k'],
          ...['-c:a', 'aac', '-b:a', '48k', '-ac', '1'],
          ...creation,
          ...['-movflags', '+faststart', '-f', 'mp4', part],
        ]);
      }
    }
    renameSync(part, path);
  } finally {
    for (const f of scratch) rmSync(f, { force: true });
  }
  return {
    kind: input.kind,
    path,
    filename,
    filetype,
    fileid,
    recorded_at: at.toISOString(),
    seconds,
    size: statSync(path).size,
  };
}
