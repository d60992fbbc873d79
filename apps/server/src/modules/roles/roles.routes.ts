import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { unitScope } from '../../http/scope';
import * as roles from './roles.service';

/** RoleAdmin (menu 10412): roles by weight, permission distribution. */
export async function registerRoleRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'roleList',
    handler: async ({ db, user, query }) => roles.listRoles(db, user, await unitScope(db, user), query.keyword),
  });

  defineRoute(app, {
    api: 'roleOptions',
    handler: async ({ db, user }) => roles.roleOptions(db, user),
  });

  defineRoute(app, {
    api: 'roleAdd',
    msg: 'success.added',
    handler: async ({ db, body, req }) => {
      const id = await roles.addRole(db, body);
      req.audit.target = id;
      return { id };
    },
  });

  defineRoute(app, {
    api: 'roleUpdate',
    msg: 'success.updated',
    handler: async ({ db, user, body }) => {
      await roles.updateRole(db, user, body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'roleDelete',
    msg: 'success.deleted',
    handler: async ({ db, user, body }) => {
      await roles.deleteRole(db, user, body.id);
      return null;
    },
  });

  defineRoute(app, {
    api: 'roleAuthGet',
    handler: async ({ db, user, query }) => roles.roleAuthTree(db, user, query.id),
  });

  defineRoute(app, {
    api: 'roleAuthUpdate',
    msg: 'success.permissionsSaved',
    handler: async ({ db, user, body }) => {
      await roles.updateRoleAuth(db, user, body);
      return null;
    },
  });
}
