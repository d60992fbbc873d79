import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants, accessSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { AUDIO_SAMPLE_RATE, readOggOpusPackets } from '@bwc/protocol';
import { findFfmpeg } from '../camera';

/**
 * The audio of a simulated terminal's bursts: speech (espeak-ng, when installed) or a tone,
 * encoded once by ffmpeg to Opus in Ogg (48 kHz mono, 20 ms packets, as the talk protocol
 * carries them) and kept in a cache directory, so a fleet encodes each clip once; and the way
 * back, Ogg Opus to PCM, for the checks of what a listener received.
 */

/** What a burst says: a tone (Hz), or a text spoken by espeak-ng. */
export type BurstSource = { tone: number } | { speech: string; voice?: string };

/** Where encoded clips are kept between runs. */
export const TALK_CACHE_DIR = join(tmpdir(), 'bwc-sim-talk');

/** Opus bit rate of the clips: speech quality at the size of a radio's voice channel. */
const OPUS_BITRATE = '24k';

/** The espeak-ng program on PATH, or null. */
export function findEspeak(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, 'espeak-ng');
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not in this directory
    }
  }
  return null;
}

/**
 * The audio tools are missing or failed: no burst can be made or checked with them (a fleet says
 * so once and stops talking), unlike a refused request.
 */
export class TalkMediaError extends Error {
  override name = 'TalkMediaError';
}

/** Run a program; its standard output, or a TalkMediaError with its standard error. */
function run(program: string, args: string[], input?: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', (e) => reject(new TalkMediaError(`${program}: ${e.message}`)));
    child.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(out))
        : reject(new TalkMediaError(`${program} exited ${code}: ${err.trim().slice(-300)}`)),
    );
    // a program that stops reading early (an error) must not fail the write as well
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

function needFfmpeg(ffmpeg: string | null | undefined): string {
  const path = ffmpeg ?? findFfmpeg();
  if (!path) throw new TalkMediaError('no ffmpeg binary for this platform (@ffmpeg-installer/ffmpeg)');
  return path;
}

const clips = new Map<string, Promise<Uint8Array[]>>();

/**
 * The Opus packets (20 ms each) of `seconds` of `source`: speech is cut or padded with silence
 * to that length. Encoded at the first call and cached (in this process and in TALK_CACHE_DIR).
 */
export function burstPackets(
  source: BurstSource,
  seconds: number,
  options: { ffmpeg?: string | null; espeak?: string | null; cacheDir?: string } = {},
): Promise<Uint8Array[]> {
  const what =
    'tone' in source
      ? `tone-${source.tone}hz`
      : `speech-${createHash('sha256')
          .update(`${source.voice ?? ''}\n${source.speech}`)
          .digest('hex')
          .slice(0, 16)}`;
  const dir = options.cacheDir ?? TALK_CACHE_DIR;
  const file = join(dir, `${what}-${seconds}s.opus`);
  let clip = clips.get(file);
  if (!clip) {
    clip = encodeClip(source, seconds, file, options).catch((err: unknown) => {
      // a cache directory that cannot be written stops talking as surely as a missing ffmpeg
      throw err instanceof TalkMediaError ? err : new TalkMediaError((err as Error).message);
    });
    clips.set(file, clip);
    clip.catch(() => clips.delete(file));
  }
  return clip;
}

async function encodeClip(
  source: BurstSource,
  seconds: number,
  file: string,
  options: { ffmpeg?: string | null; espeak?: string | null; cacheDir?: string },
): Promise<Uint8Array[]> {
  try {
    return readPackets(new Uint8Array(readFileSync(file)));
  } catch {
    // not cached yet (or a damaged file, made again)
  }
  const ffmpeg = needFfmpeg(options.ffmpeg);
  mkdirSync(join(file, '..'), { recursive: true });
  const part = `${file}.${process.pid}.${Date.now().toString(36)}`;
  const wav = `${part}.wav`;
  try {
    let input: string[];
    if ('tone' in source) {
      input = ['-f', 'lavfi', '-i', `sine=frequency=${source.tone}:sample_rate=${AUDIO_SAMPLE_RATE}`];
    } else {
      const espeak = options.espeak === undefined ? findEspeak() : options.espeak;
      if (!espeak) throw new TalkMediaError('speech needs espeak-ng on PATH');
      await run(espeak, ['-v', source.voice ?? 'en', '-w', wav, source.speech]);
      input = ['-i', wav, '-af', 'apad'];
    }
    await run(ffmpeg, [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...input, '-t', String(seconds)],
      ...['-ac', '1', '-ar', String(AUDIO_SAMPLE_RATE), '-c:a', 'libopus', '-b:a', OPUS_BITRATE],
      ...['-application', 'voip', '-frame_duration', '20', '-f', 'ogg', part],
    ]);
    // renamed into place whole, so a concurrent simulator never reads half a file
    const packets = readPackets(new Uint8Array(readFileSync(part)));
    renameSync(part, file);
    return packets;
  } finally {
    rmSync(part, { force: true });
    rmSync(wav, { force: true });
  }
}

function readPackets(ogg: Uint8Array): Uint8Array[] {
  let packets: Uint8Array[];
  try {
    packets = readOggOpusPackets(ogg).packets;
  } catch (err) {
    throw new TalkMediaError(`ffmpeg wrote no readable Ogg Opus: ${(err as Error).message}`);
  }
  if (!packets.length) throw new TalkMediaError('ffmpeg wrote no audio');
  return packets;
}

/** Decode an Ogg Opus file with ffmpeg to 16-bit mono PCM at 48 kHz. */
export async function decodeOgg(bytes: Uint8Array, ffmpeg?: string | null): Promise<Int16Array> {
  const pcm = await run(
    needFfmpeg(ffmpeg),
    [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'ogg', '-i', 'pipe:0'],
      ...['-f', 's16le', '-ac', '1', '-ar', String(AUDIO_SAMPLE_RATE), 'pipe:1'],
    ],
    bytes,
  );
  // copied: the Buffer may start at an odd offset of its pool
  return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength - (pcm.byteLength % 2)));
}
