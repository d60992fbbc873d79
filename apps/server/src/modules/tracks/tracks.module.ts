import type { FastifyInstance } from 'fastify';
import { registerTrackRoutes } from './tracks.routes';

/** History tracks (menu 10153) and their GPX/KML export: the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerTracksModule(app: FastifyInstance): Promise<void> {
  await registerTrackRoutes(app);
}
