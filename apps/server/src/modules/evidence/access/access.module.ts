import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../../http/route';
import { unitScope } from '../../../http/scope';
import { SHARE_FILE_PATH } from '@bwc/protocol';
import { actorOf } from '../library/library.service';
import { AccessService } from './access.service';
import { ShareService } from './share';

/**
 * Access to other units' items (accessfrom / accessto) and external share links (issue 15 section
 * 4). Registered after the library: it sets the library's `grants` hook, so that `visible` (every
 * read of one item, file addresses included) accepts granted items.
 */
export async function registerAccess(app: FastifyInstance) {
  const library = app.evidenceLibrary;
  const access = new AccessService(app.db, library);
  const shares = new ShareService(app.db, library, app.cluster.shared);
  library.grants = access;

  defineRoute(app, {
    api: 'accessFromList',
    handler: async ({ db, user, body }) => access.list('from', await unitScope(db, user), body),
  });
  defineRoute(app, {
    api: 'accessUnits',
    handler: async ({ db, user }) => access.units(await unitScope(db, user)),
  });
  defineRoute(app, {
    api: 'accessFromAdd',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      const answer = await access.add(user, await unitScope(db, user), body);
      req.audit.target = String(answer.id);
      return answer;
    },
  });
  defineRoute(app, {
    api: 'accessFromDel',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) =>
      access.withdraw(await unitScope(db, user), actorOf(user, req.ip), body.id),
  });
  defineRoute(app, {
    api: 'accessFromView',
    handler: async ({ db, user, body }) => access.detail('from', await unitScope(db, user), body.id, user.id),
  });
  defineRoute(app, {
    api: 'accessToList',
    handler: async ({ db, user, body }) => access.list('to', await unitScope(db, user), body),
  });
  defineRoute(app, {
    api: 'accessToSave',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) =>
      access.decide(user, await unitScope(db, user), actorOf(user, req.ip), body),
  });
  defineRoute(app, {
    api: 'accessToView',
    handler: async ({ db, user, body }) => access.detail('to', await unitScope(db, user), body.id, user.id),
  });

  defineRoute(app, {
    api: 'shareAdd',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      const answer = await shares.add(user, await unitScope(db, user), actorOf(user, req.ip), body);
      req.audit.target = String(answer.link.id);
      return answer;
    },
  });
  defineRoute(app, {
    api: 'shareList',
    handler: async ({ db, user, body }) => shares.list(await unitScope(db, user), body),
  });
  defineRoute(app, {
    api: 'shareRevoke',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) =>
      shares.revoke(user, await unitScope(db, user), actorOf(user, req.ip), body.id),
  });
  defineRoute(app, {
    api: 'shareOpen',
    handler: async ({ body, req }) => shares.open(body.token, body.password, req.ip),
  });

  app.get<{ Params: { kind: string; id: string }; Querystring: { token?: string } }>(
    `${SHARE_FILE_PATH}/:kind/:id`,
    (req, reply) => shares.serve(req, reply),
  );
}
