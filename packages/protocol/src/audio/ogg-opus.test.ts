import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OggOpusWriter, oggCrc32, opusPacketSamples, readOggOpusPackets } from './ogg-opus';

/** The simulator's ffmpeg (@ffmpeg-installer/ffmpeg, hoisted to the workspace root), if this platform has it. */
const FFMPEG = (() => {
  try {
    const path = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
})();

interface Page {
  flags: number;
  granule: number;
  serial: number;
  sequence: number;
  segments: number[];
  body: Uint8Array;
}

/** The pages of a stream, read independently of the module under test (CRC aside). */
function pages(bytes: Uint8Array): Page[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Page[] = [];
  for (let at = 0; at < bytes.length;) {
    const count = bytes[at + 26]!;
    const segments = [...bytes.subarray(at + 27, at + 27 + count)];
    const size = segments.reduce((n, v) => n + v, 0);
    out.push({
      flags: bytes[at + 5]!,
      granule: Number(view.getBigInt64(at + 6, true)),
      serial: view.getUint32(at + 14, true),
      sequence: view.getUint32(at + 18, true),
      segments,
      body: bytes.subarray(at + 27 + count, at + 27 + count + size),
    });
    at += 27 + count + size;
  }
  return out;
}

/** A page built by hand (for layouts the writer never makes). */
function handPage(flags: number, granule: number, sequence: number, segments: number[], body: Uint8Array): Uint8Array {
  const out = new Uint8Array(27 + segments.length + body.length);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53]);
  out[5] = flags;
  view.setBigInt64(6, BigInt(granule), true);
  view.setUint32(14, 7, true);
  view.setUint32(18, sequence, true);
  out[26] = segments.length;
  out.set(segments, 27);
  out.set(body, 27 + segments.length);
  view.setUint32(22, oggCrc32(out), true);
  return out;
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
};

/** A packet of `size` bytes whose content says where it came from. */
const packetOf = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (seed * 31 + i) & 0xff);

function write(packets: Uint8Array[], trim = 0, samples = 960): Uint8Array {
  const writer = new OggOpusWriter({ serial: 0xdeadbeef, preSkip: 312 });
  return concat([writer.header(), ...packets.map((p) => writer.packet(p, samples)), writer.end(trim)]);
}

describe('oggCrc32', () => {
  it('is CRC-32 with polynomial 0x04c11db7, no reflection, initial value and final xor 0', () => {
    // CRC-32/POSIX ("123456789" -> 0x765e7680) differs only by its final xor 0xffffffff: 0x765e7680 ^ 0xffffffff
    expect(oggCrc32(new TextEncoder().encode('123456789'))).toBe(0x89a1897f);
    expect(oggCrc32(new Uint8Array(0))).toBe(0);
  });
});

describe('OggOpusWriter', () => {
  it('writes OpusHead and OpusTags each on a page of its own, the first flagged beginning of stream', () => {
    const writer = new OggOpusWriter({ serial: 42, preSkip: 3840, channels: 2 });
    const [head, tags, ...rest] = pages(writer.header());
    expect(rest).toEqual([]);
    expect(head).toMatchObject({ flags: 2, granule: 0, serial: 42, sequence: 0 });
    expect(new TextDecoder().decode(head!.body.subarray(0, 8))).toBe('OpusHead');
    expect([...head!.body.subarray(8)]).toEqual([1, 2, 0x00, 0x0f, 0x80, 0xbb, 0, 0, 0, 0, 0]);
    expect(tags).toMatchObject({ flags: 0, granule: 0, serial: 42, sequence: 1 });
    expect(new TextDecoder().decode(tags!.body.subarray(0, 8))).toBe('OpusTags');
  });

  it('closes a page per second of audio, with the granule at the end of its last packet, and flags the last one', () => {
    const bytes = write(Array.from({ length: 120 }, (_, i) => packetOf(60 + (i % 7), i)));
    const audio = pages(bytes).slice(2);
    expect(audio.map((p) => p.granule)).toEqual([48_000, 96_000, 115_200]);
    expect(audio.map((p) => p.segments.length)).toEqual([50, 50, 20]);
    expect(audio.map((p) => p.flags)).toEqual([0, 0, 4]);
    expect(audio.map((p) => p.sequence)).toEqual([2, 3, 4]);
  });

  it('closes a page before it would hold more than 255 segments', () => {
    // 1020 bytes lace as 255 255 255 255 0: five segments, so 51 packets fill a page
    const audio = pages(
      write(
        Array.from({ length: 60 }, (_, i) => packetOf(1020, i)),
        0,
        120,
      ),
    ).slice(2);
    expect(audio.map((p) => p.segments.length)).toEqual([255, 45]);
    expect(audio.map((p) => p.granule)).toEqual([51 * 120, 60 * 120]);
  });

  it('returns the bytes of a page as soon as the packet after it arrives, none before', () => {
    const writer = new OggOpusWriter({ serial: 1 });
    writer.header();
    const second = Array.from({ length: 50 }, (_, i) => writer.packet(packetOf(40, i)));
    expect(second.every((bytes) => bytes.length === 0)).toBe(true);
    expect(pages(writer.packet(packetOf(40, 50))).map((p) => p.granule)).toEqual([48_000]);
  });

  it('trims the end of the last packet through the last granule', () => {
    const audio = pages(write([packetOf(10, 1), packetOf(10, 2)], 500)).slice(2);
    expect(audio.map((p) => p.granule)).toEqual([1420]);
  });

  it('refuses packets after the end', () => {
    const writer = new OggOpusWriter({ serial: 1 });
    writer.header();
    writer.end();
    expect(() => writer.packet(packetOf(3, 1))).toThrow();
    expect(() => writer.end()).toThrow();
  });
});

