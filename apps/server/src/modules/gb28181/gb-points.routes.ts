import type { GbSitePush } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { GbSitePushQueue, type PushClient } from './gb-points.push';
import { gbPoints, gbSiteOf } from './gb-points.service';
import type { GbRuntime } from './gb-runtime';

declare module '../../bus' {
  interface DomainEvents {
    /** a GB device's stored position or online change (the node it registered with emits it) */
    'gb.site': GbSitePush;
  }
}

/**
 * GB devices on the emergency map (README "Map"): POST gis/gismoni/gb_points, and gb_site_data on the session
 * channel when a device's position or online state is stored.
 */
export async function registerGbPoints(app: FastifyInstance, runtime: GbRuntime): Promise<void> {
  defineRoute(app, { api: 'gbDevicePoints', handler: async ({ db, user, body }) => gbPoints(db, user, body) });
  // the session channel is registered by the alarms module; read it when pushing
  const push = new GbSitePushQueue(() =>
    app.hasDecorator('sessionHub') ? (app.sessionHub.clients as Iterable<PushClient>) : [],
  );
  runtime.on('stored', ({ deviceId, what }) => {
    if (what === 'catalog') return;
    void gbSiteOf(app.db, deviceId)
      .then((site) => site && app.bus.emit('gb.site', site))
      .catch((err: unknown) => app.log.warn({ err, deviceId }, 'gb28181: position not pushed'));
  });
  // every node pushes to its own consoles (a device registers with one node only)
  app.bus.on('gb.site', (site) => push.queue(site));
  app.addHook('preClose', async () => push.close());
}
