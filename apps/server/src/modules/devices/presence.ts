import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from '../../bus';
import type { Lease } from '../../cluster/cluster';
import { now, type Db } from '../../db/connection';
import { refOf, type CachedDevice, type DeviceCache } from './device-cache';
import * as repo from './devices.repository';
import { readDeviceSettings } from './settings';

/** last_seen is written at most this often for calls that carry no position. */
const TOUCH_INTERVAL_MS = 5_000;
/** how often the silence sweeper runs */
export const SWEEP_INTERVAL_MS = 5_000;

export interface PresenceDeps {
  db: Db;
  bus: EventBus;
  cache: DeviceCache;
  log: FastifyBaseLogger;
  /** the sweep runs on the node holding the cluster's scheduler lease (one node: always) */
  scheduler: Lease;
}

/**
 * Online and offline: a device comes online with its first message after being offline (unless
 * remotely killed), goes offline with its own status message or when the silence sweeper finds
 * it silent for longer than the silence timeout. Emits `device.online` and `device.offline`.
 */
export class DevicePresence {
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly deps: PresenceDeps) {}

  /**
   * The device said something: last_seen (at most every few seconds), and back online if it was
   * offline and is not remotely killed.
   */
  async touch(device: CachedDevice): Promise<void> {
    const { db, bus } = this.deps;
    const nowMs = Date.now();
    const comesOnline = device.lineon === 0 && device.remote_kill === 0;
    if (!comesOnline && nowMs - device.lastTouch < TOUCH_INTERVAL_MS) return;
    const ts = new Date(nowMs).toISOString();
    device.lastTouch = nowMs;
    if (comesOnline) {
      // another node may have heard it first (or killed it): only the call that changes it announces it
      const changed = await db.transaction().execute(async (trx) => {
        if (!(await repo.bringOnline(trx, device.id, ts))) return false;
        await repo.insertDeviceEvent(trx, { device_id: device.id, unit_id: device.unit_id, type: 'online', time: ts });
        return true;
      });
      if (!changed) {
        await repo.touchDevice(db, device.id, ts);
        // online already, or killed meanwhile (the kill's event updates the cache)
        if (device.remote_kill === 0) device.lineon = 1;
        return;
      }
      device.lineon = 1;
      bus.emit('device.online', { ...refOf(device), time: ts });
    } else {
      await repo.touchDevice(db, device.id, ts);
    }
  }

  /** The device's own online/offline message. */
  async setState(device: CachedDevice, state: 'online' | 'offline', battery?: number): Promise<void> {
    const { db, bus } = this.deps;
    const ts = now();
    device.lastTouch = Date.now();
    if (state === 'online') {
      if (battery !== undefined) await repo.setBattery(db, device.id, battery);
      await this.touch(device);
      return;
    }
    const wasOnline = await db.transaction().execute(async (trx) => {
      if (!(await repo.setOffline(trx, device.id, ts, battery))) return false;
      await repo.insertDeviceEvent(trx, {
        device_id: device.id,
        unit_id: device.unit_id,
        type: 'offline',
        time: ts,
        payload: { reason: 'device' },
      });
      return true;
    });
    device.lineon = 0;
    if (wasOnline) bus.emit('device.offline', { ...refOf(device), time: ts, reason: 'device' });
  }

  /** Mark offline every online device silent for longer than the silence timeout. */
  async sweep(nowMs: number = Date.now()): Promise<number[]> {
    const { db, bus, cache } = this.deps;
    const { silence_timeout_s } = await readDeviceSettings(db);
    const cutoff = new Date(nowMs - silence_timeout_s * 1000).toISOString();
    const ts = new Date(nowMs).toISOString();
    const silent = await repo.markSilentOffline(db, cutoff, ts);
    for (const r of silent) {
      const entry = cache.peek(r.id);
      if (entry) entry.lineon = 0;
      bus.emit('device.offline', { ...refOf(r), time: ts, reason: 'silence' });
    }
    return silent.map((r) => r.id);
  }

  /** Run the sweeper every `intervalMs` while this node holds the scheduler lease. */
  start(intervalMs = SWEEP_INTERVAL_MS): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      if (!this.deps.scheduler.held) return;
      this.sweep().catch((err: unknown) => this.deps.log.error({ err }, 'device silence sweep failed'));
    }, intervalMs);
    this.sweeper.unref();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }
}
