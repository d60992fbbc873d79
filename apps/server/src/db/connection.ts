import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { Database } from './types';

export type Db = Kysely<Database>;

/** pg returns int8 (count(*), bigint) as strings; our counts fit in a JS number. */
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export function createDb(database: Config['database']): Db {
  if (database.kind === 'sqlite') {
    if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
    const sqlite = new SQLite(database.path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  const pool = new pg.Pool({ connectionString: database.url, max: 10 });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export const now = (): string => new Date().toISOString();
