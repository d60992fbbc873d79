import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import type { SosSink } from './sos-ingest';

/**
 * A point where another module plugs into the devices module: at most one provider, and a
 * declared default while there is none. The devices module exposes its hooks on the runtime;
 * a module that provides one receives the runtime as an explicit dependency (see
 * alarms.module.ts), so it can only be registered after the devices module.
 */
export class ProvidedHook<F> {
  private provider: F | null = null;

  constructor(
    private readonly what: string,
    private readonly fallback: F,
  ) {}

  provide(provider: F): void {
    if (this.provider) throw new Error(`${this.what} has a provider already`);
    this.provider = provider;
  }

  get current(): F {
    return this.provider ?? this.fallback;
  }
}

/** Which devices `user` sees in the SOS state (ids; devices out of the user's scope may be included). */
export type SosStateReader = (db: Db, user: AuthUser) => Promise<ReadonlySet<number>>;

const NONE: ReadonlySet<number> = new Set();

/**
 * The SOS state of the dispatch map's point snapshot: the devices module owns the snapshot, the
 * alarms module knows which SOS are still open and provides the reader. Default: no device is
 * in the SOS state.
 */
export const sosStateHook = () =>
  new ProvidedHook<SosStateReader>('the SOS state of the point snapshot', () => Promise.resolve(NONE));

/**
 * The writes of another module that share each SOS transaction (the alarms module: one alarm per
 * SOS). Default: none, the SOS device events alone are stored.
 */
export const sosTransactionHook = () =>
  new ProvidedHook<SosSink>('the SOS transaction', () => Promise.resolve(() => {}));
