import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OggOpusWriter, opusPacketSamples } from '@bwc/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { findFfmpeg } from '../camera';
import { burstPackets, decodeOgg, findEspeak, TalkMediaError } from './media';
import { toneDetect } from './tone';

const FFMPEG = findFfmpeg();

function ogg(packets: Uint8Array[]): Uint8Array {
  const writer = new OggOpusWriter({ serial: 1 });
  return Buffer.concat([writer.header(), ...packets.map((p) => writer.packet(p)), writer.end()]);
}

describe('findEspeak', () => {
  it('looks for espeak-ng on PATH only', () => {
    expect(findEspeak({ PATH: '' })).toBeNull();
    expect(findEspeak({ PATH: join(tmpdir(), 'no-such-directory') })).toBeNull();
  });
});

describe.skipIf(!FFMPEG)('burst audio (ffmpeg)', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'talk-cache-'));
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('encodes a tone to 20 ms Opus packets once, cached in this process and on disk', async () => {
    const first = burstPackets({ tone: 700 }, 1, { cacheDir });
    expect(burstPackets({ tone: 700 }, 1, { cacheDir })).toBe(first);
    const packets = await first;
    // one second and libopus's 312 samples of delay
    expect(packets.length).toBe(51);
    expect(packets.every((p) => opusPacketSamples(p) === 960)).toBe(true);
    expect(existsSync(join(cacheDir, 'tone-700hz-1s.opus'))).toBe(true);
  });

  it('decodes what it encoded back to the tone, which a listener finds and tells from its neighbours', async () => {
    const pcm = await decodeOgg(ogg(await burstPackets({ tone: 1200 }, 2, { cacheDir })));
    expect(pcm.length).toBeGreaterThanOrEqual(96_000);
    expect(toneDetect(pcm, 48_000, 1200)).toBeGreaterThan(0.8);
    expect(toneDetect(pcm, 48_000, 1100)).toBeLessThan(0.05);
    expect(toneDetect(pcm, 48_000, 1300)).toBeLessThan(0.05);
  });

  it('refuses speech without espeak-ng and says so', async () => {
    await expect(burstPackets({ speech: 'unit one' }, 1, { cacheDir, espeak: null })).rejects.toThrow(/espeak-ng/);
  });

  it('fails with a TalkMediaError when ffmpeg is missing or broken, and tries again at the next call', async () => {
    const missing = burstPackets({ tone: 900 }, 1, { cacheDir, ffmpeg: join(cacheDir, 'no-ffmpeg') });
    await expect(missing).rejects.toBeInstanceOf(TalkMediaError);
    const broken = burstPackets({ tone: 900 }, 1, { cacheDir, ffmpeg: '/bin/false' });
    await expect(broken).rejects.toThrow(/exited 1/);
    expect((await burstPackets({ tone: 900 }, 1, { cacheDir })).length).toBe(51);
  });

  it.skipIf(!findEspeak())('speaks a text with espeak-ng, padded to the length asked', async () => {
    const packets = await burstPackets({ speech: 'Unit one, all clear' }, 2, { cacheDir });
    expect(packets.length).toBe(101);
    const pcm = await decodeOgg(ogg(packets));
    // speech, not a tone: energy spread over many frequencies
    expect(pcm.some((v) => Math.abs(v) > 1000)).toBe(true);
  });
});
