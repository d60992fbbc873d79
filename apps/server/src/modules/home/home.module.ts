import type { FastifyInstance } from 'fastify';
import { registerHomeRoutes } from './home.routes';

/** The home page figures (GET /rest/index/index/home): the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerHomeModule(app: FastifyInstance): Promise<void> {
  await registerHomeRoutes(app);
}
