import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { stat } from 'node:fs/promises';

const require = createRequire(import.meta.url);

/** ffmpeg of @ffmpeg-installer; ffprobe of @ffprobe-installer (a static build: JSON output, no stderr parsing). */
export const FFMPEG = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
export const FFPROBE = (require('@ffprobe-installer/ffprobe') as { path: string }).path;

/** Longest a probe or a thumbnail may take; a derivative gets longer (see `derive`). */
const TOOL_TIMEOUT_MS = 60_000;

/** Run a tool; resolves stdout, rejects with the tail of stderr on a non-zero exit or timeout. */
function run(bin: string, args: string[], timeoutMs = TOOL_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${bin.split('/').pop()} exited ${code ?? signal}: ${err.trim().split('\n').pop() ?? ''}`));
    });
  });
}

export interface ProbeResult {
  /** seconds; null when the container has none (images) */
  duration: number | null;
  width: number | null;
  height: number | null;
  video_codec: string;
  audio_codec: string;
  /** ISO time of the container's creation_time tag, null when absent */
  creation_time: string | null;
}

interface FfprobeJson {
  format?: { duration?: string; tags?: Record<string, string> };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    duration?: string;
    tags?: Record<string, string>;
    disposition?: { attached_pic?: number };
  }[];
}

/** Duration, resolution, codecs and creation time of a media file (ffprobe -print_format json). */
export async function probe(file: string): Promise<ProbeResult> {
  const out = await run(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  const json = JSON.parse(out) as FfprobeJson;
  const streams = json.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const num = (v: string | undefined) => (v !== undefined && Number.isFinite(Number(v)) ? Number(v) : null);
  const duration = num(json.format?.duration) ?? num(video?.duration) ?? num(audio?.duration);
  const tag = json.format?.tags?.creation_time ?? video?.tags?.creation_time ?? audio?.tags?.creation_time;
  const created = tag ? new Date(tag) : null;
  return {
    duration,
    width: video?.width ?? null,
    height: video?.height ?? null,
    video_codec: (video?.codec_name ?? '').slice(0, 20),
    audio_codec: (audio?.codec_name ?? '').slice(0, 20),
    // a camera without a clock writes 1970 or 1904: not a recording time
    creation_time: created && created.getUTCFullYear() > 2000 ? created.toISOString() : null,
  };
}

/** Width of thumbnails. */
export const THUMB_WIDTH = 320;

/** A JPEG THUMB_WIDTH wide: a video's frame at about 1 s (earlier in a shorter one), or the picture scaled. */
export async function thumbnail(file: string, out: string, duration: number | null): Promise<boolean> {
  const at = duration === null ? 0 : Math.min(1, duration / 2);
  const seek = at > 0 ? ['-ss', at.toFixed(2)] : [];
  try {
    await run(FFMPEG, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      ...seek,
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      `scale=${THUMB_WIDTH}:-2`,
      '-q:v',
      '4',
      '-f',
      'image2',
      out,
    ]);
    return ((await stat(out).catch(() => null))?.size ?? 0) > 0;
  } catch {
    return false;
  }
}

/**
 * A browser-playable copy: H.264/AAC MP4 for video, AAC in MP4 (m4a) for audio, with the index
 * at the front (`+faststart`) so playback starts before the whole file arrived.
 */
export async function derive(file: string, out: string, kind: 'video' | 'audio', hasAudio: boolean): Promise<void> {
  const codecs =
    kind === 'video'
      ? [
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '23',
          '-pix_fmt',
          'yuv420p',
          '-vf',
          'scale=trunc(iw/2)*2:trunc(ih/2)*2',
          ...(hasAudio ? ['-c:a', 'aac', '-b:a', '128k'] : ['-an']),
        ]
      : ['-vn', '-c:a', 'aac', '-b:a', '128k'];
  // a long recording takes long to convert; bounded all the same (ten times real time of an hour)
  await run(
    FFMPEG,
    ['-hide_banner', '-loglevel', 'error', '-y', '-i', file, ...codecs, '-movflags', '+faststart', '-f', 'mp4', out],
    6 * 60 * 60_000,
  );
}

/** The same streams in an MP4 (index in front): a gateway recording (FLV of H.264/AAC) made playable as it is. */
export async function remuxToMp4(file: string, out: string): Promise<void> {
  await run(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    file,
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    out,
  ]);
}
