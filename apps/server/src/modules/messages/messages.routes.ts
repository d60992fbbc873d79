import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { auditIds } from '../system/search';
import * as messages from './messages.service';

/** Message push (/dispatch/msgManage, menu 10105): gismessage, gismessagesend, gismessagesendlist. */
export async function registerMessageRoutes(
  app: FastifyInstance,
  { presence }: { presence: messages.ConsolePresence },
): Promise<void> {
  defineRoute(app, {
    api: 'messList',
    handler: async ({ db, user, body }) => messages.listMessages(db, user, body),
  });
  defineRoute(app, {
    api: 'messAdd',
    msg: 'success.added',
    handler: async ({ db, user, body, req }) => {
      const added = await messages.addMessage(db, user, body);
      req.audit.target = added.id;
      return added;
    },
  });
  defineRoute(app, {
    api: 'messEdit',
    handler: async ({ db, user, body }) => messages.getMessage(db, user, body.id),
  });
  defineRoute(app, {
    api: 'messSaveEdit',
    msg: 'success.updated',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.id;
      return messages.saveMessage(db, user, body);
    },
  });
  defineRoute(app, {
    api: 'messDelete',
    msg: 'success.deleted',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = auditIds(body.ids);
      await messages.deleteMessages(db, user, body.ids);
      return null;
    },
  });
  defineRoute(app, {
    api: 'messSendList',
    handler: async ({ db, user, body }) => messages.listSends(db, user, body),
  });
  defineRoute(app, {
    api: 'messSend',
    msg: 'success.message.sent',
    handler: async ({ user, body, req }) => {
      req.audit.target = body.messid;
      return messages.sendMessage(app, user, body);
    },
  });
  defineRoute(app, {
    api: 'messRecipients',
    handler: async ({ db, user, body }) => messages.listRecipients(db, presence, user, body),
  });
}
