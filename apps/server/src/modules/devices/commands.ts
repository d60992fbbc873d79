import { DEVICE_COMMAND_WAIT_MAX_S, type DeviceCommand, type DeviceCommandType } from '@bwc/protocol';
import { now, type Db } from '../../db/connection';
import { AppError } from '../../http/errors';
import { ResultCode } from '@bwc/protocol';

/** A command handed out but not acknowledged is handed out again after this long. */
const REDELIVER_MS = 30_000;

/**
 * The command queue of the devices (send_cmd, send_restart, remote kill/wake): rows of
 * device_commands, status `pending` until the device acknowledges `ok` or `failed`. Devices poll
 * or long-poll `fetch`; `notify` wakes the long polls of a device once a command is committed.
 */
export class CommandQueue {
  private readonly waiters = new Map<number, Set<() => void>>();
  private closed = false;

  /** Insert a pending command (call `notify` after the surrounding transaction commits). */
  async insert(db: Db, deviceId: number, type: DeviceCommandType, userId: number | null): Promise<number> {
    const row = await db
      .insertInto('device_commands')
      .values({
        device_id: deviceId,
        type,
        status: 'pending',
        user_id: userId,
        result_msg: '',
        created: now(),
        delivered: null,
        acked: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Insert and wake the device's long polls. */
  async send(db: Db, deviceId: number, type: DeviceCommandType, userId: number | null): Promise<number> {
    const id = await this.insert(db, deviceId, type, userId);
    this.notify(deviceId);
    return id;
  }

  notify(deviceId: number): void {
    const set = this.waiters.get(deviceId);
    if (!set) return;
    this.waiters.delete(deviceId);
    for (const wake of set) wake();
  }

  private async due(db: Db, deviceId: number): Promise<DeviceCommand[]> {
    const ts = now();
    const redeliver = new Date(Date.now() - REDELIVER_MS).toISOString();
    const rows = await db
      .selectFrom('device_commands')
      .select(['id', 'type', 'created'])
      .where('device_id', '=', deviceId)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('delivered', 'is', null), eb('delivered', '<', redeliver)]))
      .orderBy('id')
      .limit(100)
      .execute();
    if (rows.length)
      await db
        .updateTable('device_commands')
        .set({ delivered: ts })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    return rows.map((r) => ({ id: r.id, type: r.type as DeviceCommand['type'], created: r.created }));
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

  /** Acknowledge a command of this device; acknowledging twice is harmless. */
  async ack(db: Db, deviceId: number, id: number, result: 'ok' | 'failed', message: string): Promise<void> {
    const row = await db
      .selectFrom('device_commands')
      .select(['id', 'device_id', 'status'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || row.device_id !== deviceId)
      throw new AppError(ResultCode.NOT_FOUND, 'errors.device.commandNotFound', { id });
    if (row.status !== 'pending') return;
    await db
      .updateTable('device_commands')
      .set({ status: result, result_msg: message, acked: now() })
      .where('id', '=', id)
      .execute();
  }

  /** Release every long poll (server closing). */
  close(): void {
    this.closed = true;
    for (const id of [...this.waiters.keys()]) this.notify(id);
  }
}
