import type { FastifyInstance } from 'fastify';
import { registerIndexRoutes } from './index.routes';

/** The public page info and the server version: the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerIndexModule(app: FastifyInstance): Promise<void> {
  await registerIndexRoutes(app);
}
