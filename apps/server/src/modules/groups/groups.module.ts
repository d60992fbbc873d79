import type { FastifyInstance } from 'fastify';
import { registerGroupRoutes } from './groups.routes';
import * as groups from './groups.service';

/** How often expired temporary groups are removed besides every group call. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Talk groups: the sweeper of expired temporary groups (every SWEEP_INTERVAL_MS once the server
 * listens, on the node holding the cluster's scheduler lease, stopped on close) and the group routes.
 */
export async function registerGroupsModule(app: FastifyInstance): Promise<void> {
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onListen', async () => {
    timer = setInterval(() => {
      // in a cluster, on the node holding the scheduler lease (every group call also sweeps)
      if (!app.cluster.scheduler.held) return;
      groups.sweepExpired(app).catch((err: unknown) => app.log.error({ err }, 'temporary group sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });

  await registerGroupRoutes(app);
}
