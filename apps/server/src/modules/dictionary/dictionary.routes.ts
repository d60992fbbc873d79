import {
  DictAddRequest,
  DictDeleteRequest,
  DictEntry,
  DictListQuery,
  DictType,
  DictUpdateRequest,
  IdInput,
} from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '../../http/route';
import * as dictionary from './dictionary.service';

/** DataDictionary (menu 10450): typed lists read by every user, edited with the menu's rights. */
export async function registerDictionaryRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'dictTypes',
    data: z.array(DictType),
    handler: async ({ db }) => dictionary.listTypes(db),
  });

  defineRoute(app, {
    api: 'dictList',
    query: DictListQuery,
    data: z.array(DictEntry),
    handler: async ({ db, query }) => dictionary.listEntries(db, query),
  });

  defineRoute(app, {
    api: 'dictAdd',
    body: DictAddRequest,
    data: IdInput,
    msg: 'success.added',
    handler: async ({ db, body, req }) => {
      const id = await dictionary.addEntry(db, body);
      req.audit.target = id;
      return { id };
    },
  });

  defineRoute(app, {
    api: 'dictUpdate',
    body: DictUpdateRequest,
    msg: 'success.updated',
    handler: async ({ db, body }) => {
      await dictionary.updateEntry(db, body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'dictDelete',
    body: DictDeleteRequest,
    msg: 'success.deleted',
    handler: async ({ db, body }) => {
      await dictionary.deleteEntry(db, body.id);
      return null;
    },
  });
}
