import { PositionInput, ResultCode, type Language } from '@bwc/protocol';
import type { EventBus, PositionEvent } from '../../bus';
import { now, type Db } from '../../db/connection';
import { GroupCommit, isForeignKeyViolation } from '../../db/group-commit';
import { AppError } from '../../http/errors';
import { t } from '../../http/i18n';
import { issueToFieldError } from '../../http/validation';
import { refOf, type CachedDevice } from './device-cache';
import * as repo from './devices.repository';
import type { LatestUpdate, NewPosition } from './devices.repository';
import type { DevicePresence } from './presence';
import { BusyError, type SqlitePositionWriter } from './sqlite-writer';

export interface RejectedItem {
  index: number;
  field: string;
  msg: string;
}

/** group commit: wait this long for more batches before writing, unless FLUSH_ROWS are queued */
const FLUSH_DELAY_MS = 5;
const FLUSH_ROWS = 5_000;
/** the SQLite write path retries this often while another transaction holds the lock (~10 s) */
const BUSY_RETRIES = 5_000;
const BUSY_RETRY_MS = 2;
/** a fix more than this far in the future is refused */
const FUTURE_SKEW_MS = 24 * 3600_000;

/** Totals since start (bench, diagnostics). */
export interface IngestStats {
  positions: number;
  flushes: number;
  rejected: number;
  sos: number;
  sosCommits: number;
}

