import type { FastifyInstance } from 'fastify';
import { registerUnitRoutes } from './units.routes';

/** UnitAdmin (menu 10420) and the unit tree selector calls: the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerUnitsModule(app: FastifyInstance): Promise<void> {
  await registerUnitRoutes(app);
}
