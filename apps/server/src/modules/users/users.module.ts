import type { FastifyInstance } from 'fastify';
import { registerUserRoutes } from './users.routes';

/** accountAdmin (menu 10411): accounts and online users: the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerUsersModule(app: FastifyInstance): Promise<void> {
  await registerUserRoutes(app);
}
