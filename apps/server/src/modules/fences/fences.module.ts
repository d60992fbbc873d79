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
 */
export async function registerFencesModule(app: FastifyInstance): Promise<FenceEngine> {
  const engine = new FenceEngine({ db: app.db, bus: app.bus, log: app.log });
  app.decorate('fences', engine);
  const off = app.bus.on('positions', ({ positions }) => engine.onPositions(positions));
  app.addHook('onClose', async () => {
    off();
    await engine.idle();
  });

  await registerFenceRoutes(app, engine);
  return engine;
}
