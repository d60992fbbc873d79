import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import * as groups from './groups.service';

/** How often expired temporary groups are removed besides every group call. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/** Talk groups of the dispatch map (menu 10101): fixed and temporary groups, spec create/edit payloads. */
export async function registerGroups(app: FastifyInstance): Promise<void> {
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onListen', async () => {
    timer = setInterval(() => {
      groups.sweepExpired(app.db).catch((err: unknown) => app.log.error({ err }, 'temporary group sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });

  defineRoute(app, {
    api: 'groupAdd',
    msg: 'success.added',
    handler: async ({ db, user, body, req, t }) => {
      const answer = await groups.addGroup(db, user, body, t('export.group.tempPrefix'));
      req.audit.target = answer.groupid;
      return answer;
    },
  });
  defineRoute(app, {
    api: 'groupFromDevices',
    handler: async ({ db, user, body, req, t }) => {
      const answer = await groups.groupFromDevices(db, user, body, t('export.group.tempPrefix'));
      if (answer.groupid !== null) req.audit.target = answer.groupid;
      return answer;
    },
  });
  defineRoute(app, {
    api: 'groupEdit',
    msg: 'success.updated',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.channel_id;
      await groups.editGroup(db, user, body);
      return null;
    },
  });
  defineRoute(app, {
    api: 'groupGet',
    handler: async ({ db, user, body }) => groups.getGroup(db, user, body.channel_id),
  });
  defineRoute(app, {
    api: 'groupList',
    handler: async ({ db, user, body }) => groups.listGroups(db, user, body),
  });
  defineRoute(app, {
    api: 'groupDelete',
    msg: 'success.deleted',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.channel_id;
      await groups.deleteGroup(db, user, body.channel_id);
      return null;
    },
  });
}
