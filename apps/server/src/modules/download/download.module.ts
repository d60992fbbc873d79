import type { FastifyInstance } from 'fastify';
import { clearTemporary } from '../system/file-store';
import { registerDownloadRoutes } from './download.routes';

/** The download center: temporary files left by a previous run are removed at start, then the routes. */
export async function registerDownloadModule(app: FastifyInstance): Promise<void> {
  await clearTemporary(app.config.dataDir, 'downloads');
  await registerDownloadRoutes(app);
}