describe('readOggOpusPackets', () => {
  it('reads back what the writer wrote: empty packets, sizes on lacing boundaries, the largest', () => {
    const sizes = [0, 1, 254, 255, 256, 510, 1275, 3, ...Array.from({ length: 200 }, (_, i) => (i * 37) % 400)];
    const packets = sizes.map((n, i) => packetOf(n, i));
    const stream = readOggOpusPackets(write(packets, 100));
    expect(stream.packets).toEqual(packets);
    expect(stream.head).toEqual({
      version: 1,
      channels: 1,
      preSkip: 312,
      inputSampleRate: 48_000,
      outputGain: 0,
      mappingFamily: 0,
    });
    expect(stream.granule).toBe(sizes.length * 960 - 100);
  });

  it('joins a packet continued on the next pages', () => {
    const head = new OggOpusWriter({ serial: 7 }).header();
    const big = packetOf(600, 9);
    const small = packetOf(5, 3);
    const bytes = concat([
      head,
      handPage(0, -1, 2, [255], big.subarray(0, 255)),
      handPage(1, -1, 3, [255], big.subarray(255, 510)),
      handPage(1 | 4, 1920, 4, [90, 5], concat([big.subarray(510), small])),
    ]);
    expect(readOggOpusPackets(bytes)).toMatchObject({ packets: [big, small], granule: 1920 });
  });

  it('refuses a page whose CRC does not match, a cut page and a stream without OpusHead', () => {
    const bytes = write([packetOf(50, 1), packetOf(50, 2)]);
    const bad = bytes.slice();
    bad[bad.length - 1]! ^= 1;
    expect(() => readOggOpusPackets(bad)).toThrow(/CRC/);
    expect(() => readOggOpusPackets(bytes.subarray(0, bytes.length - 3))).toThrow(/cut short/);
    expect(() => readOggOpusPackets(handPage(2, 0, 0, [3], packetOf(3, 1)))).toThrow(/OpusHead/);
  });
});

describe('opusPacketSamples', () => {
  it('reads the frame length and count of the TOC byte', () => {
    expect(opusPacketSamples(Uint8Array.of((31 << 3) | 0))).toBe(960); // CELT 20 ms, one frame
    expect(opusPacketSamples(Uint8Array.of((1 << 3) | 1))).toBe(1920); // SILK 20 ms, two frames
    expect(opusPacketSamples(Uint8Array.of((3 << 3) | 3, 2))).toBe(5760); // SILK 60 ms, code 3, two frames
    expect(opusPacketSamples(Uint8Array.of((16 << 3) | 0))).toBe(120); // CELT 2.5 ms
    expect(opusPacketSamples(new Uint8Array(0))).toBe(0);
  });
});

describe.skipIf(!FFMPEG)('against ffmpeg', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ogg-opus-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const ffmpeg = (...args: string[]) => {
    const run = spawnSync(FFMPEG!, ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], {
      maxBuffer: 64 << 20,
    });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr.toString() };
  };
  const decode = (file: string) => ffmpeg('-xerror', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '48000', 'pipe:1');

  it('reads a 1 s tone ffmpeg wrote (every CRC checked), writes it again, and ffmpeg decodes that to the same audio', () => {
    const theirs = join(dir, 'ffmpeg.opus');
    const made = ffmpeg(
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=1'],
      ...['-c:a', 'libopus', '-b:a', '32k', '-frame_duration', '20', '-ac', '1', theirs],
    );
    expect(made.stderr).toBe('');
    const source = new Uint8Array(readFileSync(theirs));
    for (const page of pages(source)) expect(page.serial).toBe(pages(source)[0]!.serial);

    const stream = readOggOpusPackets(source);
    expect(stream.head).toMatchObject({ version: 1, channels: 1, inputSampleRate: 48_000 });
    expect(stream.packets.length).toBeGreaterThanOrEqual(50);
    expect(stream.packets.every((p) => opusPacketSamples(p) === 960)).toBe(true);

    const writer = new OggOpusWriter({ serial: 99, preSkip: stream.head.preSkip });
    const total = stream.packets.length * 960;
    const ours = join(dir, 'ours.opus');
    writeFileSync(
      ours,
      concat([writer.header(), ...stream.packets.map((p) => writer.packet(p)), writer.end(total - stream.granule)]),
    );

    const expected = decode(theirs);
    const actual = decode(ours);
    expect(actual.stderr).toBe('');
    expect(actual.code).toBe(0);
    expect(actual.stdout.length).toBe(48_000 * 2);
    expect(actual.stdout.equals(expected.stdout)).toBe(true);
  });
});
