import type { FastifyInstance } from 'fastify';
import { envelopeOf, sendEnvelope } from '../../http/envelope';
import { defineRoute } from '../../http/route';
import { unitScope } from '../../http/scope';
import * as users from './users.service';

/** accountAdmin (menu 10411): accounts and online users, unit-scoped. */
export async function registerUserRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'accountList',
    handler: async ({ db, user, query }) => users.listAccounts(db, await unitScope(db, user), query),
  });

  defineRoute(app, {
    api: 'accountAdd',
    msg: 'success.added',
    handler: async ({ db, user, body, req }) => {
      const id = await users.addAccount(db, user, await unitScope(db, user), body);
      req.audit.target = id;
      return { id };
    },
  });

  defineRoute(app, {
    api: 'accountUpdate',
    msg: 'success.updated',
    handler: async ({ db, user, body }) => {
      await users.updateAccount(db, user, await unitScope(db, user), body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'accountStatus',
    handler: async ({ db, user, body, reply, t }) => {
      await users.setAccountStatus(db, user, await unitScope(db, user), body);
      // the success msg says which way the switch went
      return sendEnvelope(
        reply,
        envelopeOf(200, t(body.status === 'enabled' ? 'success.enabled' : 'success.disabled'), null),
      );
    },
  });

  defineRoute(app, {
    api: 'accountResetPassword',
    msg: 'success.passwordReset',
    handler: async ({ db, user, body }) => {
      await users.resetPassword(db, user, await unitScope(db, user), body.id);
      return null;
    },
  });

  defineRoute(app, {
    api: 'accountDelete',
    msg: 'success.deleted',
    handler: async ({ db, user, body }) => {
      await users.deleteAccount(db, user, await unitScope(db, user), body.id);
      return null;
    },
  });

  defineRoute(app, {
    api: 'onlineUsers',
    handler: async ({ db, user, query }) => users.onlineUsers(db, await unitScope(db, user), query.keyword),
  });

  defineRoute(app, {
    api: 'forceOffline',
    msg: 'success.forcedOffline',
    handler: async ({ db, user, body }) => {
      await users.forceOffline(db, user, await unitScope(db, user), body.id);
      return null;
    },
  });
}
