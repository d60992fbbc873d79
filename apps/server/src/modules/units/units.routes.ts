import {
  IdInput,
  TreeNode,
  Unit,
  UnitAddRequest,
  UnitByCodeRequest,
  UnitDeleteRequest,
  UnitInfo,
  UnitListQuery,
  UnitMoveRequest,
  UnitTreeRequest,
  UnitUpdateRequest,
} from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '../../http/route';
import { unitScope } from '../../http/scope';
import * as units from './units.service';

/** UnitAdmin (menu 10420) and the unit tree selector calls; all unit-scoped. */
export async function registerUnitRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'unitGet',
    query: UnitListQuery,
    data: z.array(Unit),
    handler: async ({ db, user, query }) => units.listUnits(db, await unitScope(db, user), query.keyword),
  });

  defineRoute(app, {
    api: 'unitAdd',
    body: UnitAddRequest,
    data: IdInput,
    msg: 'success.added',
    handler: async ({ db, user, body, req }) => {
      const id = await units.addUnit(db, user, await unitScope(db, user), body);
      req.audit.target = id;
      return { id };
    },
  });

  defineRoute(app, {
    api: 'unitUpdate',
    body: UnitUpdateRequest,
    msg: 'success.updated',
    handler: async ({ db, user, body }) => {
      await units.updateUnit(db, await unitScope(db, user), body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'unitMove',
    body: UnitMoveRequest,
    msg: 'success.moved',
    handler: async ({ db, user, body }) => {
      await units.moveUnit(db, user, await unitScope(db, user), body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'unitDelete',
    body: UnitDeleteRequest,
    msg: 'success.deleted',
    handler: async ({ db, user, body }) => {
      await units.deleteUnit(db, await unitScope(db, user), body.id);
      return null;
    },
  });

  defineRoute(app, {
    api: 'unitByCode',
    body: UnitByCodeRequest,
    data: UnitInfo,
    audit: false,
    handler: async ({ db, user, body }) => units.unitByCode(db, await unitScope(db, user), body.bh),
  });

  defineRoute(app, {
    api: 'unitTree',
    body: UnitTreeRequest,
    data: z.array(TreeNode),
    audit: false,
    handler: async ({ db, user, body }) => units.unitTreeLevel(db, await unitScope(db, user), body, false),
  });

  defineRoute(app, {
    api: 'unitTreeDevices',
    body: UnitTreeRequest,
    data: z.array(TreeNode),
    audit: false,
    handler: async ({ db, user, body }) => units.unitTreeLevel(db, await unitScope(db, user), body, true),
  });

  defineRoute(app, {
    api: 'unitSearch',
    body: UnitTreeRequest,
    data: z.array(TreeNode),
    audit: false,
    handler: async ({ db, user, body }) => units.searchUnits(db, await unitScope(db, user), body),
  });
}
