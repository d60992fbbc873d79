import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { Database } from './types';

export type Db = Kysely<Database>;

/** pg returns int8 (count(*), bigint) as strings; our counts fit in a JS number. */
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/**
 * `onIdleError`: a pooled PostgreSQL connection that breaks while idle (server restart, a dropped
 * database, a network cut). The pool forgets it and opens another at the next query; without a
 * listener the pool's 'error' event would end the process.
 */
export function createDb(database: Config['database'], onIdleError: (err: Error) => void = () => {}): Db {
  if (database.kind === 'sqlite') {
    if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
    const sqlite = new SQLite(database.path);
    sqlite.pragma('journal_mode = WAL');
    // WAL + NORMAL: a commit is written to the WAL (OS page cache) without an fsync, which here
    // costs ~3 ms during which better-sqlite3 blocks the event loop. A committed transaction
    // survives a crash or kill -9 of the process (alarms.crash.test.ts); the last commits before
    // a power loss or kernel crash may be lost (the WAL is synced at checkpoints).
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    if (database.path !== ':memory:') startCheckpointer(sqlite, database.path);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    rawConnections.set(db, { sqlite, statements: new Map() });
    return db;
  }
  const pool = new pg.Pool({ connectionString: database.url, max: 10 });
  pool.on('error', onIdleError);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** how often the checkpoint thread copies the WAL into the database file */
export const CHECKPOINT_EVERY_MS = 1_000;

const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or closing: the next round tries again
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the commit that
 * crosses 1,000 WAL pages, on the committing connection, and syncs the WAL and the database file:
 * 15-50 ms measured here, during which better-sqlite3 blocks the event loop (every request and
 * push waits). Instead the automatic checkpoint is off on this connection (and on the position
 * writer's, see devices/sqlite-writer.ts) and a worker thread with its own connection runs a
 * PASSIVE checkpoint (never blocks readers or writers) every CHECKPOINT_EVERY_MS. The worker ends
 * when the database is closed.
 */
function startCheckpointer(sqlite: SQLite.Database, path: string): void {
  sqlite.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: {
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
      path,
      everyMs: CHECKPOINT_EVERY_MS,
    },
  });
  worker.unref();
  worker.on('error', () => {
    // a failed checkpointer leaves the WAL to grow until the next start: not fatal
  });
  const close = sqlite.close.bind(sqlite);
  sqlite.close = () => {
    worker.postMessage('close');
    return close();
  };
}

const rawConnections = new WeakMap<Db, { sqlite: SQLite.Database; statements: Map<string, SQLite.Statement> }>();

/**
 * A prepared statement on the SQLite connection under `db` (the app's Kysely instance, not a
 * transaction's), prepared once and cached; null on PostgreSQL. For hot write paths where
 * Kysely's per-call compile and prepare dominate. Run it synchronously; inside a Kysely
 * transaction of `db` it belongs to that transaction (same connection).
 */
export function sqliteStatement(db: Db, sqlText: string): SQLite.Statement | null {
  const raw = rawConnections.get(db);
  if (!raw) return null;
  let st = raw.statements.get(sqlText);
  if (!st) raw.statements.set(sqlText, (st = raw.sqlite.prepare(sqlText)));
  return st;
}

export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export const now = (): string => new Date().toISOString();
