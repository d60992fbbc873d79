import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { deviceDetail, deviceList, deviceTree, ptz, recordSearch, updateDevice } from './gb-devices.service';
import type { GbRuntime } from './gb-runtime';
import { gbPlay } from './gb-play';

/** The GB device tree, detail, PTZ, record search and admin list (schemas/gb28181.ts). */
export async function registerGbDeviceRoutes(app: FastifyInstance, runtime: GbRuntime): Promise<void> {
  defineRoute(app, { api: 'gbDeviceTree', handler: async ({ db, user, body }) => deviceTree(db, user, body) });
  defineRoute(app, {
    api: 'gbDeviceDetail',
    handler: async ({ db, user, body }) => deviceDetail(db, user, body.devgbid),
  });
  defineRoute(app, { api: 'gbDeviceList', handler: async ({ db, user, query }) => deviceList(db, user, query) });
  defineRoute(app, {
    api: 'gbDeviceUpdate',
    msg: 'success.saved',
    handler: async ({ db, user, body }) => updateDevice(db, user, body),
  });
  defineRoute(app, {
    api: 'gbPtz',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = `${body.channel}:${body.action}${body.preset !== undefined ? `:${body.preset}` : ''}`;
      return ptz(runtime, db, user, body);
    },
  });
  defineRoute(app, {
    api: 'gbPlay',
    handler: async ({ user, body }) => gbPlay(app.gbLive.current, user, body),
  });
  defineRoute(app, {
    api: 'gbRecordSearch',
    handler: async ({ db, user, body }) => recordSearch(runtime, db, user, body),
  });
}
