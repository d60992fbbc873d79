import type { FastifyInstance } from 'fastify';
import { registerMessageRoutes } from './messages.routes';

/** Message push (menu 10105): the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerMessagesModule(app: FastifyInstance): Promise<void> {
  await registerMessageRoutes(app);
}
