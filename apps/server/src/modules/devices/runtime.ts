import { PositionInput, ResultCode, type DeviceCommandType } from '@bwc/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import type { DeviceRef, DomainEvents, PositionEvent } from '../../bus';
import { now, sqliteStatement, type Db } from '../../db/connection';
import { GroupCommit, isForeignKeyViolation } from '../../db/group-commit';
import type { DeviceRow, PositionTable } from '../../db/types';
import { AppError } from '../../http/errors';
import { issueToFieldError } from '../../http/validation';
import { t } from '../../http/i18n';
import type { Language } from '@bwc/protocol';
import { CommandQueue } from './commands';
import { SosStateSource } from './devices.hooks';
import { newToken, sameHash, sha256Hex } from './credentials';
import { findDeviceByIdent } from './devices.repository';
import { parseTypecate } from './devices.presenter';
import { readDeviceSettings } from './settings';
import { BusyError, SqlitePositionWriter, type LatestUpdate } from './sqlite-writer';

/** What the ingest path keeps of a device between requests (one process owns the state). */
export interface CachedDevice {
  id: number;
  unit_id: number;
  hostbody: string;
  imei: string;
  hostname: string;
  secret_hash: string;
  token_hash: string | null;
  lineon: number;
  remote_kill: number;
  gps_time: string | null;
  /** ms of the last last_seen write */
  lastTouch: number;
}

/** A validated position of one device, ready to store. */
export type NewPosition = Insertable<PositionTable>;

export interface RejectedItem {
  index: number;
  field: string;
  msg: string;
}

/** last_seen is written at most this often for calls that carry no position. */
const TOUCH_INTERVAL_MS = 5_000;
/** rows per INSERT statement (well under SQLite's and PostgreSQL's parameter limits) */
const INSERT_CHUNK = 1_000;
/** group commit: wait this long for more batches before writing, unless FLUSH_ROWS are queued */
const FLUSH_DELAY_MS = 5;
const FLUSH_ROWS = 5_000;
/** the SQLite write path retries this often while another transaction holds the lock (~10 s) */
const BUSY_RETRIES = 5_000;
const BUSY_RETRY_MS = 2;
/** how often the silence sweeper runs */
export const SWEEP_INTERVAL_MS = 5_000;
/** a fix more than this far in the future is refused */
const FUTURE_SKEW_MS = 24 * 3600_000;

