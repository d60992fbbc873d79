import type { FastifyInstance } from 'fastify';
import { FenceEngine } from './fence-engine';
import { registerFenceRoutes } from './fences.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** fence crossing detection (modules/fences/fence-engine.ts) */
    fences: FenceEngine;
  }
}

/**
 * Fences and zones: the crossing engine (fed by the bus `positions` event, emits `fence.crossed`,
 * drained on close) and the fence and zone routes. Answers the engine (also `app.fences`, which
 * tests use to wait for a processed batch).
 *
 * In a cluster the engine runs on the node holding the scheduler lease, for the positions of every
 * node (one engine, one set of inside/outside states, each crossing once); a node that takes the
 * lease reloads fences and states from the database first.
 */
export async function registerFencesModule(app: FastifyInstance): Promise<FenceEngine> {
  const engine = new FenceEngine({ db: app.db, bus: app.bus, log: app.log });
  const lease = app.cluster.scheduler;
  app.decorate('fences', engine);
  const offs = [
    app.bus.on('positions', ({ positions }) => {
      if (lease.held) engine.onPositions(positions);
    }),
    app.bus.on('fence.changed', (_e, from) => {
      if (from !== undefined && lease.held) void engine.reload();
    }),
    lease.onChange((held) => {
      if (held) void engine.reload();
    }),
  ];
  app.addHook('onClose', async () => {
    for (const off of offs) off();
    await engine.idle();
  });

  await registerFenceRoutes(app, engine);
  return engine;
}
