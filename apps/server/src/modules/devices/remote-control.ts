import type { DeviceCommandType } from '@bwc/protocol';
import type { EventBus } from '../../bus';
import { now, type Db } from '../../db/connection';
import type { CommandQueue } from './commands';
import { refOf, type DeviceCache } from './device-cache';
import { parseTypecate } from './devices.presenter';
import * as repo from './devices.repository';

export interface RemoteControlDeps {
  db: Db;
  bus: EventBus;
  cache: DeviceCache;
  commands: CommandQueue;
}

/** What a console user does to a device: remote kill / wake and queued commands. */
export class RemoteControl {
  constructor(private readonly deps: RemoteControlDeps) {}

  /**
   * Remote kill / wake (spec part 2 section 4): kill sets remote_kill 1, lineon 0 and typecate
   * flags 1-3 to 0; wake sets remote_kill 0, lineon 1 and the flags to 1. The command is queued
   * for the device in the same transaction.
   */
  async remote(deviceId: number, action: 'remote_kill' | 'remote_wakeon', userId: number) {
    const { db, bus, cache, commands } = this.deps;
    const row = await repo.findDeviceRow(db, deviceId);
    if (!row) throw new Error(`device ${deviceId} not found`);
    const kill = action === 'remote_kill';
    const current = parseTypecate(row.typecate);
    const typecate = [current[0] ?? 1, ...[1, 2, 3].map(() => (kill ? 0 : 1))];
    const ts = now();
    const state = { remote_kill: kill ? 1 : 0, lineon: kill ? 0 : 1, typecate };
    const commandId = await db.transaction().execute(async (trx) => {
      await repo.setRemoteState(trx, deviceId, state, ts);
      await repo.insertDeviceEvent(trx, {
        device_id: row.id,
        unit_id: row.unit_id,
        type: action,
        time: ts,
        payload: { user_id: userId },
      });
      return commands.insert(trx, deviceId, action, userId);
    });
    commands.notify(deviceId);
    const entry = cache.peek(deviceId);
    if (entry) {
      entry.remote_kill = state.remote_kill;
      entry.lineon = state.lineon;
      entry.lastTouch = Date.now();
    }
    const ref = refOf(row);
    bus.emit('device.remote', { ...ref, action, ...state, user_id: userId });
    if (kill && row.lineon === 1) bus.emit('device.offline', { ...ref, time: ts, reason: 'killed' });
    if (!kill && row.lineon === 0) bus.emit('device.online', { ...ref, time: ts });
    return { id: row.id, imei: row.imei, ...state, command_id: commandId };
  }

  /** Queue a command (send_cmd, send_restart). */
  sendCommand(deviceId: number, type: DeviceCommandType, userId: number): Promise<number> {
    return this.deps.commands.send(this.deps.db, deviceId, type, userId);
  }
}
