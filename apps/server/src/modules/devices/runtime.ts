import { ResultCode, type DeviceCommandType, type Language, type LiveInfo } from '@bwc/protocol';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { EventBus } from '../../bus';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { AppError } from '../../http/errors';
import { CommandQueue } from './commands';
import type { Lease } from '../../cluster/cluster';
import { DeviceCache, type CachedDevice } from './device-cache';
import { sosStateHook, sosTransactionHook } from './devices.hooks';
import type { NewPosition } from './devices.repository';
import { PositionIngest, type IngestStats, type RejectedItem } from './position-ingest';
import { DevicePresence, SWEEP_INTERVAL_MS } from './presence';
import { RemoteControl } from './remote-control';
import { SosIngest } from './sos-ingest';
import { SqlitePositionWriter } from './sqlite-writer';

export type { CachedDevice } from './device-cache';
export type { NewPosition } from './devices.repository';
export type { RejectedItem } from './position-ingest';
export type { SosEvent, SosSink } from './sos-ingest';

export interface DeviceRuntimeDeps {
  db: Db;
  bus: EventBus;
  log: FastifyBaseLogger;
  database: Config['database'];
  /** the cluster's scheduler lease: the silence sweep runs on its holder only (one node: always) */
  scheduler: Lease;
}

/**
 * The live side of devices, one object per server: the credential cache (device-cache.ts),
 * online/offline with the silence sweeper (presence.ts), position ingest and SOS by group commit
 * (position-ingest.ts, sos-ingest.ts), remote kill/wake and the command queue (remote-control.ts,
 * commands.ts). Their SQL is in devices.repository.ts and sqlite-writer.ts.
 */
export class DeviceRuntime {
  readonly commands: CommandQueue;
  /** a device's live video state for gisstatus (set by the media module; absent: idle) */
  liveInfo: ((deviceId: number) => LiveInfo) | null = null;
  /** totals since start (bench, diagnostics) */
  readonly stats: IngestStats = { positions: 0, flushes: 0, rejected: 0, sos: 0, sosCommits: 0 };
  /** writes sharing each SOS transaction (the alarms module provides them: one alarm per SOS) */
  readonly sosTransaction = sosTransactionHook();
  /** the SOS state of the map's point snapshot (the alarms module provides it) */
  readonly sosState = sosStateHook();

  private readonly cache: DeviceCache;
  private readonly presence: DevicePresence;
  private readonly positions: PositionIngest;
  private readonly sosIngest: SosIngest;
  private readonly control: RemoteControl;
  private readonly sqlite: SqlitePositionWriter | null;

  constructor({ db, bus, log, database, scheduler }: DeviceRuntimeDeps) {
    this.commands = new CommandQueue(bus);
    // SQLite file databases get the prepared-statement write path; PostgreSQL and :memory: use Kysely
    this.sqlite =
      database.kind === 'sqlite' && database.path !== ':memory:' ? new SqlitePositionWriter(database.path) : null;
    this.cache = new DeviceCache(db);
    this.presence = new DevicePresence({ db, bus, cache: this.cache, log, scheduler });
    this.positions = new PositionIngest({ db, bus, presence: this.presence, stats: this.stats, sqlite: this.sqlite });
    this.sosIngest = new SosIngest({
      db,
      bus,
      presence: this.presence,
      stats: this.stats,
      sink: () => this.sosTransaction.current,
    });
    this.control = new RemoteControl({ db, bus, cache: this.cache, commands: this.commands });
    this.followOtherNodes(bus);
  }

  /**
   * A device may report to any node of a cluster: what the other nodes learn of it (online,
   * offline, kill or wake, its newest fix) is applied to this node's cached copy, so that its
   * next message here is judged on the current state (comes back online once, a killed device
   * is refused, an older fix does not replace a newer one). Commands queued on another node wake
   * the long polls held here.
   */
  private followOtherNodes(bus: EventBus): void {
    bus.on('device.command', (e) => this.commands.wake(e.device_id));
    // the cached copy, for another node's event about a device this node has met
    const cached = (deviceId: number, from: string | undefined) =>
      from !== undefined ? this.cache.peek(deviceId) : undefined;
    bus.on('device.online', (e, from) => {
      const entry = cached(e.device_id, from);
      if (entry) entry.lineon = 1;
    });
    bus.on('device.offline', (e, from) => {
      const entry = cached(e.device_id, from);
      if (entry) entry.lineon = 0;
    });
    bus.on('device.remote', (e, from) => {
      const entry = cached(e.device_id, from);
      if (entry) Object.assign(entry, { remote_kill: e.remote_kill, lineon: e.lineon });
    });
    bus.on('positions', ({ positions }, from) => {
      for (const p of positions) {
        const entry = cached(p.device_id, from);
        if (!entry) continue;
        if (entry.gps_time === null || p.time > entry.gps_time) entry.gps_time = p.time;
        if (p.lineon !== undefined) entry.lineon = p.lineon;
      }
    });
  }

