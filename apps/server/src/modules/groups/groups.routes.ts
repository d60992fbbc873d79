import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import * as groups from './groups.service';

/** Talk groups of the dispatch map (menu 10101): fixed and temporary groups, spec create/edit payloads. */
export async function registerGroupRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'groupAdd',
    msg: 'success.added',
    handler: async ({ user, body, req, t }) => {
      const answer = await groups.addGroup(app, user, body, t('export.group.tempPrefix'));
      req.audit.target = answer.groupid;
      return answer;
    },
  });
  defineRoute(app, {
    api: 'groupFromDevices',
    handler: async ({ user, body, req, t }) => {
      const answer = await groups.groupFromDevices(app, user, body, t('export.group.tempPrefix'));
      if (answer.groupid !== null) req.audit.target = answer.groupid;
      return answer;
    },
  });
  defineRoute(app, {
    api: 'groupEdit',
    msg: 'success.updated',
    handler: async ({ user, body, req }) => {
      req.audit.target = body.channel_id;
      await groups.editGroup(app, user, body);
      return null;
    },
  });
  defineRoute(app, {
    api: 'groupGet',
    handler: async ({ user, body }) => groups.getGroup(app, user, body.channel_id),
  });
  defineRoute(app, {
    api: 'groupList',
    handler: async ({ user, body }) => groups.listGroups(app, user, body),
  });
  defineRoute(app, {
    api: 'groupDelete',
    msg: 'success.deleted',
    handler: async ({ user, body, req }) => {
      req.audit.target = body.channel_id;
      await groups.deleteGroup(app, user, body.channel_id);
      return null;
    },
  });
}
