import {
  Account,
  AccountAddRequest,
  AccountIdRequest,
  AccountListQuery,
  AccountStatusRequest,
  AccountUpdateRequest,
  ForceOfflineRequest,
  IdInput,
  OnlineUser,
  OnlineUserQuery,
  pageOf,
} from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { envelopeOf, sendEnvelope } from '../../http/envelope';
import { defineRoute } from '../../http/route';
import { unitScope } from '../../http/scope';
import * as users from './users.service';

/** accountAdmin (menu 10411): accounts and online users, unit-scoped. */
export async function registerUserRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'accountList',
    query: AccountListQuery,
    data: pageOf(Account),
    handler: async ({ db, user, query }) => users.listAccounts(db, await unitScope(db, user), query),
  });

  defineRoute(app, {
    api: 'accountAdd',
    body: AccountAddRequest,
    data: IdInput,
    msg: 'success.added',
    handler: async ({ db, user, body, req }) => {
      const id = await users.addAccount(db, user, await unitScope(db, user), body);
      req.audit.target = id;
      return { id };
    },
  });

  defineRoute(app, {
    api: 'accountUpdate',
    body: AccountUpdateRequest,
    msg: 'success.updated',
    handler: async ({ db, user, body }) => {
      await users.updateAccount(db, user, await unitScope(db, user), body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'accountStatus',
    body: AccountStatusRequest,
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
    body: AccountIdRequest,
    msg: 'success.passwordReset',
    handler: async ({ db, user, body }) => {
      await users.resetPassword(db, user, await unitScope(db, user), body.id);
      return null;
    },
  });

  defineRoute(app, {
    api: 'accountDelete',
    body: AccountIdRequest,
    msg: 'success.deleted',
    handler: async ({ db, user, body }) => {
      await users.deleteAccount(db, user, await unitScope(db, user), body.id);
      return null;
    },
  });

  defineRoute(app, {
    api: 'onlineUsers',
    query: OnlineUserQuery,
    data: z.array(OnlineUser),
    handler: async ({ db, user, query }) => users.onlineUsers(db, await unitScope(db, user), query.keyword),
  });

  defineRoute(app, {
    api: 'forceOffline',
    body: ForceOfflineRequest,
    msg: 'success.forcedOffline',
    handler: async ({ db, user, body }) => {
      await users.forceOffline(db, user, await unitScope(db, user), body.id);
      return null;
    },
  });
}