interface Job {
  device: CachedDevice;
  rows: NewPosition[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** A lone job whose device row is gone (deleted meanwhile): a not-found answer, not a server error. */
export const deviceGone = (err: unknown): unknown =>
  isForeignKeyViolation(err)
    ? new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.device' })
    : err;

/** ISO time of a position time (ISO string or epoch ms), or null when it is not a time. */
export function toIsoTime(time: string | number): string | null {
  const ms = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export interface PositionIngestDeps {
  db: Db;
  bus: EventBus;
  presence: DevicePresence;
  stats: IngestStats;
  /** SQLite file databases: the prepared-statement write path; null: Kysely (PostgreSQL, :memory:) */
  sqlite: SqlitePositionWriter | null;
}

/**
 * Positions from every source (device API, OsmAnd, console service terminals): validated item by
 * item, stored by group commit (every batch queued within a few ms is written in ONE transaction,
 * and each request is answered only after that commit), then `positions` and `device.online`.
 */
export class PositionIngest {
  /** one transaction per few ms, or at once past FLUSH_ROWS rows */
  private readonly groupCommit = new GroupCommit<Job>({
    write: (jobs) => this.commit(jobs),
    delayMs: FLUSH_DELAY_MS,
    maxQueued: FLUSH_ROWS,
    sizeOf: (job) => job.rows.length,
    failure: deviceGone,
  });

  constructor(private readonly deps: PositionIngestDeps) {}

  /**
   * Check each item of a batch alone: the valid ones become rows, each bad one a rejection
   * whose msg names the field (`positions.3.lat`).
   */
  validateBatch(
    device: CachedDevice,
    items: unknown[],
    lang: Language,
  ): { rows: NewPosition[]; rejected: RejectedItem[] } {
    const rows: NewPosition[] = [];
    const rejected: RejectedItem[] = [];
    const received = now();
    const latest = Date.now() + FUTURE_SKEW_MS;
    items.forEach((item, index) => {
      const parsed = PositionInput.safeParse(item, { reportInput: true });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const err = issueToFieldError({ ...issue, path: ['positions', index, ...issue.path] } as never, 'body');
        rejected.push({ index, field: err.field, msg: t(lang, err.key, err.params) });
        return;
      }
      const p = parsed.data;
      const time = toIsoTime(p.time);
      if (!time || Date.parse(time) > latest) {
        const field = `positions.${index}.time`;
        rejected.push({ index, field, msg: t(lang, 'validation.field', { field, message: 'validation.datetime' }) });
        return;
      }
      rows.push({
        device_id: device.id,
        time,
        lat: p.lat,
        lng: p.lng,
        speed: p.speed ?? null,
        course: p.course ?? null,
        accuracy: p.accuracy ?? null,
        battery: p.battery ?? null,
        received,
      });
    });
    this.deps.stats.rejected += rejected.length;
    return { rows, rejected };
  }

  /** Store positions of a device; resolves once they are committed (group commit). */
  ingest(device: CachedDevice, rows: NewPosition[]): Promise<void> {
    if (device.remote_kill === 1) return Promise.reject(new AppError(ResultCode.LOCKED, 'errors.device.killed'));
    if (!rows.length) return this.deps.presence.touch(device);
    return new Promise<void>((resolve, reject) => this.groupCommit.add({ device, rows, resolve, reject }));
  }

  /** Resolves when everything queued so far is written. */
  drain(): Promise<void> {
    return this.groupCommit.drain();
  }

  /**
   * Write the positions of jobs in one transaction; answers what answers them and fans out once
   * it is committed (the group commit retries jobs alone when it fails).
   */
  private async commit(jobs: Job[]): Promise<() => void> {
    const seenAt = now();
    const newest = new Map<number, { device: CachedDevice; row: NewPosition }>();
    const all: NewPosition[] = [];
    for (const job of jobs) {
      for (const row of job.rows) {
        all.push(row);
        const cur = newest.get(job.device.id);
        if (!cur || row.time > cur.row.time) newest.set(job.device.id, { device: job.device, row });
      }
    }
    const updates: LatestUpdate[] = [...newest.values()].map(({ device, row }) => ({
      id: device.id,
      unit_id: device.unit_id,
      online: device.lineon === 0 && device.remote_kill === 0 ? 1 : 0,
      fresher: device.gps_time === null || row.time > device.gps_time,
      row,
    }));
    const cameOnline = updates.filter((u) => u.online).map((u) => newest.get(u.id)!.device);
    await this.write(all, updates, seenAt);
    return () => this.committed(jobs, all, newest, cameOnline, seenAt);
  }

  /** After a positions commit: the cache, the answers, the online and positions events. */
  private committed(
    jobs: Job[],
    all: NewPosition[],
    newest: Map<number, { device: CachedDevice; row: NewPosition }>,
    cameOnline: CachedDevice[],
    seenAt: string,
  ): void {
    const { bus, stats } = this.deps;
    const nowMs = Date.now();
    for (const { device, row } of newest.values()) {
      if (device.gps_time === null || row.time > device.gps_time) device.gps_time = row.time;
      device.lastTouch = nowMs;
    }
    for (const device of cameOnline) device.lineon = 1;
    stats.positions += all.length;
    stats.flushes += 1;
    for (const job of jobs) job.resolve();
    for (const device of cameOnline) bus.emit('device.online', { ...refOf(device), time: seenAt });
    if (bus.listenerCount('positions')) {
      const byId = new Map(jobs.map((j) => [j.device.id, j.device]));
      const positions: PositionEvent[] = all.map((r) => {
        const d = byId.get(r.device_id)!;
        return {
          device_id: r.device_id,
          unit_id: d.unit_id,
          hostbody: d.hostbody,
          hostname: d.hostname,
          lineon: d.lineon,
          time: r.time,
          lat: r.lat,
          lng: r.lng,
          speed: r.speed ?? null,
          course: r.course ?? null,
          accuracy: r.accuracy ?? null,
          battery: r.battery ?? null,
        };
      });
      bus.emit('positions', { positions });
    }
  }

  /** One flush: the SQLite fast path (prepared statements, retried while locked) or Kysely. */
  private async write(rows: NewPosition[], updates: LatestUpdate[], seenAt: string): Promise<void> {
    const { sqlite } = this.deps;
    if (!sqlite) return repo.writePositions(this.deps.db, rows, updates, seenAt);
    for (let attempt = 0; ; attempt++) {
      try {
        sqlite.write(rows, updates, seenAt);
        return;
      } catch (err) {
        if (!(err instanceof BusyError) || attempt >= BUSY_RETRIES) throw err;
        await new Promise((r) => setTimeout(r, BUSY_RETRY_MS));
      }
    }
  }
}
