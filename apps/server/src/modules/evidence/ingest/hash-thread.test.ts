import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { HashThread } from './hash-thread';

describe('HashThread', () => {
  const thread = new HashThread();
  afterAll(() => thread.close());

  it('gives the SHA-256 of chunks of every size, several hashes interleaved, past the backpressure mark', async () => {
    const a = thread.start();
    const b = thread.start();
    const ha = createHash('sha256');
    const hb = createHash('sha256');
    // 3 bytes to 5 MB chunks, 100 MB in all on `a`: more than the thread may fall behind
    const sizes = [3, 65_536, 1024 * 1024, 5 * 1024 * 1024 + 7, 1, 999_999];
    let total = 0;
    for (let i = 0; total < 100 * 1024 * 1024; i++) {
      const chunk = randomBytes(sizes[i % sizes.length]!);
      total += chunk.length;
      ha.update(chunk);
      const behind = a.update(chunk);
      // the caller may reuse its buffer at once: the thread got a copy
      chunk.fill(0);
      if (behind) await behind;
      if (i % 7 === 0) {
        const small = randomBytes(1000);
        hb.update(small);
        await b.update(small);
      }
    }
    expect(a.bytes).toBe(total);
    expect(await a.digest()).toBe(ha.digest('hex'));
    expect(await b.digest()).toBe(hb.digest('hex'));
  });

  it('an empty hash is the SHA-256 of nothing; a dropped or used hash has no digest', async () => {
    expect(await thread.start().digest()).toBe(createHash('sha256').digest('hex'));
    const dropped = thread.start();
    dropped.update(Buffer.from('abc'));
    dropped.drop();
    await expect(dropped.digest()).rejects.toThrow(/unknown hash/);
    const used = thread.start();
    await used.digest();
    await expect(used.digest()).rejects.toThrow(/unknown hash/);
  });
});
