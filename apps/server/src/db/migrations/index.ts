import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation';

/**
 * Every migration, by name. Kysely runs them in name order, once each, on SQLite and PostgreSQL.
 * Add a file `NNNN_<what>.ts` exporting `up` (and `down`) and list it here.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
};