  // ---- cache and credentials ----------------------------------------------------------------

  /** Forget a device (its record changed or was deleted); the next call reloads it. */
  invalidate(id: number): void {
    this.cache.invalidate(id);
  }

  /** The cached state of a device if it is loaded (kill/wake keep it in step). */
  peek(id: number): CachedDevice | undefined {
    return this.cache.peek(id);
  }

  /** The device whose hostbody or imei is `ident`. */
  findByIdent(ident: string): Promise<CachedDevice | undefined> {
    return this.cache.findByIdent(ident);
  }

  /** Check a device secret; answers the device or null. */
  verifySecret(ident: string, secret: string): Promise<CachedDevice | null> {
    return this.cache.verifySecret(ident, secret);
  }

  /** Device login: a new bearer token replaces the previous one. */
  async login(ident: string, secret: string): Promise<{ device: CachedDevice; token: string }> {
    const device = await this.cache.verifySecret(ident, secret);
    if (!device) throw new AppError(ResultCode.UNAUTHENTICATED, 'errors.device.credentials');
    const token = await this.cache.issueToken(device);
    await this.presence.touch(device);
    return { device, token };
  }

  /** The calling device: `Authorization: Bearer <device token>` or `Basic base64(hostbody:secret)`. */
  authenticate(req: FastifyRequest): Promise<CachedDevice> {
    return this.cache.authenticate(req);
  }

  // ---- presence -----------------------------------------------------------------------------

  /** The device said something: last_seen, and back online unless remotely killed. */
  touch(device: CachedDevice): Promise<void> {
    return this.presence.touch(device);
  }

  /** The device's own online/offline message. */
  setState(device: CachedDevice, state: 'online' | 'offline', battery?: number): Promise<void> {
    return this.presence.setState(device, state, battery);
  }

  /** Mark offline every online device silent for longer than the silence timeout. */
  sweep(nowMs?: number): Promise<number[]> {
    return this.presence.sweep(nowMs);
  }

  // ---- positions and SOS --------------------------------------------------------------------

  validateBatch(
    device: CachedDevice,
    items: unknown[],
    lang: Language,
  ): { rows: NewPosition[]; rejected: RejectedItem[] } {
    return this.positions.validateBatch(device, items, lang);
  }

  /** Store positions of a device; resolves once they are committed (group commit). */
  ingest(device: CachedDevice, rows: NewPosition[]): Promise<void> {
    return this.positions.ingest(device, rows);
  }

  /** An SOS; resolves with its device event id once committed (with the sink's rows). */
  sos(
    device: CachedDevice,
    input: { time?: string | number; lat?: number; lng?: number; message?: string },
  ): Promise<number> {
    return this.sosIngest.sos(device, input);
  }

  /** Resolves when everything queued so far is written. */
  async drain(): Promise<void> {
    await this.positions.drain();
    await this.sosIngest.drain();
  }

  // ---- remote control -----------------------------------------------------------------------

  remote(deviceId: number, action: 'remote_kill' | 'remote_wakeon', userId: number) {
    return this.control.remote(deviceId, action, userId);
  }

  /** Queue a command (send_cmd, send_restart). */
  sendCommand(deviceId: number, type: DeviceCommandType, userId: number): Promise<number> {
    return this.control.sendCommand(deviceId, type, userId);
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  start(intervalMs = SWEEP_INTERVAL_MS): void {
    this.presence.start(intervalMs);
  }

  async stop(): Promise<void> {
    this.presence.stop();
    this.commands.close();
    await this.drain().catch(() => {});
    this.sqlite?.close();
  }
}