interface Job {
  device: CachedDevice;
  rows: NewPosition[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** SOS device events per INSERT statement on PostgreSQL (8 parameters a row) */
const SOS_INSERT_CHUNK = 100;
const INSERT_SOS_EVENT = `insert into device_events (device_id, unit_id, type, time, lat, lng, payload, created)
  values (?, ?, 'sos', ?, ?, ?, ?, ?) returning id`;

/** One SOS waiting for its group commit. */
interface SosJob {
  device: CachedDevice;
  time: string;
  lat: number | null;
  lng: number | null;
  message: string;
  resolve: (eventId: number) => void;
  reject: (err: unknown) => void;
}

/** A committed SOS as the bus carries it (`device.sos`). */
export type SosEvent = DomainEvents['device.sos'];

/**
 * Writes of another module that belong in the same transaction as the SOS device events of a
 * group commit (the alarms module: one alarm per SOS). Runs inside the transaction with its
 * handle (`trx`: no other query of this process may be awaited meanwhile on SQLite's single
 * connection); answers what to do once it is committed.
 */
export type SosSink = (trx: Db, events: SosEvent[]) => Promise<() => void>;

/** A lone job whose device row is gone (deleted meanwhile): a not-found answer, not a server error. */
const deviceGone = (err: unknown): unknown =>
  isForeignKeyViolation(err)
    ? new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.device' })
    : err;

function cached(row: DeviceRow): CachedDevice {
  return {
    id: row.id,
    unit_id: row.unit_id,
    hostbody: row.hostbody,
    imei: row.imei,
    hostname: row.hostname,
    secret_hash: row.secret_hash,
    token_hash: row.token_hash,
    lineon: row.lineon,
    remote_kill: row.remote_kill,
    gps_time: row.gps_time,
    lastTouch: 0,
  };
}

export function refOf(d: Pick<CachedDevice, 'id' | 'unit_id' | 'hostbody' | 'imei' | 'hostname'>): DeviceRef {
  return { device_id: d.id, unit_id: d.unit_id, hostbody: d.hostbody, imei: d.imei, hostname: d.hostname };
}

/** ISO time of a position time (ISO string or epoch ms), or null when it is not a time. */
export function toIsoTime(time: string | number): string | null {
  const ms = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * The live side of devices: credential cache, position ingest with group commit (every batch
 * queued within a few ms is written in ONE transaction, and each request is answered only after
 * that commit), online/offline state with the silence sweeper, SOS, the command queue, and the
 * domain events (`positions`, `device.online`, `device.offline`, `device.sos`).
 */
export class DeviceRuntime {
  readonly commands = new CommandQueue();
  private readonly byId = new Map<number, CachedDevice>();
  private readonly byToken = new Map<string, number>();
  private readonly byIdent = new Map<string, number>();
  /** positions: one transaction per few ms, or at once past FLUSH_ROWS rows */
  private readonly positionCommit = new GroupCommit<Job>({
    write: (jobs) => this.commit(jobs),
    delayMs: FLUSH_DELAY_MS,
    maxQueued: FLUSH_ROWS,
    sizeOf: (job) => job.rows.length,
    failure: deviceGone,
  });
  private sweeper: NodeJS.Timeout | null = null;
  /** totals since start (bench, diagnostics) */
  readonly stats = { positions: 0, flushes: 0, rejected: 0, sos: 0, sosCommits: 0 };
  /** SOS events: one transaction per event-loop turn */
  private readonly sosCommit = new GroupCommit<SosJob>({ write: (jobs) => this.commitSos(jobs), failure: deviceGone });
  /** set by the alarms module: its alarm rows are written in the SOS transaction */
  sosSink: SosSink | null = null;
  /** the SOS state of the map's point snapshot (the alarms module provides it) */
  readonly sosState = new SosStateSource();

  /** SQLite file databases get the prepared-statement write path; PostgreSQL and :memory: use Kysely */
  private readonly sqlite: SqlitePositionWriter | null;

  constructor(private readonly app: FastifyInstance) {
    const database = app.config.database;
    this.sqlite =
      database.kind === 'sqlite' && database.path !== ':memory:' ? new SqlitePositionWriter(database.path) : null;
  }

  private get db(): Db {
    return this.app.db;
  }

  // ---- cache ------------------------------------------------------------------------------

  private remember(row: DeviceRow): CachedDevice {
    const entry = cached(row);
    this.byId.set(entry.id, entry);
    this.byIdent.set(entry.hostbody, entry.id);
    this.byIdent.set(entry.imei, entry.id);
    if (entry.token_hash) this.byToken.set(entry.token_hash, entry.id);
    return entry;
  }

  /** Forget a device (its record changed or was deleted); the next call reloads it. */
  invalidate(id: number): void {
    this.byId.delete(id);
  }

  /** The cached state of a device if it is loaded (kill/wake keep it in step). */
  peek(id: number): CachedDevice | undefined {
    return this.byId.get(id);
  }

  private async loadById(id: number): Promise<CachedDevice | undefined> {
    const hit = this.byId.get(id);
    if (hit) return hit;
    const row = await this.db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : undefined;
  }

  /** The device whose hostbody or imei is `ident`. */
  async findByIdent(ident: string): Promise<CachedDevice | undefined> {
    const id = this.byIdent.get(ident);
    if (id !== undefined) {
      const entry = await this.loadById(id);
      if (entry && (entry.hostbody === ident || entry.imei === ident)) return entry;
    }
    const row = await findDeviceByIdent(this.db, ident);
    return row ? this.remember(row) : undefined;
  }

  private async findByTokenHash(hash: string): Promise<CachedDevice | undefined> {
    const id = this.byToken.get(hash);
    if (id !== undefined) {
      const entry = await this.loadById(id);
      if (entry?.token_hash === hash) return entry;
    }
    const row = await this.db.selectFrom('devices').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    return row ? this.remember(row) : undefined;
  }

  // ---- credentials ------------------------------------------------------------------------

  /** Check a device secret; answers the device or null. */
  async verifySecret(ident: string, secret: string): Promise<CachedDevice | null> {
    const device = await this.findByIdent(ident);
    return device && sameHash(device.secret_hash, sha256Hex(secret)) ? device : null;
  }

  /** Device login: a new bearer token replaces the previous one. */
  async login(ident: string, secret: string): Promise<{ device: CachedDevice; token: string }> {
    const device = await this.verifySecret(ident, secret);
    if (!device) throw new AppError(ResultCode.UNAUTHENTICATED, 'errors.device.credentials');
    const token = newToken();
    const hash = sha256Hex(token);
    await this.db.updateTable('devices').set({ token_hash: hash }).where('id', '=', device.id).execute();
    if (device.token_hash) this.byToken.delete(device.token_hash);
    device.token_hash = hash;
    this.byToken.set(hash, device.id);
    await this.touch(device);
    return { device, token };
  }

  /** The calling device: `Authorization: Bearer <device token>` or `Basic base64(hostbody:secret)`. */
  async authenticate(req: FastifyRequest): Promise<CachedDevice> {
    const header = req.headers.authorization ?? '';
    let device: CachedDevice | null | undefined = null;
    if (header.startsWith('Bearer ')) {
      const token = header.slice(7).trim();
      if (token) device = await this.findByTokenHash(sha256Hex(token));
    } else if (header.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) device = await this.verifySecret(decoded.slice(0, colon), decoded.slice(colon + 1));
    }
    if (!device) throw new AppError(ResultCode.UNAUTHENTICATED, 'errors.device.credentials');
    return device;
  }

  // ---- state ------------------------------------------------------------------------------

  private async event(
    db: Db,
    device: CachedDevice,
    type: string,
    time: string,
    extra: { lat?: number | null; lng?: number | null; payload?: unknown } = {},
  ) {
    const row = await db
      .insertInto('device_events')
      .values({
        device_id: device.id,
        unit_id: device.unit_id,
        type,
        time,
        lat: extra.lat ?? null,
        lng: extra.lng ?? null,
        payload: JSON.stringify(extra.payload ?? {}),
        created: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * The device said something: last_seen (at most every few seconds), and back online if it was
   * offline and is not remotely killed.
   */
  async touch(device: CachedDevice): Promise<void> {
    const nowMs = Date.now();
    const comesOnline = device.lineon === 0 && device.remote_kill === 0;
    if (!comesOnline && nowMs - device.lastTouch < TOUCH_INTERVAL_MS) return;
    const ts = new Date(nowMs).toISOString();
    device.lastTouch = nowMs;
    if (comesOnline) {
      await this.db.transaction().execute(async (trx) => {
        await trx.updateTable('devices').set({ last_seen: ts, lineon: 1 }).where('id', '=', device.id).execute();
        await this.event(trx, device, 'online', ts);
      });
      device.lineon = 1;
      this.app.bus.emit('device.online', { ...refOf(device), time: ts });
    } else {
      await this.db.updateTable('devices').set({ last_seen: ts }).where('id', '=', device.id).execute();
    }
  }

  /** The device's own online/offline message. */
  async setState(device: CachedDevice, state: 'online' | 'offline', battery?: number): Promise<void> {
    const ts = now();
    device.lastTouch = Date.now();
    if (state === 'online') {
      if (battery !== undefined)
        await this.db.updateTable('devices').set({ battery }).where('id', '=', device.id).execute();
      await this.touch(device);
      return;
    }
    const wasOnline = device.lineon === 1;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('devices')
        .set({ lineon: 0, last_seen: ts, ...(battery !== undefined ? { battery } : {}) })
        .where('id', '=', device.id)
        .execute();
      if (wasOnline) await this.event(trx, device, 'offline', ts, { payload: { reason: 'device' } });
    });
    device.lineon = 0;
    if (wasOnline) this.app.bus.emit('device.offline', { ...refOf(device), time: ts, reason: 'device' });
  }

  /**
   * An SOS: a device event and, in the same transaction, what the `sosSink` adds (the alarm);
   * then the domain event `device.sos`. Group commit: every SOS received in the same event-loop
   * turn (and those arriving while a commit runs) is written in ONE transaction; each request is
   * answered (its event id) only after that commit. lat/lng: given, else the last known position.
   */
  async sos(
    device: CachedDevice,
    input: { time?: string | number; lat?: number; lng?: number; message?: string },
  ): Promise<number> {
    const time = (input.time !== undefined ? toIsoTime(input.time) : null) ?? now();
    const eventId = await new Promise<number>((resolve, reject) => {
      this.sosCommit.add({
        device,
        time,
        lat: input.lat ?? null,
        lng: input.lng ?? null,
        message: input.message ?? '',
        resolve,
        reject,
      });
    });
    await this.touch(device);
    return eventId;
  }

  /**
   * One transaction for the SOS jobs (and the sink's rows); answers what answers the jobs and
   * emits once it is committed (the group commit retries jobs alone when it fails).
   */
  private async commitSos(jobs: SosJob[]): Promise<() => void> {
    let events: SosEvent[] = [];
    let after: (() => void) | null = null;
    await this.db.transaction().execute(async (trx) => {
      events = [];
      const need = [...new Set(jobs.filter((j) => j.lat === null || j.lng === null).map((j) => j.device.id))];
      const last = new Map(
        need.length
          ? (await trx.selectFrom('devices').select(['id', 'lat', 'lng']).where('id', 'in', need).execute()).map(
              (r) => [r.id, r] as const,
            )
          : [],
      );
      const created = now();
      const rows = jobs.map((j) => {
        const known = last.get(j.device.id);
        return {
          device_id: j.device.id,
          unit_id: j.device.unit_id,
          type: 'sos',
          time: j.time,
          lat: j.lat ?? known?.lat ?? null,
          lng: j.lng ?? known?.lng ?? null,
          payload: JSON.stringify({ message: j.message }),
          created,
        };
      });
      const insertOne = sqliteStatement(this.db, INSERT_SOS_EVENT);
      if (insertOne) {
        // SQLite: one cached prepared statement per row, inside this transaction (same connection)
        rows.forEach((r, k) => {
          const { id } = insertOne.get(r.device_id, r.unit_id, r.time, r.lat, r.lng, r.payload, r.created) as {
            id: number;
          };
          const j = jobs[k]!;
          events.push({ ...refOf(j.device), event_id: id, time: r.time, lat: r.lat, lng: r.lng, message: j.message });
        });
      }
      // PostgreSQL: one statement per chunk
      for (let i = 0; !insertOne && i < rows.length; i += SOS_INSERT_CHUNK) {
        const chunk = rows.slice(i, i + SOS_INSERT_CHUNK);
        // ids grow in VALUES order, so the sorted ids match the rows (checked)
        const ids = (
          await trx
            .insertInto('device_events')
            .values(chunk)
            .returning(['id', 'device_id', 'time', 'payload'])
            .execute()
        ).sort((a, b) => a.id - b.id);
        if (ids.length !== chunk.length) throw new Error('SOS insert: row count');
        chunk.forEach((r, k) => {
          const stored = ids[k]!;
          if (stored.device_id !== r.device_id || stored.time !== r.time || stored.payload !== r.payload)
            throw new Error('SOS insert: returned rows out of order');
          const j = jobs[i + k]!;
          events.push({
            ...refOf(j.device),
            event_id: stored.id,
            time: r.time,
            lat: r.lat,
            lng: r.lng,
            message: j.message,
          });
        });
      }
      after = this.sosSink ? await this.sosSink(trx, events) : null;
    });
    return () => {
      this.stats.sos += jobs.length;
      this.stats.sosCommits += 1;
      jobs.forEach((j, i) => j.resolve(events[i]!.event_id));
      try {
        (after as (() => void) | null)?.();
      } finally {
        for (const e of events) this.app.bus.emit('device.sos', e);
      }
    };
  }

  // ---- positions --------------------------------------------------------------------------

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
    this.stats.rejected += rejected.length;
    return { rows, rejected };
  }

  /** Store positions of a device; resolves once they are committed (group commit). */
  ingest(device: CachedDevice, rows: NewPosition[]): Promise<void> {
    if (device.remote_kill === 1) return Promise.reject(new AppError(ResultCode.LOCKED, 'errors.device.killed'));
    if (!rows.length) return this.touch(device);
    return new Promise<void>((resolve, reject) => this.positionCommit.add({ device, rows, resolve, reject }));
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
    const nowMs = Date.now();
    for (const { device, row } of newest.values()) {
      if (device.gps_time === null || row.time > device.gps_time) device.gps_time = row.time;
      device.lastTouch = nowMs;
    }
    for (const device of cameOnline) device.lineon = 1;
    this.stats.positions += all.length;
    this.stats.flushes += 1;
    for (const job of jobs) job.resolve();
    for (const device of cameOnline) this.app.bus.emit('device.online', { ...refOf(device), time: seenAt });
    if (this.app.bus.listenerCount('positions')) {
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
      this.app.bus.emit('positions', { positions });
    }
  }

  /** One flush: the SQLite fast path (prepared statements, retried while locked) or Kysely. */
  private async write(rows: NewPosition[], updates: LatestUpdate[], seenAt: string): Promise<void> {
    if (this.sqlite) {
      for (let attempt = 0; ; attempt++) {
        try {
          this.sqlite.write(rows, updates, seenAt);
          return;
        } catch (err) {
          if (!(err instanceof BusyError) || attempt >= BUSY_RETRIES) throw err;
          await new Promise((r) => setTimeout(r, BUSY_RETRY_MS));
        }
      }
    }
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('positions')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .execute();
      }
      for (const u of updates) {
        const r = u.row;
        await trx
          .updateTable('devices')
          .set({
            last_seen: seenAt,
            ...(u.online ? { lineon: 1 } : {}),
            ...(u.fresher
              ? {
                  lat: r.lat,
                  lng: r.lng,
                  speed: r.speed,
                  course: r.course,
                  accuracy: r.accuracy,
                  gps_time: r.time,
                  ...(r.battery !== null && r.battery !== undefined ? { battery: r.battery } : {}),
                }
              : {}),
          })
          .where('id', '=', u.id)
          .execute();
        if (u.online) {
          await trx
            .insertInto('device_events')
            .values({
              device_id: u.id,
              unit_id: u.unit_id,
              type: 'online',
              time: seenAt,
              lat: null,
              lng: null,
              payload: '{}',
              created: seenAt,
            })
            .execute();
        }
      }
    });
  }

  /** Resolves when everything queued so far is written. */
  async drain(): Promise<void> {
    await this.positionCommit.drain();
    await this.sosCommit.drain();
  }

  // ---- silence timeout --------------------------------------------------------------------

  /** Mark offline every online device silent for longer than the silence timeout. */
  async sweep(nowMs: number = Date.now()): Promise<number[]> {
    const { silence_timeout_s } = await readDeviceSettings(this.db);
    const cutoff = new Date(nowMs - silence_timeout_s * 1000).toISOString();
    const ts = new Date(nowMs).toISOString();
    const silent = await this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .updateTable('devices')
        .set({ lineon: 0 })
        .where('lineon', '=', 1)
        .where((eb) => eb.or([eb('last_seen', 'is', null), eb('last_seen', '<', cutoff)]))
        .returning(['id', 'unit_id', 'hostbody', 'imei', 'hostname'])
        .execute();
      if (rows.length)
        await trx
          .insertInto('device_events')
          .values(
            rows.map((r) => ({
              device_id: r.id,
              unit_id: r.unit_id,
              type: 'offline',
              time: ts,
              lat: null,
              lng: null,
              payload: JSON.stringify({ reason: 'silence' }),
              created: ts,
            })),
          )
          .execute();
      return rows;
    });
    for (const r of silent) {
      const entry = this.byId.get(r.id);
      if (entry) entry.lineon = 0;
      this.app.bus.emit('device.offline', {
        device_id: r.id,
        unit_id: r.unit_id,
        hostbody: r.hostbody,
        imei: r.imei,
        hostname: r.hostname,
        time: ts,
        reason: 'silence',
      });
    }
    return silent.map((r) => r.id);
  }

  // ---- remote control ---------------------------------------------------------------------

  /**
   * Remote kill / wake (spec part 2 section 4): kill sets remote_kill 1, lineon 0 and typecate
   * flags 1-3 to 0; wake sets remote_kill 0, lineon 1 and the flags to 1. The command is queued
   * for the device in the same transaction.
   */
  async remote(deviceId: number, action: 'remote_kill' | 'remote_wakeon', userId: number) {
    const row = await this.db.selectFrom('devices').selectAll().where('id', '=', deviceId).executeTakeFirstOrThrow();
    const kill = action === 'remote_kill';
    const current = parseTypecate(row.typecate);
    const typecate = [current[0] ?? 1, ...[1, 2, 3].map(() => (kill ? 0 : 1))];
    const ts = now();
    const state = { remote_kill: kill ? 1 : 0, lineon: kill ? 0 : 1, typecate };
    const device = this.byId.get(deviceId) ?? cached(row);
    const commandId = await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('devices')
        .set({
          remote_kill: state.remote_kill,
          lineon: state.lineon,
          typecate: JSON.stringify(typecate),
          updated: ts,
          ...(kill ? {} : { last_seen: ts }),
        })
        .where('id', '=', deviceId)
        .execute();
      await this.event(trx, device, action, ts, { payload: { user_id: userId } });
      return this.commands.insert(trx, deviceId, action, userId);
    });
    this.commands.notify(deviceId);
    const entry = this.byId.get(deviceId);
    if (entry) {
      entry.remote_kill = state.remote_kill;
      entry.lineon = state.lineon;
      entry.lastTouch = Date.now();
    }
    const ref = refOf({
      id: row.id,
      unit_id: row.unit_id,
      hostbody: row.hostbody,
      imei: row.imei,
      hostname: row.hostname,
    });
    this.app.bus.emit('device.remote', { ...ref, action, ...state, user_id: userId });
    if (kill && row.lineon === 1) this.app.bus.emit('device.offline', { ...ref, time: ts, reason: 'killed' });
    if (!kill && row.lineon === 0) this.app.bus.emit('device.online', { ...ref, time: ts });
    return { id: row.id, imei: row.imei, ...state, command_id: commandId };
  }

  /** Queue a command (send_cmd, send_restart). */
  sendCommand(deviceId: number, type: DeviceCommandType, userId: number): Promise<number> {
    return this.commands.send(this.db, deviceId, type, userId);
  }

  // ---- lifecycle --------------------------------------------------------------------------

  start(intervalMs = SWEEP_INTERVAL_MS): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      this.sweep().catch((err: unknown) => this.app.log.error({ err }, 'device silence sweep failed'));
    }, intervalMs);
    this.sweeper.unref();
  }

  async stop(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    this.commands.close();
    await this.drain().catch(() => {});
    this.sqlite?.close();
  }
}
