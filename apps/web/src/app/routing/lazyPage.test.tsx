import { LAZY_CHUNK_TIMEOUT_MS } from '@bwc/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, withChunkTimeout } from './lazyPage';

afterEach(() => vi.useRealTimers());

describe('withChunkTimeout', () => {
  it('rejects with a timeout ChunkLoadError after LAZY_CHUNK_TIMEOUT_MS', async () => {
    vi.useFakeTimers();
    const pending = withChunkTimeout(new Promise(() => undefined));
    const settled = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(LAZY_CHUNK_TIMEOUT_MS - 1);
    let done = false;
    void settled.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).reason).toBe('timeout');
  });

  it('passes a chunk that arrives in time and wraps a failed import', async () => {
    await expect(withChunkTimeout(Promise.resolve({ Page: 1 }))).resolves.toEqual({ Page: 1 });
    const error = await withChunkTimeout(
      Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).reason).toBe('failed');
  });
});
