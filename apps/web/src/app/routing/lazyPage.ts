import { LAZY_CHUNK_TIMEOUT_MS } from '@bwc/protocol';
import { lazy, type ComponentType } from 'react';
import { loadNamespaces } from '../../i18n';

/** A lazy chunk that did not arrive: the route error page offers a reload (spec part 1 section 8). */
export class ChunkLoadError extends Error {
  constructor(
    readonly reason: 'timeout' | 'failed' | 'css',
    cause?: unknown,
  ) {
    super(`chunk load ${reason}`, cause === undefined ? undefined : { cause });
    this.name = 'ChunkLoadError';
  }
}

export function withChunkTimeout<T>(load: Promise<T>, timeoutMs: number = LAZY_CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), timeoutMs);
    load.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof ChunkLoadError ? error : new ChunkLoadError('failed', error));
      },
    );
  });
}

/** Props of a component function; a component without parameters takes none. */
type PropsOf<C> = C extends (...args: infer A) => unknown ? (A extends [] ? object : A[0]) : object;

/**
 * React.lazy with the chunk timeout, for a module's named export, and the catalogues its tree uses:
 * `const TitleSetPage = lazyPage(() => import('./TitleSetPage'), 'TitleSetPage', ['system']);`
 * The page renders once both are in, so no component of it (a dialog opened later included)
 * suspends on a catalogue afterwards: that suspension would reach the route's boundary and hide the
 * page already shown. A route declares every namespace its page's modules use besides the first
 * ones (i18n/first.ts); `app/routing/pageNamespaces.test.ts` checks the declarations.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<M extends Record<string, any>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  namespaces: readonly string[] = [],
) {
  return lazy(() =>
    withChunkTimeout(Promise.all([load(), loadNamespaces(namespaces)])).then(([module]) => ({
      default: module[name] as ComponentType<PropsOf<M[K]>>,
    })),
  );
}
