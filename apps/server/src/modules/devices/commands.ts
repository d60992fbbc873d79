import { DEVICE_COMMAND_WAIT_MAX_S, ResultCode, type DeviceCommand, type DeviceCommandType } from '@bwc/protocol';
import type { EventBus } from '../../bus';
import type { Db } from '../../db/connection';
import { AppError } from '../../http/errors';
import * as repo from './devices.repository';

/** A command handed out but not acknowledged is handed out again after this long. */
const REDELIVER_MS = 30_000;

/**
 * The command queue of the devices (send_cmd, send_restart, remote kill/wake): rows of
 * device_commands, status `pending` until the device acknowledges `ok` or `failed`. Devices poll
 * or long-poll `fetch`; `notify` wakes the long polls of a device once a command is committed.
 */
/** Makes a command's payload when the device fetches it (`hostname`: the host it reached us at). */
export type PayloadMaker = (deviceId: number, hostname: string) => Record<string, unknown> | undefined;

export class CommandQueue {
  private readonly waiters = new Map<number, Set<() => void>>();
  private closed = false;
  /**
   * Payloads made at delivery, by type (startlive: the media module's signed publish URL, minted
   * when fetched so that a redelivered command carries a fresh single-use key)
   */
  readonly payloads: Partial<Record<DeviceCommandType, PayloadMaker>> = {};

  /** `bus`: `device.command` tells every node (the device may long-poll any of them) */
  constructor(private readonly bus: EventBus) {}

  /** Insert a pending command (call `notify` after the surrounding transaction commits). */
  insert(db: Db, deviceId: number, type: DeviceCommandType, userId: number | null): Promise<number> {
    return repo.insertCommand(db, deviceId, type, userId);
  }

  /** Insert and wake the device's long polls. */
  async send(db: Db, deviceId: number, type: DeviceCommandType, userId: number | null): Promise<number> {
    const id = await this.insert(db, deviceId, type, userId);
    this.notify(deviceId);
    return id;
  }

  /** A command for the device was committed: wake its long polls, on whichever node they wait. */
  notify(deviceId: number): void {
    this.bus.emit('device.command', { device_id: deviceId });
  }

  /** Wake the long polls of the device held by this node. */
  wake(deviceId: number): void {
    const set = this.waiters.get(deviceId);
    if (!set) return;
    this.waiters.delete(deviceId);
    for (const wake of set) wake();
  }

  private due(db: Db, deviceId: number): Promise<DeviceCommand[]> {
    return repo.takeDueCommands(db, deviceId, new Date(Date.now() - REDELIVER_MS).toISOString());
  }

  /** Commands due for the device; with waitS > 0 waits for one (long poll) unless `aborted`. */
  async fetch(db: Db, deviceId: number, waitS: number, aborted?: AbortSignal): Promise<DeviceCommand[]> {
    const first = await this.due(db, deviceId);
    if (first.length || waitS <= 0 || this.closed || aborted?.aborted) return first;
    await new Promise<void>((resolve) => {
      const wait = Math.min(waitS, DEVICE_COMMAND_WAIT_MAX_S) * 1000;
      let set = this.waiters.get(deviceId);
      if (!set) this.waiters.set(deviceId, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        aborted?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, wait);
      set.add(done);
      aborted?.addEventListener('abort', done);
    });
    if (this.closed || aborted?.aborted) return [];
    return this.due(db, deviceId);
  }

  /** The commands as the device receives them, with the payloads made for it now. */
  withPayloads(commands: DeviceCommand[], deviceId: number, hostname: string): DeviceCommand[] {
    return commands.map((cmd) => {
      const payload = this.payloads[cmd.type]?.(deviceId, hostname);
      return payload ? { ...cmd, payload } : cmd;
    });
  }

  /** Acknowledge a command of this device; acknowledging twice is harmless. */
  async ack(db: Db, deviceId: number, id: number, result: 'ok' | 'failed', message: string): Promise<void> {
    const row = await repo.findCommand(db, id);
    if (!row || row.device_id !== deviceId)
      throw new AppError(ResultCode.NOT_FOUND, 'errors.device.commandNotFound', { id });
    if (row.status !== 'pending') return;
    await repo.ackCommand(db, id, result, message);
  }

  /** Release every long poll (server closing). */
  close(): void {
    this.closed = true;
    for (const id of [...this.waiters.keys()]) this.notify(id);
  }
}
