import type { FastifyInstance } from 'fastify';
import { MenuId } from '@bwc/protocol';
import { Errors } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { roleCan } from '../auth/permission.repository';
import {
  deviceDetail,
  deviceList,
  deviceTree,
  ptz,
  recordSearch,
  refreshDevice,
  updateDevice,
} from './gb-devices.service';
import type { GbRuntime } from './gb-runtime';
import { gbPlay, gbPlaybackControl } from './gb-play';

const LIVE_MENUS = [MenuId.EMERGENCY, MenuId.DISPATCH_VIDEO, MenuId.VIDEO_PATROL];

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
    api: 'gbDeviceRefresh',
    handler: async ({ db, user, body }) => refreshDevice(runtime, db, user, body),
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
    handler: async ({ db, user, body }) => {
      // history replay (10152) admits playback only; live needs one of the live menus
      if (body.start === undefined && body.end === undefined) {
        let live = false;
        for (const menu of LIVE_MENUS) if (!live) live = await roleCan(db, user.role_id, menu, 'view');
        if (!live) throw Errors.forbidden(MenuId.VIDEO_PATROL, 'view');
      }
      return gbPlay(app.gbLive.current, user, body);
    },
  });
  defineRoute(app, {
    api: 'gbPlaybackControl',
    handler: async ({ user, body, req }) => {
      req.audit.target = `${body.key}:${body.action}${body.offset !== undefined ? `:${body.offset}` : ''}${body.scale !== undefined ? `:${body.scale}` : ''}`;
      return gbPlaybackControl(app.gbLive.current, user, body);
    },
  });
  defineRoute(app, {
    api: 'gbRecordSearch',
    handler: async ({ db, user, body }) => recordSearch(runtime, db, user, body),
  });
}
