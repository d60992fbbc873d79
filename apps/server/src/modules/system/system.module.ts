import type { FastifyInstance } from 'fastify';
import { clearTemporary } from './file-store';
import { registerSystemRoutes, type ServiceAccounts } from './settings.routes';

export interface SystemModuleDeps {
  /** the console service: gis info's group_api names its port and whether the caller is logged on */
  consoleService: ServiceAccounts;
}

/**
 * System settings (rest/system/config/*) and the public login background: temporary uploads left
 * by a previous run are removed at start, then the routes.
 */
export async function registerSystemModule(app: FastifyInstance, { consoleService }: SystemModuleDeps): Promise<void> {
  await clearTemporary(app.config.dataDir, 'backgrounds');
  await registerSystemRoutes(app, consoleService);
}
