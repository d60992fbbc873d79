import SQLite from 'better-sqlite3';
import type { LatestUpdate, NewPosition } from './devices.repository';

export class BusyError extends Error {}

/**
 * The position write path on SQLite: its own connection to the database file with prepared
 * statements, one synchronous transaction per flush (no awaits inside, so nothing else of this
 * process can interleave with it). The connection does not wait for locks (busy_timeout 0): if
 * a transaction of the main connection is open across awaits, the write answers BusyError at
 * once and the caller retries a moment later, instead of blocking the event loop that the other
 * transaction needs to finish.
 */
export class SqlitePositionWriter {
  private readonly db: SQLite.Database;
  private readonly insert: SQLite.Statement;
  private readonly fresh: SQLite.Statement;
  private readonly seen: SQLite.Statement;
  private readonly event: SQLite.Statement;
  private readonly tx: SQLite.Transaction<(rows: NewPosition[], updates: LatestUpdate[], seenAt: string) => void>;

  constructor(path: string) {
    this.db = new SQLite(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 0');
    this.db.pragma('synchronous = NORMAL');
    // checkpoints run on the checkpoint thread of db/connection.ts, not inside a flush
    this.db.pragma('wal_autocheckpoint = 0');
    this.insert = this.db.prepare(
      'insert into positions (device_id, time, lat, lng, speed, course, accuracy, battery, received) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.fresh = this.db.prepare(
      `update devices set last_seen = ?, lineon = case when ? = 1 then 1 else lineon end,
         lat = ?, lng = ?, speed = ?, course = ?, accuracy = ?, gps_time = ?, battery = coalesce(?, battery)
       where id = ?`,
    );
    this.seen = this.db.prepare(
      'update devices set last_seen = ?, lineon = case when ? = 1 then 1 else lineon end where id = ?',
    );
    this.event = this.db.prepare(
      `insert into device_events (device_id, unit_id, type, time, lat, lng, payload, created) values (?, ?, 'online', ?, null, null, '{}', ?)`,
    );
    this.tx = this.db.transaction((rows: NewPosition[], updates: LatestUpdate[], seenAt: string) => {
      for (const r of rows)
        this.insert.run(
          r.device_id,
          r.time,
          r.lat,
          r.lng,
          r.speed ?? null,
          r.course ?? null,
          r.accuracy ?? null,
          r.battery ?? null,
          r.received,
        );
      for (const u of updates) {
        const r = u.row;
        if (u.fresher)
          this.fresh.run(
            seenAt,
            u.online,
            r.lat,
            r.lng,
            r.speed ?? null,
            r.course ?? null,
            r.accuracy ?? null,
            r.time,
            r.battery ?? null,
            u.id,
          );
        else this.seen.run(seenAt, u.online, u.id);
        if (u.online) this.event.run(u.id, u.unit_id, seenAt, seenAt);
      }
    });
  }

  /** Write one flush in one transaction; throws BusyError when another connection holds the write lock. */
  write(rows: NewPosition[], updates: LatestUpdate[], seenAt: string): void {
    try {
      this.tx.immediate(rows, updates, seenAt);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT') throw new BusyError(code);
      throw err;
    }
  }

  close(): void {
    this.db.close();
  }
}
