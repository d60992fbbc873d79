import type { FastifyInstance } from 'fastify';
import { registerOplogRoutes } from './oplog.routes';

/** OperationLog (menu 10431) and its export: the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerOplogModule(app: FastifyInstance): Promise<void> {
  await registerOplogRoutes(app);
}
