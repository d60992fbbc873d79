import { LAZY_CHUNK_TIMEOUT_MS } from '@bwc/protocol';
import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../i18n';
import { ChunkLoadError, lazyPage, withChunkTimeout } from './lazyPage';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

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

describe('lazyPage', () => {
  it('shows the page once its chunk and its namespaces are in', async () => {
    let release!: () => void;
    const namespaces = vi
      .spyOn(i18next, 'loadNamespaces')
      .mockReturnValue(new Promise<void>((resolve) => (release = resolve)));
    const chunk = Promise.resolve({ Page: () => <p>page</p> });
    const Page = lazyPage(() => chunk, 'Page', ['dispatch', 'playback']);
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(namespaces).toHaveBeenCalledWith(['dispatch', 'playback']);
    // the chunk is in, the catalogues are not: still the fallback
    await act(() => chunk);
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => release());
    expect(await screen.findByText('page')).toBeTruthy();
  });

  it('a chunk without namespaces asks for none', async () => {
    const namespaces = vi.spyOn(i18next, 'loadNamespaces');
    const Page = lazyPage(() => Promise.resolve({ Page: () => <p>page</p> }), 'Page');
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(await screen.findByText('page')).toBeTruthy();
    expect(namespaces).not.toHaveBeenCalled();
  });
});
