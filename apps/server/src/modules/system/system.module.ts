import type { FastifyInstance } from 'fastify';
import { clearTemporary } from './file-store';
import { registerSystemRoutes } from './settings.routes';

/**
 * System settings (rest/system/config/*) and the public login background: temporary uploads left
 * by a previous run are removed at start, then the routes.
 */
export async function registerSystemModule(app: FastifyInstance): Promise<void> {
  await clearTemporary(app.config.dataDir, 'backgrounds');
  await registerSystemRoutes(app);
}
