import os from 'node:os';
import { Api } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { gbAlarmInput } from './gb-alarms';
import { registerGbDeviceRoutes } from './gb-devices.routes';
import { registerGbPoints } from './gb-points.routes';
import { GbRuntime } from './gb-runtime';
import { seedGbMode } from './gb28181.repository';
import { createGbLive, type GbLive } from './live/gb-live.module';
import { registerGbRoutes } from './gb28181.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** the GB/T 28181 platform: `gb.platform` the running GbSipPlatform or null, events, `reload()` */
    gb: GbRuntime;
    /** GB live video and playback (./live) on the running platform; null while it does not run */
    gbLive: { current: GbLive | null };
  }
}

/** The address devices send media to when LocalIp is every interface: the first external IPv4. */
function mediaAddress(localIp: string): string {
  if (localIp) return localIp;
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '127.0.0.1';
}

/**
 * GB/T 28181 as the console sees it: the GB player's configuration and user check, and the SIP
 * platform (./sip) run from the gbconfig settings while gb_mode is on, started when the server is
 * ready, restarted when the settings are saved, stopped on close. GB_MODE=1 turns the GB mode
 * flag on in settings never saved.
 */
export async function registerGb28181Module(app: FastifyInstance): Promise<void> {
  if (app.config.gbMode) await seedGbMode(app.db);
  const runtime = new GbRuntime(app.db, app.log);
  app.decorate('gb', runtime);
  await registerGbRoutes(app, runtime);
  await registerGbDeviceRoutes(app, runtime);
  await registerGbPoints(app, runtime);

  // live video follows the platform: made on each start (settings of that start), closed on stop
  const gbLive: { current: GbLive | null } = { current: null };
  app.decorate('gbLive', gbLive);
  runtime.onPlatformChange(async (platform, s) => {
    gbLive.current?.close();
    gbLive.current = null;
    if (!platform) return;
    gbLive.current = await createGbLive(app, {
      platform,
      lookupChannel: (channelId, deviceId) => runtime.channelRef(channelId, deviceId),
      settings: {
        platformId: s.SipId,
        domain: s.SipDomain,
        mediaAddress: mediaAddress(s.LocalIp),
        videoPort: s.VideoPort,
        portCount: s.PortCount,
        ...(s.LocalIp ? { bindHost: s.LocalIp } : {}),
      },
    });
  });

  // device alarms join the alarms pipeline (stored, pushed to the consoles' bells)
  runtime.on('alarm', (a) => {
    void gbAlarmInput(app.db, a)
      .then((input) => input && app.alarms.ingest(input))
      .catch((err: unknown) => app.log.error({ err, deviceId: a.deviceId }, 'gb28181: alarm not stored'));
  });

  app.addHook('onReady', async () => {
    await runtime.reload();
  });
  // a saved gbconfig: follow it before the answer leaves (the saver sees the platform it asked for)
  app.addHook('onSend', async (req, _reply, payload) => {
    if (req.routeOptions.url !== Api.settingsUpdate.path || req.result?.code !== 200) return payload;
    if ((req.body as { type?: unknown } | undefined)?.type !== 'gbconfig') return payload;
    await runtime.reload().catch((err: unknown) => app.log.error({ err }, 'gb28181: reload failed'));
    return payload;
  });
  app.addHook('onClose', async () => {
    await runtime.stop();
  });
}
