import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { assertInScope, unitScope } from '../../http/scope';
import type { FenceEngine } from './fence-engine';
import * as repo from './fences.repository';
import * as fences from './fences.service';

/** Electronic fences (menu 10441) and zones (menu 10442); a fence write reloads the crossing engine. */
export async function registerFenceRoutes(app: FastifyInstance, engine: FenceEngine): Promise<void> {
  const deps: fences.FenceWriteDeps = { db: app.db, engine };

  defineRoute(app, {
    api: 'fenceList',
    handler: async ({ db, user, query }) => fences.listFences(db, user, query),
  });
  defineRoute(app, {
    api: 'fenceAdd',
    msg: 'success.added',
    handler: async ({ user, body, req }) => {
      const fence = await fences.addFence(deps, user, body);
      req.audit.target = fence.id;
      return fence;
    },
  });
  defineRoute(app, {
    api: 'fenceUpdate',
    msg: 'success.updated',
    handler: async ({ user, body }) => fences.updateFence(deps, user, body),
  });
  defineRoute(app, {
    api: 'fenceDelete',
    msg: 'success.deleted',
    handler: async ({ user, body }) => {
      await fences.deleteGeo(deps, user, 'fence', body.id);
      return null;
    },
  });
  defineRoute(app, {
    api: 'fenceEvents',
    handler: async ({ db, user, query }) => {
      const scope = await unitScope(db, user);
      const unitIds = scope.all ? null : scope.ids;
      if (query.device_id !== undefined) {
        const [d] = await repo.devicesByIds(db, [query.device_id]);
        if (d) assertInScope(scope, d.unit_id);
      }
      const { total, rows } = await repo.listFenceEvents(
        db,
        { unitIds, fenceId: query.fence_id, deviceId: query.device_id },
        query,
      );
      return {
        total,
        page: query.page,
        limit: query.limit,
        list: rows.map((r) => ({ ...r, direction: r.direction as 'enter' | 'exit' })),
      };
    },
  });

  defineRoute(app, {
    api: 'zoneList',
    handler: async ({ db, user, query }) => fences.listZones(db, user, query),
  });
  defineRoute(app, {
    api: 'zoneAdd',
    msg: 'success.added',
    handler: async ({ db, user, body, req }) => {
      const zone = await fences.addZone(db, user, body);
      req.audit.target = zone.id;
      return zone;
    },
  });
  defineRoute(app, {
    api: 'zoneUpdate',
    msg: 'success.updated',
    handler: async ({ db, user, body }) => fences.updateZone(db, user, body),
  });
  defineRoute(app, {
    api: 'zoneDelete',
    msg: 'success.deleted',
    handler: async ({ user, body }) => {
      await fences.deleteGeo(deps, user, 'zone', body.id);
      return null;
    },
  });
}
