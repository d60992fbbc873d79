import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFfmpeg, findFont } from '../camera';
import { findEspeak } from '../talk/media';
import { dominantTone } from '../talk/tone';
import { CLIP_HEIGHT, CLIP_WIDTH, recordClip, RecorderError } from './recorder';

const FFMPEG = findFfmpeg();
const dir = mkdtempSync(join(tmpdir(), 'bwc-rec-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const identity = { hostbody: 'SIMREC01', hostname: '王伟' };

/** ffmpeg run on `args`: its exit code, standard output and standard error. */
function ffmpeg(args: string[]): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG!, ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: Buffer.concat(out), err }));
  });
}

/** What `ffmpeg -i` says of a file: its duration in seconds and its stream lines. */
async function probe(file: string): Promise<{ seconds: number; streams: string[]; text: string }> {
  const { err } = await ffmpeg(['-i', file]);
  const m = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(err);
  return {
    seconds: m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN,
    streams: err.split('\n').filter((l) => /Stream #/.test(l)),
    text: err,
  };
}

/** Decode the whole file (every frame and sample): the errors ffmpeg reports, '' when none. */
async function decodeErrors(file: string): Promise<string> {
  const { code, err } = await ffmpeg(['-v', 'error', '-i', file, '-f', 'null', '-']);
  return code === 0 ? err.trim() : `exit ${code}: ${err}`;
}

describe.runIf(FFMPEG)('recordClip', () => {
  it('records a playable H.264 + AAC MP4 of the asked length at 640x360, with its creation time', async () => {
    const at = new Date('2025-03-04T05:06:07.089Z');
    const clip = await recordClip({ kind: 'video', dir, identity, at, seconds: 6 });
    expect(clip).toMatchObject({
      kind: 'video',
      filename: 'SIMREC01_20250304050607.mp4',
      filetype: 'video/mp4',
      fileid: 'SIMREC01-20250304050607089',
      recorded_at: at.toISOString(),
      seconds: 6,
    });
    expect(clip.size).toBe(statSync(clip.path).size);
    expect(readFileSync(clip.path).subarray(4, 8).toString('latin1')).toBe('ftyp');
    const p = await probe(clip.path);
    expect(p.seconds).toBeGreaterThanOrEqual(5.9);
    expect(p.seconds).toBeLessThanOrEqual(6.2);
    expect(p.streams.some((s) => /Video: h264/.test(s) && s.includes(`${CLIP_WIDTH}x${CLIP_HEIGHT}`))).toBe(true);
    expect(p.streams.some((s) => /Audio: aac/.test(s))).toBe(true);
    expect(p.text).toContain('creation_time   : 2025-03-04T05:06:07');
    expect(await decodeErrors(clip.path)).toBe('');
    // nothing but the clip is left in the folder
    expect(readdirSync(dir)).toEqual([clip.filename]);
  }, 60_000);

  it.runIf(findFont())(
    'draws the name, number and clock in (a picture with a font differs from one without)',
    async () => {
      const at = new Date('2025-03-04T05:06:08.000Z');
      const sub = join(dir, 'fonts');
      const font = findFont();
      const a = await recordClip({ kind: 'photo', dir: sub, identity, at, font });
      const withText = readFileSync(a.path);
      rmSync(a.path);
      const b = await recordClip({ kind: 'photo', dir: sub, identity, at, font: null });
      expect(readFileSync(b.path).equals(withText)).toBe(false);
    },
    60_000,
  );

  it('records an audio clip as MP3: speech when espeak-ng is installed, else a tone it can be told by', async () => {
    const speech = await recordClip({ kind: 'audio', dir, identity, seconds: 5, at: new Date('2025-03-04T05:06:09Z') });
    expect(speech).toMatchObject({ filetype: 'audio/mpeg', seconds: 5 });
    expect(speech.filename.endsWith('.mp3')).toBe(true);
    const p = await probe(speech.path);
    expect(p.streams.some((s) => /Audio: mp3/.test(s))).toBe(true);
    expect(p.seconds).toBeGreaterThanOrEqual(4.9);
    expect(p.seconds).toBeLessThanOrEqual(5.3);
    expect(await decodeErrors(speech.path)).toBe('');

    const tone = await recordClip({
      kind: 'audio',
      dir,
      identity,
      seconds: 4,
      espeak: null,
      at: new Date('2025-03-04T05:06:10Z'),
    });
    const pcmOf = async (file: string) => {
      const { out } = await ffmpeg(['-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '22050', '-']);
      return new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength - (out.byteLength % 2)));
    };
    expect(dominantTone(await pcmOf(tone.path), 22050)!.strength).toBeGreaterThan(0.9);
    if (findEspeak()) expect(dominantTone(await pcmOf(speech.path), 22050)!.strength).toBeLessThan(0.5);
  }, 60_000);

  it('takes a JPEG photo of the test picture', async () => {
    const photo = await recordClip({ kind: 'photo', dir, identity, at: new Date('2025-03-04T05:06:11Z') });
    expect(photo).toMatchObject({ kind: 'photo', filetype: 'image/jpeg', seconds: null });
    expect(photo.filename).toBe('SIMREC01_20250304050611.jpg');
    expect([...readFileSync(photo.path).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const p = await probe(photo.path);
    expect(p.streams.some((s) => /Video: mjpeg/.test(s) && s.includes(`${CLIP_WIDTH}x${CLIP_HEIGHT}`))).toBe(true);
  }, 60_000);

  it('fails with a RecorderError, leaving no file, when ffmpeg is missing or fails', async () => {
    const sub = join(dir, 'broken');
    await expect(recordClip({ kind: 'video', dir: sub, identity, ffmpeg: null })).rejects.toThrow(RecorderError);
    await expect(
      recordClip({ kind: 'video', dir: sub, identity, ffmpeg: join(dir, 'no-such-ffmpeg'), seconds: 5 }),
    ).rejects.toThrow(RecorderError);
    // a program that exits 1 in ffmpeg's place
    await expect(recordClip({ kind: 'photo', dir: sub, identity, ffmpeg: '/bin/false' })).rejects.toThrow(
      /false exited 1/,
    );
    expect(readdirSync(sub)).toEqual([]);
  }, 60_000);
});
