import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { unitScope } from '../../http/scope';
import * as units from './units.service';

/** UnitAdmin (menu 10420) and the unit tree selector calls; all unit-scoped. */
export async function registerUnitRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'unitGet',
    handler: async ({ db, user, query }) => units.listUnits(db, await unitScope(db, user), query.keyword),
  });

  defineRoute(app, {
    api: 'unitAdd',
    msg: 'success.added',
    handler: async ({ db, user, body, req }) => {
      const id = await units.addUnit(db, user, await unitScope(db, user), body);
      req.audit.target = id;
      return { id };
    },
  });

  defineRoute(app, {
    api: 'unitUpdate',
    msg: 'success.updated',
    handler: async ({ db, user, body }) => {
      await units.updateUnit(db, await unitScope(db, user), body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'unitMove',
    msg: 'success.moved',
    handler: async ({ db, user, body }) => {
      await units.moveUnit(db, user, await unitScope(db, user), body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'unitDelete',
    msg: 'success.deleted',
    handler: async ({ db, user, body }) => {
      await units.deleteUnit(db, await unitScope(db, user), body.id);
      return null;
    },
  });

  defineRoute(app, {
    api: 'unitByCode',
    handler: async ({ db, user, body }) => units.unitByCode(db, await unitScope(db, user), body.bh),
  });

  defineRoute(app, {
    api: 'unitTree',
    handler: async ({ db, user, body }) => units.unitTreeLevel(db, await unitScope(db, user), body, false),
  });

  defineRoute(app, {
    api: 'unitTreeDevices',
    handler: async ({ db, user, body }) => units.unitTreeLevel(db, await unitScope(db, user), body, true),
  });

  defineRoute(app, {
    api: 'unitSearch',
    handler: async ({ db, user, body }) => units.searchUnits(db, await unitScope(db, user), body),
  });
}
