import { constants } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../../test/wait';
import { ALIGN, BodyOverLength, directWritesWork, PAUSE_MS, SlabPool, writeDirect } from './direct-write';
import { HashThread } from './hash-thread';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `data` in chunks of the given sizes (cycled), with an optional pause after `pauseAt` bytes. */
async function* body(data: Buffer, sizes: number[], pause?: { at: number; until: () => Promise<void> }) {
  let at = 0;
  for (let i = 0; at < data.length; i++) {
    if (pause && at >= pause.at) {
      await pause.until();
      pause = undefined;
    }
    const n = Math.min(sizes[i % sizes.length]!, data.length - at);
    yield data.subarray(at, at + n);
    at += n;
  }
}

describe('direct writes of upload bodies', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bwc-direct-'));
  const thread = new HashThread();
  // small slabs (128 KiB), so that bodies of a few MB cross many of them
  const pool = new SlabPool(128 * 1024, 4);
  let flags = 0;
  beforeAll(async () => {
    // O_DIRECT where this folder's file system takes it (ext4, xfs); on tmpfs the rest is still tested
    flags = (await directWritesWork(dir, pool)) ? constants.O_DIRECT : 0;
  });
  afterAll(async () => {
    await thread.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Write `data[offset..]` after `data[0..offset)` is already in the file and in the hash. */
  async function resume(name: string, data: Buffer, offset: number, chunks: AsyncIterable<Buffer>) {
    const file = join(dir, name);
    writeFileSync(file, data.subarray(0, offset));
    const hash = thread.start();
    if (offset) await hash.update(data.subarray(0, offset));
    const first = pool.tryTake()!;
    await writeDirect({ body: chunks, file, offset, limit: data.length - offset, hash, pool, first, flags });
    return { file, hash };
  }

  it('bodies of any length, from any offset, in chunks of any size: the file and the hash are the bytes', async () => {
    const data = randomBytes(3 * 128 * 1024 + 5 * ALIGN + 1234);
    const cases: Array<[number, number[]]> = [
      [0, [65_536]],
      [0, [1, 4095, 4097, 300_000]],
      [ALIGN, [128 * 1024]],
      [5000, [7, 65_536, 131_073]], // resumed inside a block: that block is written again whole
      [data.length - 10, [3]],
      [4096 * 3 - 1, [1]],
    ];
    for (const [i, [offset, sizes]] of cases.entries()) {
      const { file, hash } = await resume(`any-${i}`, data, offset, body(data.subarray(offset), sizes));
      expect(hash.bytes, `case ${i}`).toBe(data.length);
      expect(await hash.digest()).toBe(sha(data));
      expect(sha(readFileSync(file)), `case ${i}`).toBe(sha(data));
    }
    expect(pool.idle).toBe(4);
  });

  it('a paused client has what arrived on disk; then the body goes on and ends whole', async () => {
    const data = randomBytes(128 * 1024 * 2 + 777);
    const file = join(dir, 'paused');
    let go!: () => void;
    const resumed = new Promise<void>((r) => (go = r));
    // pause after 200,001 bytes: one slab full and written, the next 71,929 bytes held
    const writing = resume('paused', data, 0, body(data, [200_001], { at: 200_001, until: () => resumed }));
    await until('bytes of the paused body on disk', () => statSync(file).size === 200_001, 10_000);
    await sleep(PAUSE_MS * 2); // and no more
    expect(statSync(file).size).toBe(200_001);
    expect(readFileSync(file).equals(data.subarray(0, 200_001))).toBe(true);
    go();
    const { hash } = await writing;
    expect(await hash.digest()).toBe(sha(data));
    expect(readFileSync(file).equals(data)).toBe(true);
    expect(pool.idle).toBe(4);
  });

  it('a body that ends early keeps exactly what arrived; one over the limit fails and leaves a prefix', async () => {
    const data = randomBytes(300_000);
    const file = join(dir, 'early');
    writeFileSync(file, '');
    const hash = thread.start();
    await writeDirect({
      body: body(data.subarray(0, 123_457), [10_000]),
      file,
      offset: 0,
      limit: data.length,
      hash,
      pool,
      first: pool.tryTake()!,
      flags,
    });
    expect(readFileSync(file).equals(data.subarray(0, 123_457))).toBe(true);
    expect(await hash.digest()).toBe(sha(data.subarray(0, 123_457)));

    const over = join(dir, 'over');
    writeFileSync(over, '');
    const hashOver = thread.start();
    await expect(
      writeDirect({
        body: body(data, [65_536]),
        file: over,
        offset: 0,
        limit: 200_000,
        hash: hashOver,
        pool,
        first: pool.tryTake()!,
        flags,
      }),
    ).rejects.toBeInstanceOf(BodyOverLength);
    hashOver.drop();
    const kept = readFileSync(over);
    expect(kept.length).toBeLessThanOrEqual(200_000);
    expect(kept.equals(data.subarray(0, kept.length))).toBe(true);
    expect(pool.idle).toBe(4);
  });

  it('a body that fails after a pause: the error reaches the caller, what was flushed stays, no slab is lost', async () => {
    const data = randomBytes(50_000);
    const file = join(dir, 'failed');
    writeFileSync(file, '');
    async function* failing() {
      yield data;
      await until('the paused bytes on disk', () => statSync(file).size === data.length, 10_000);
      throw new Error('connection reset');
    }
    const hash = thread.start();
    await expect(
      writeDirect({ body: failing(), file, offset: 0, limit: 1e6, hash, pool, first: pool.tryTake()!, flags }),
    ).rejects.toThrow('connection reset');
    hash.drop();
    expect(readFileSync(file).equals(data)).toBe(true);
    expect(pool.idle).toBe(4);
  });

  it('more bodies than slabs: each waits for a slab and all end whole; a new body finds none free', async () => {
    const bodies = Array.from({ length: 6 }, () => randomBytes(600_000 + Math.floor(Math.random() * 5000)));
    const small = new SlabPool(128 * 1024, 6);
    const runs = bodies.map(async (data, i) => {
      const file = join(dir, `many-${i}`);
      writeFileSync(file, '');
      const hash = thread.start();
      await writeDirect({
        body: body(data, [50_000]),
        file,
        offset: 0,
        limit: data.length,
        hash,
        pool: small,
        first: small.tryTake()!,
        flags,
      });
      expect(await hash.digest()).toBe(sha(data));
      expect(sha(readFileSync(file))).toBe(sha(data));
    });
    // every slab is taken by the six bodies' first ones
    expect(small.tryTake()).toBeNull();
    await Promise.all(runs);
    expect(small.idle).toBe(6);
  });

  it('the probe says no where the folder cannot be written', async () => {
    expect(await directWritesWork(join(dir, 'missing', 'folder'), pool)).toBe(false);
    expect(pool.idle).toBe(4);
  });
});
