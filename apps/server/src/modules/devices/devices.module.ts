import type { LicenceGate } from './devices.service';
import type { FastifyInstance } from 'fastify';
import { registerDeviceApiRoutes } from './device-api.routes';
import { registerDeviceAdminRoutes } from './devices.routes';
import { registerGismoniRoutes } from './gismoni.routes';
import { buildOsmandServer } from './osmand';
import { DeviceRuntime } from './runtime';
import { tellOperator } from '../../operator';

declare module 'fastify' {
  interface FastifyInstance {
    /** live device state: credentials cache, position ingest, state, commands (modules/devices/runtime.ts) */
    devices: DeviceRuntime;
  }
}

/**
 * Devices: registry and models, the device API, the dispatch map calls, the silence sweeper
 * (started once the server listens) and the OsmAnd listener on OSMAND_PORT. Answers the runtime,
 * which the modules that use devices receive as an explicit dependency (its hooks: the SOS
 * transaction and the SOS state of the point snapshot, provided by the alarms module).
 */
export interface DevicesModuleDeps {
  /** the licence module: how many devices the licence allows */
  licence: LicenceGate;
}

export async function registerDevicesModule(
  app: FastifyInstance,
  { licence }: DevicesModuleDeps,
): Promise<DeviceRuntime> {
  const runtime = new DeviceRuntime({
    db: app.db,
    bus: app.bus,
    log: app.log,
    database: app.config.database,
    scheduler: app.cluster.scheduler,
  });
  app.decorate('devices', runtime);
  // a changed or deleted record (secret, unit, name) is reloaded by the next device call
  app.bus.on('device.changed', (e) => runtime.invalidate(e.device_id));
  await registerDeviceAdminRoutes(app, licence);
  await registerDeviceApiRoutes(app, runtime, licence);
  await registerGismoniRoutes(app, runtime);

  let osmand: FastifyInstance | null = null;
  app.addHook('onListen', async () => {
    runtime.start();
    const port = app.config.osmandPort ?? 0;
    if (port > 0 && !osmand) {
      const server = await buildOsmandServer({ runtime, log: app.log });
      try {
        await server.listen({ port, host: app.config.host });
        osmand = server;
        app.log.info({ port }, 'OsmAnd (Traccar Client) ingest listening');
      } catch (err) {
        await server.close();
        tellOperator(
          app,
          err,
          `OsmAnd (Traccar Client) ingest cannot listen on port ${port} (${(err as NodeJS.ErrnoException).code ?? 'error'}): set OSMAND_PORT to a free port, 0 disables it`,
        );
      }
    }
  });
  // release long polls before the server waits for in-flight requests
  app.addHook('preClose', async () => runtime.commands.close());
  app.addHook('onClose', async () => {
    await runtime.stop();
    await osmand?.close();
  });
  return runtime;
}
