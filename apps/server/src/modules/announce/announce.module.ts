import type { FastifyInstance } from 'fastify';
import { registerAnnounceRoutes } from './announce.routes';

/** Announcements (rest/system/announce/*): the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerAnnounceModule(app: FastifyInstance): Promise<void> {
  await registerAnnounceRoutes(app);
}
