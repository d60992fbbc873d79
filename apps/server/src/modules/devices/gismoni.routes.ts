import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connection';
import { AppError } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { assertInScope, unitScope, type UnitScope } from '../../http/scope';
import { ResultCode } from '@bwc/protocol';
import { presentDevice, presentPoint, presentStatus } from './devices.presenter';
import * as repo from './devices.repository';
import { deviceNotFound, scopedUnitIds } from './devices.service';
import type { DeviceRuntime } from './runtime';

/** The device with this imei, in the caller's scope. */
async function byImei(db: Db, scope: UnitScope, imei: string) {
  const row = await repo.findDeviceByImei(db, imei);
  if (!row) throw deviceNotFound();
  assertInScope(scope, row.unit_id);
  return row;
}

/**
 * Dispatch map calls of spec part 2 section 7.2 (`rest/gis/gismoni/*`) that concern positions,
 * status and commands. Reads need view on Emergency (10101), commands edit. Unit-scoped: ids
 * outside the caller's scope are left out of lists; a single device outside it is refused.
 */
export async function registerGismoniRoutes(app: FastifyInstance, runtime: DeviceRuntime): Promise<void> {
  defineRoute(app, {
    api: 'gisGetPoint',
    handler: async ({ db, user, body }) => {
      const scope = await unitScope(db, user);
      const rows = await repo.devicePoints(db, scope.all ? null : scope.ids, [...new Set(body.ids)]);
      const sos = await runtime.sosState.current(db, user);
      return rows.map((row) => presentPoint(row, sos.has(row.id)));
    },
  });

  defineRoute(app, {
    api: 'gisDeviceDetail',
    handler: async ({ db, user, body }) => {
      const scope = await unitScope(db, user);
      const rows = await repo.findDevicesByIds(db, [...new Set(body.ids)]);
      return rows.filter((r) => scope.all || scope.ids.includes(r.unit_id)).map(presentDevice);
    },
  });

  defineRoute(app, {
    api: 'gisUnitDevicePoint',
    handler: async ({ db, user, body }) => {
      const unitIds = await scopedUnitIds(db, await unitScope(db, user), body.unit_id, true);
      const rows = await repo.devicePoints(db, unitIds, undefined, body.located === 1);
      const sos = await runtime.sosState.current(db, user);
      return rows.map((row) => presentPoint(row, sos.has(row.id)));
    },
  });

  defineRoute(app, {
    api: 'gisStatus',
    handler: async ({ db, user, body }) => {
      const row = await byImei(db, await unitScope(db, user), body.imei);
      const live = runtime.liveInfo?.(row.id) ?? { state: 'idle' as const, viewers: 0, since: null, bitrate: 0 };
      return { ...presentStatus(row, await repo.pendingCommandCount(db, row.id)), live };
    },
  });

  defineRoute(app, {
    api: 'gisSendRestart',
    msg: 'success.device.commandSent',
    handler: async ({ db, user, body, req }) => {
      const row = await byImei(db, await unitScope(db, user), body.imei);
      if (row.hostbody !== body.hostbody)
        throw new AppError(ResultCode.INVALID, 'errors.device.mismatch', { imei: body.imei, hostbody: body.hostbody });
      req.audit.target = row.id;
      return { command_id: await runtime.sendCommand(row.id, 'restart', user.id), type: 'restart' };
    },
  });

  defineRoute(app, {
    api: 'gisSendCmd',
    msg: 'success.device.commandSent',
    handler: async ({ db, user, body, req }) => {
      const row = await byImei(db, await unitScope(db, user), body.imei);
      req.audit.target = row.id;
      return { command_id: await runtime.sendCommand(row.id, body.type, user.id), type: body.type };
    },
  });

  defineRoute(app, {
    api: 'gisRemoteKill',
    msg: 'success.device.remote',
    handler: async ({ db, user, body, req }) => {
      const row = await byImei(db, await unitScope(db, user), body.imei);
      req.audit.target = row.id;
      return runtime.remote(row.id, body.action, user.id);
    },
  });
}
