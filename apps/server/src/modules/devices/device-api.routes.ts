import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEVICE_POSITION_BATCH_MAX, type DeviceApiConfig, ResultCode } from '@bwc/protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { readSettings } from '../../db/settings';
import { AppError } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { sameHash, sha256Hex } from './credentials';
import { seedDemoOfficers } from '../../db/seed/demo';
import { joinDemoTalkGroups } from '../groups/demo-groups';
import { provision, type LicenceGate } from './devices.service';
import { readDeviceSettings } from './settings';
import type { DeviceRuntime } from './runtime';

/** File of the generated provisioning key in demo mode. */
export const PROVISION_KEY_FILE = 'device-provision.key';

/** The provisioning key: config DEVICE_PROVISION_KEY, else in demo mode one generated into DATA_DIR. */
export function provisioningKey(app: FastifyInstance): string | null {
  if (app.config.deviceProvisionKey) return app.config.deviceProvisionKey;
  if (!app.config.demo) return null;
  const file = join(app.config.dataDir, PROVISION_KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim() || null;
  mkdirSync(app.config.dataDir, { recursive: true });
  const key = randomBytes(24).toString('base64url');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

export async function deviceApiConfig(app: FastifyInstance): Promise<DeviceApiConfig> {
  const map = await readSettings(app.db, 'digitailmap');
  const { silence_timeout_s } = await readDeviceSettings(app.db);
  return {
    gpscenter_lon: map.gpscenter_lon,
    gpscenter_lat: map.gpscenter_lat,
    silence_timeout_s,
    position_batch_max: DEVICE_POSITION_BATCH_MAX,
  };
}

/**
 * The device API (cameras, the simulator): no console session; each call authenticates the
 * device itself (`runtime.authenticate`). Not written to the operation log (volume).
 */
export async function registerDeviceApiRoutes(
  app: FastifyInstance,
  runtime: DeviceRuntime,
  licence: LicenceGate,
): Promise<void> {
  const key = provisioningKey(app);

  defineRoute(app, {
    api: 'deviceLogin',
    selfAuth: true,
    handler: async ({ body }) => {
      const { device, token } = await runtime.login(body.device, body.secret);
      return { token, id: device.id, hostbody: device.hostbody, imei: device.imei };
    },
  });

  defineRoute(app, {
    api: 'devicePositions',
    selfAuth: true,
    msg: 'success.device.accepted',
    handler: async ({ req, body, lang }) => {
      const device = await runtime.authenticate(req);
      const { rows, rejected } = runtime.validateBatch(device, body.positions, lang);
      await runtime.ingest(device, rows);
      return { accepted: rows.length, rejected };
    },
  });

  defineRoute(app, {
    api: 'deviceSos',
    selfAuth: true,
    handler: async ({ req, body }) => {
      const device = await runtime.authenticate(req);
      return { event_id: await runtime.sos(device, body) };
    },
  });

  defineRoute(app, {
    api: 'deviceState',
    selfAuth: true,
    handler: async ({ req, body }) => {
      const device = await runtime.authenticate(req);
      await runtime.setState(device, body.state, body.battery);
      return null;
    },
  });

  defineRoute(app, {
    api: 'deviceCommands',
    selfAuth: true,
    handler: async ({ req, reply, query }) => {
      const device = await runtime.authenticate(req);
      await runtime.touch(device);
      const commands = await runtime.commands.fetch(app.db, device.id, query.wait, closed(reply));
      return runtime.commands.withPayloads(commands, device.id, req.hostname);
    },
  });

  defineRoute(app, {
    api: 'deviceCommandAck',
    selfAuth: true,
    handler: async ({ req, body }) => {
      const device = await runtime.authenticate(req);
      await runtime.commands.ack(app.db, device.id, body.id, body.result, body.message);
      return null;
    },
  });

  defineRoute(app, {
    api: 'deviceConfig',
    selfAuth: true,
    handler: async ({ req }) => {
      await runtime.authenticate(req);
      return deviceApiConfig(app);
    },
  });

  defineRoute(app, {
    api: 'deviceProvision',
    selfAuth: true,
    msg: 'success.added',
    handler: async ({ req, body }) => {
      if (!key) throw new AppError(ResultCode.FORBIDDEN, 'errors.device.provisionDisabled');
      const header = req.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!given || !sameHash(sha256Hex(given), sha256Hex(key)))
        throw new AppError(ResultCode.UNAUTHENTICATED, 'errors.device.provisionKey');
      req.audit.actor = { username: 'device-provisioning' };
      req.audit.target = body.devices.length;
      const devices = await provision(app, licence, body.devices);
      // demo conveniences: never the reason a provisioning fails
      if (app.config.demo) {
        const ids = devices.map((d) => d.id);
        await joinDemoTalkGroups(app.db, app.bus, ids).catch((err: unknown) =>
          app.log.warn({ err }, 'demo talk groups not made'),
        );
        await seedDemoOfficers(app.db, ids).then(
          (owned) => owned.forEach((id) => app.bus.emit('device.changed', { device_id: id, kind: 'updated' })),
          (err: unknown) => app.log.warn({ err }, 'demo officers not made'),
        );
      }
      return { devices, config: await deviceApiConfig(app) };
    },
  });
}

/** An AbortSignal that fires when the client goes away (ends a long poll early). */
function closed(reply: FastifyReply): AbortSignal {
  const ctl = new AbortController();
  reply.raw.once('close', () => ctl.abort());
  return ctl.signal;
}
