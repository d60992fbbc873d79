import type { FastifyInstance } from 'fastify';
import { registerRoleRoutes } from './roles.routes';

/** RoleAdmin (menu 10412): roles and permission distribution: the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerRolesModule(app: FastifyInstance): Promise<void> {
  await registerRoleRoutes(app);
}
