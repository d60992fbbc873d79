import type { FastifyInstance } from 'fastify';
import { readSettings } from '../../db/settings';
import { defineRoute } from '../../http/route';
import { buildId, productVersion } from './version';

export async function registerIndexRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'pageInfo',
    handler: async ({ db }) => {
      const title = await readSettings(db, 'titleset');
      const back = await readSettings(db, 'backset');
      return {
        title: title.title,
        support_text: title.support_text,
        logo_path: '',
        background_path: back.background_path,
        version: productVersion(),
      };
    },
  });

  defineRoute(app, {
    api: 'serverVersion',
    handler: async () => ({ version: productVersion(), build: buildId(app.config.webDist) }),
  });
}
