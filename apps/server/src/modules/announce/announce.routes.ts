import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { auditIds } from '../system/search';
import * as announce from './announce.service';

/** rest/system/announce/*: list, read, add, edit, delete and publish announcements. */
export async function registerAnnounceRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'announceList',
    handler: async ({ db, body }) => announce.list(db, body),
  });

  defineRoute(app, {
    api: 'announceGetById',
    handler: async ({ db, user, query }) => announce.readableById(db, user, query.id),
  });

  defineRoute(app, {
    api: 'announcePublished',
    handler: async ({ db, query }) => announce.published(db, query),
  });

  defineRoute(app, {
    api: 'announceAdd',
    msg: 'success.added',
    handler: async ({ req, db, user, body }) => {
      const created = await announce.add(db, user, body);
      req.audit.target = created.id;
      return created;
    },
  });

  defineRoute(app, {
    api: 'announceUpdateGet',
    handler: async ({ db, body }) => announce.byId(db, body.id),
  });

  defineRoute(app, {
    api: 'announceUpdatePost',
    msg: 'success.updated',
    handler: async ({ db, body }) => announce.update(db, body),
  });

  defineRoute(app, {
    api: 'announceDelete',
    msg: 'success.deleted',
    handler: async ({ req, db, body }) => {
      req.audit.target = auditIds(body.ids);
      await announce.remove(db, body.ids);
      return null;
    },
  });

  defineRoute(app, {
    api: 'announcePublish',
    msg: 'success.published',
    handler: async ({ req, db, body }) => {
      req.audit.target = auditIds(body.ids);
      await announce.publish(db, body.ids);
      return null;
    },
  });
}
