import type { FastifyInstance } from 'fastify';
import { registerAuthRoutes } from './auth/auth.routes';
import { registerIndexRoutes } from './index/index.routes';
import { registerLicence } from './licence/licence.routes';
import { registerSystemRoutes } from './system/settings.routes';
import { registerAnnounceRoutes } from './announce/announce.routes';
import { registerDownloadRoutes } from './download/download.routes';
import { registerHomeRoutes } from './home/home.routes';

/**
 * Every domain module, in registration order. A module exports `register<Domain>(app)` which
 * declares its routes with `defineRoute` (http/route.ts). Add yours here (one line).
 */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await registerLicence(app);
  await registerAuthRoutes(app);
  await registerIndexRoutes(app);
  await registerSystemRoutes(app);
  await registerAnnounceRoutes(app);
  await registerDownloadRoutes(app);
  await registerHomeRoutes(app);
}
