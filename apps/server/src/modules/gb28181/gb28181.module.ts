import type { FastifyInstance } from 'fastify';
import { seedGbMode } from './gb28181.repository';
import { registerGbRoutes } from './gb28181.routes';

/**
 * GB/T 28181 as the console sees it: the GB player's configuration and user check. GB_MODE=1
 * turns the GB mode flag on in settings never saved. The SIP platform (./sip) is not started here yet.
 */
export async function registerGb28181Module(app: FastifyInstance): Promise<void> {
  if (app.config.gbMode) await seedGbMode(app.db);
  await registerGbRoutes(app);
}
