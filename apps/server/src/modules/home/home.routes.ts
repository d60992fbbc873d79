import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { homeData } from './home.service';

/** GET /rest/index/index/home: what the home page (/menu) shows. */
export async function registerHomeRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'home',
    handler: async ({ db }) => homeData(db),
  });
}
