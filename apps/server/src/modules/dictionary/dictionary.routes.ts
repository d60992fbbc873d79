import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import * as dictionary from './dictionary.service';

/** DataDictionary (menu 10450): typed lists read by every user, edited with the menu's rights. */
export async function registerDictionaryRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'dictTypes',
    handler: async ({ db }) => dictionary.listTypes(db),
  });

  defineRoute(app, {
    api: 'dictList',
    handler: async ({ db, query }) => dictionary.listEntries(db, query),
  });

  defineRoute(app, {
    api: 'dictAdd',
    msg: 'success.added',
    handler: async ({ db, body, req }) => {
      const id = await dictionary.addEntry(db, body);
      req.audit.target = id;
      return { id };
    },
  });

  defineRoute(app, {
    api: 'dictUpdate',
    msg: 'success.updated',
    handler: async ({ db, body }) => {
      await dictionary.updateEntry(db, body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'dictDelete',
    msg: 'success.deleted',
    handler: async ({ db, body }) => {
      await dictionary.deleteEntry(db, body.id);
      return null;
    },
  });
}
