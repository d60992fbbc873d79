import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';

/** Which devices `user` sees in the SOS state (ids; devices out of the user's scope may be included). */
export type SosStateReader = (db: Db, user: AuthUser) => Promise<ReadonlySet<number>>;

const NONE: ReadonlySet<number> = new Set();

/**
 * The SOS state of the dispatch map's point snapshot: the devices module owns the snapshot, the
 * alarms module knows which SOS are still open and provides the reader. Without a reader no
 * device is in the SOS state.
 */
export class SosStateSource {
  private reader: SosStateReader | null = null;

  provide(reader: SosStateReader): void {
    if (this.reader) throw new Error('the SOS state of the point snapshot has a reader already');
    this.reader = reader;
  }

  read(db: Db, user: AuthUser): Promise<ReadonlySet<number>> {
    return this.reader ? this.reader(db, user) : Promise.resolve(NONE);
  }
}
